"""What a newcomer meets first: the set-up contract holds (.ci/run installs as the README says),
every link of the documents leads somewhere, the examples the documents use are there and work,
and the package says what it is (licence, authors, extras named as the errors that ask for them
name them). The README's quick start, run as written, prints what it shows: tests/test_docs.py."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import metadata
from pathlib import Path

import pytest

#: Documents, links, metadata and the examples' files: nothing here differs between the engines.
pytestmark = pytest.mark.one_engine

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent


def _block(text: str, heading: str) -> str:
    """The first fenced block after ``heading``."""
    after = text[text.index(heading) :]
    found = re.search(r"```[a-z]*\n(.*?)```", after, re.DOTALL)
    assert found, f"no code block under {heading}"
    return found.group(1)


def test_the_two_set_up_commands_are_the_readme_contract() -> None:
    """Exactly two set-up commands, and .ci/run installs and tests as they say."""
    install = _block(README, "For development, install and solve an example deal").strip()
    tests = _block(README, "Run the tests:").strip()
    assert install == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/patience solve accordion --seed 7"
    )
    assert tests == ".venv/bin/python -m pytest -q"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv .venv\n" in ci and ".venv/bin/pip install -q -e '.[test]'\n" in ci
    assert ci.rstrip().endswith(tests)


def test_the_readme_is_read_in_five_minutes() -> None:
    """A front door: at most 1,250 words (five minutes at 250 words a minute), the rest in docs/."""
    words = len(re.sub(r"```.*?```", "", README, flags=re.DOTALL).split())
    assert words <= 1250, words
    for heading in ("## Install", "## Quick start", "## Commands", "## From Python", "## Documentation"):
        assert heading in README


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_somewhere(document: Path) -> None:
    for link in _links(document):
        if re.match(r"https?://", link):
            continue
        target, _, anchor = link.partition("#")
        path = (document.parent / target).resolve() if target else document
        assert path.exists(), f"{document.name}: {link} leads nowhere"
        if anchor:
            assert anchor in _anchors(path), f"{document.name}: {link}: no heading {anchor!r}"


def test_every_example_is_used_in_the_documents_and_works() -> None:
    text = "\n".join(path.read_text(encoding="utf-8") for path in DOCUMENTS)
    examples = sorted((ROOT / "examples").iterdir())
    assert len(examples) >= 3
    for example in examples:
        assert f"examples/{example.name}" in text, f"{example.name} is used by no document"
    patience = str(BIN / "patience")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([patience, *args], cwd=ROOT, capture_output=True, text=True, check=False)

    assert run("solve", "accordion", "--file", "examples/deals.txt", "--json").returncode == 0
    assert run("solve", "accordion", "--file", "examples/positions.txt", "--json").returncode == 0
    position = (ROOT / "examples" / "position-accordion.txt").read_text(encoding="utf-8").strip()
    assert run("hint", "accordion", "--position", position).returncode == 0
    checked = run("verify", "accordion", "--seed", "7", "--solution", "examples/moves-accordion-7.txt")
    assert checked.returncode == 0 and checked.stdout.startswith("valid: all 51 moves legal; the game is won")


def test_the_package_says_what_it_is() -> None:
    """pip show and PyPI read these: the licence (MIT, with its file), the authors."""
    meta = metadata("patience-solver")
    assert meta["License-Expression"] == "MIT" and "LICENSE" in meta.get_all("License-File")
    assert meta["Author"] and meta["Summary"] and meta["Requires-Python"] == ">=3.11"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_extras_the_errors_ask_for_are_those_the_readme_lists() -> None:
    """Every `pip install 'patience-solver[X]'` an error message advises names an extra that
    exists, and the README's extras table lists each extra but the developers' own."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"]) - {"test"}
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "solver").rglob("*.py"))
    advised = set(re.findall(r"pip install 'patience-solver\[(\w+)\]'", code))
    assert advised == extras == {"plot", "dask", "pandas"}
    table = README[README.index("| extra | brings | for |") :].split("\n\n", 1)[0]
    assert {row.split("`")[1] for row in table.splitlines()[2:]} == extras
    assert "pip install ." in README and "pip install '.[plot]'" in README


def test_the_changelog_has_every_version() -> None:
    """Each version the package has been (pyproject's now, and every earlier) has its section."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert f"## {version} " in changelog or "## Unreleased" in changelog
    for earlier in ("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.6.1", "0.6.2"):
        assert f"## {earlier} (" in changelog


def test_the_code_map_names_every_module() -> None:
    code_map = (ROOT / "docs" / "code-map.md").read_text(encoding="utf-8")
    modules = [path for part in ("solver", "rulesets") for path in (ROOT / part).rglob("*.py")]
    missing = [
        str(path.relative_to(ROOT)) for path in modules if path.name != "__init__.py" and path.name not in code_map
    ]
    assert missing == []
    assert "`rulesets/__init__.py`" in (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
