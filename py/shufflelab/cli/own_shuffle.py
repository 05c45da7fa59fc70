"""``--file``: your own shuffle, which ``exact`` walks and ``tally`` counts, registered here for both.

Apart from the common options because it needs ``custom``, which compiles and walks the
user's code and so imports the exact answers: the commands that never take a file start
without them.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from .. import catalog, custom
from ..errors import ShuffleLabError
from .common import UsageError, add_algorithm_options

DEFAULT_TIME_LIMIT = 60.0  # seconds: the longest walk allowed, 1,000,000 paths of a user's swap-any, takes about 15 s here


def add_algorithm_or_file_options(parser: argparse.ArgumentParser) -> None:
    """``--algo`` and its parameters, or ``--file`` with your own shuffle: one or the other."""
    choice = parser.add_mutually_exclusive_group()
    add_algorithm_options(parser, choice)
    choice.add_argument("--file", metavar="PATH",
                        help="your own shuffle: a Python file that defines shuffle(cards, rng) (docs: Write your own shuffle)")


@contextlib.contextmanager
def shuffle_to_run(args: argparse.Namespace):
    """Yield (algorithm id, a time limit for each step of the user's code): the built-in ``--algo``, or the shuffle in
    ``--file`` registered for the block and unregistered after it, its errors one line naming the file, its prints on
    stderr (so that --json stays JSON)."""
    if args.file is None:
        yield catalog.get(args.algo).id, contextlib.nullcontext
        return
    check_time_limit(args.time_limit)
    source = _read_source(args.file)

    def limit():
        return custom.time_limit(args.time_limit)

    try:
        with contextlib.redirect_stdout(sys.stderr):
            with limit():  # its top level runs here: a loop there must not hang the command
                entry = custom.register_custom(source, args.file)
            try:
                yield entry.id, limit
            finally:
                catalog.unregister(entry.id)
    except custom.TimeLimitExceeded as error:
        raise UsageError(f"{args.file}: {error}; --time-limit SECONDS gives it longer") from None
    except ShuffleLabError as error:  # the code's own mistakes, and what the walk refuses
        raise UsageError(f"{args.file}: {error}") from None


def check_time_limit(seconds: float) -> None:
    """Raise UsageError unless ``seconds`` is a time limit: 0 (none) or more."""
    if not seconds >= 0:  # also refuses nan
        raise UsageError(f"--time-limit must be 0 (no limit) or more seconds, not {seconds:g}")


def _read_source(path: str) -> str:
    """Return the text of a user's shuffle file, or raise UsageError naming it (unreadable, or not UTF-8)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None
