"""The code's layout rules, checked: a file is one concern of a few hundred lines, imports are at the top unless a
comment says why one is lazy, and on the page one client owns each worker."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY_FILES = sorted(path for path in (ROOT / "py").rglob("*.py") if "__pycache__" not in path.parts)
MAX_LINES = 500  # a file near this is asking to be split
INDENTED_IMPORT = re.compile(r"^\s+(from \S+ )?import ")


@pytest.mark.parametrize("path", PY_FILES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_python_file_is_a_few_hundred_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_an_import_below_the_top_says_why():
    """An import inside a function or a branch is lazy on purpose (a start that must stay light, an interpreter that
    lacks the module) and says so on its line; a try/except ImportError is the other accepted form."""
    unexplained = []
    for path in PY_FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if not INDENTED_IMPORT.match(line) or "#" in line:
                continue
            before = "\n".join(lines[max(0, number - 4):number - 1])
            if "try:" in before or "except ImportError" in before:
                continue
            unexplained.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert unexplained == []


def test_one_client_owns_each_worker_and_no_view_reaches_into_another():
    page = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "py" / "page").glob("*.py")}
    makers = sorted(name for name, text in page.items() if "BuiltinsWorker()" in text)
    assert makers == ["lab_client.py"]
    assert sorted(name for name, text in page.items() if re.search(r"\bSandbox\(\)", text)) == ["main.py"]
    for name, text in page.items():
        assert not re.search(r"\b(self|play|view)\.lab\.(worker|sandbox|ask|connect|connecting|builtins)\b", text), name
        assert not re.search(r"^\s+from \.(lab_view|play_view|custom_view) import", text, re.M), name
