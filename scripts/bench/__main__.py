"""`python scripts/bench`: the benchmark suite's command line (scripts/bench/runner.py)."""

import sys
from pathlib import Path

# Python put this folder first on the path; the package's parent goes there instead, so that `bench` imports as a
# package and no module of it (lab, pages, ...) can shadow another's name.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench.runner import main  # noqa: E402

sys.exit(main())
