"""The command line every golden-vector generator shares: add what is missing, never rewrite.

    PYTHONPATH=py python tests/golden/make_<kind>_vectors.py [--check]

``--check`` writes nothing and exits 1 when a case is missing (the tests ask the same).
"""

import json
import sys
from pathlib import Path


def run(path: Path, empty, append_missing, dump=None, what: str = "vector(s)") -> None:
    """Load ``path`` (or ``empty()``), let ``append_missing`` add the missing cases, then check or write."""
    golden = json.loads(path.read_text("utf-8")) if path.exists() else empty()
    added = append_missing(golden)
    if "--check" in sys.argv[1:]:
        print(f"{added} case(s) missing from {path.name}")
        sys.exit(1 if added else 0)
    if added:
        text = dump(golden) if dump else json.dumps(golden, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
    print(f"appended {added} {what} to {path.name}")
