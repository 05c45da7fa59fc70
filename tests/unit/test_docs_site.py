"""The documentation site: it builds strictly, makes no request outside itself, and its generated parts are the code's."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shufflelab import catalog, cli

ROOT = Path(__file__).resolve().parents[2]
# a tag that makes the browser fetch something: a script, a stylesheet or icon, an image, a frame
FETCHING = re.compile(r"<(?:script|img|iframe|source)\b[^>]*\bsrc=\"(https?:)?//|<link\b[^>]*\bhref=\"(https?:)?//", re.I)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Build the site once, strictly (a broken link, a missing page or a page left out of nav fails)."""
    out = tmp_path_factory.mktemp("docs-site")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
                            cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def test_no_page_fetches_anything_from_outside_the_site(built):
    pages = list(built.rglob("*.html"))
    assert len(pages) >= 25
    for page in pages:
        assert not FETCHING.search(page.read_text("utf-8")), page.relative_to(built)
    for sheet in built.rglob("*.css"):
        assert not re.search(r"url\((['\"]?)https?:", sheet.read_text("utf-8")), sheet.relative_to(built)


def test_the_cli_reference_is_every_commands_help(built):
    page = (built / "reference" / "cli.html").read_text("utf-8")
    for name in cli.COMMANDS:
        assert f"<code>{name}</code>" in page
    assert "--shuffles" in page and "--feedback" in page  # option names, as argparse printed them


def test_the_algorithm_reference_lists_every_built_in(built):
    page = (built / "reference" / "algorithms.html").read_text("utf-8")
    for entry in catalog.ALGORITHMS:
        assert f"<code>{entry.id}</code>" in page and entry.name.replace("&", "&amp;") in page


def test_the_readme_is_a_front_page_whose_docs_links_exist():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= 150
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert len(links) >= 10
    for link in links:
        assert (ROOT / link).is_file(), link
