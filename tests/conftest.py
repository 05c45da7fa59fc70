"""Shared test set-up: the package lives in py/, importable without installing; the site's
tooling in scripts/ (site_manifest, serve) too, for its tests; and tests/ itself, for the tables every
test folder derives from the catalog (catalog_tables)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT / "py", ROOT / "scripts", ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
