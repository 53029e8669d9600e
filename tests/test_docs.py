"""docs/ says what the program says: the games' rules as `patience describe` prints them, the
players' games as `patience play` plays them, and the README's quick start what its commands print.

Regenerate docs/games.md after changing a game's rules text with
``PATIENCE_WRITE_DOCS=1 python -m pytest tests/test_docs.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import load_benchmark

from rulesets import families

DOCS = Path(__file__).resolve().parent.parent / "docs"
HEADER = """# The games

Each game's rules, options and variants, exactly as `patience describe GAME` prints them
(this file is generated from the rule modules: `PATIENCE_WRITE_DOCS=1 python -m pytest
tests/test_docs.py` rewrites it). Where the old sources leave a point open, the text says which
choice the solver makes. How to write a game in progress is in [positions.md](positions.md).
"""


def games_page() -> str:
    parts = [HEADER]
    for family in families().values():
        parts.append(f"## {family.name}\n\n```\n{family.describe()}\n```\n")
    return "\n".join(parts)


def test_games_page_is_what_describe_prints() -> None:
    page = DOCS / "games.md"
    if os.environ.get("PATIENCE_WRITE_DOCS"):
        page.write_text(games_page(), encoding="utf-8")
    assert page.read_text(encoding="utf-8") == games_page(), "docs/games.md is stale: regenerate it (see its header)"


def test_docs_stand_alone() -> None:
    """The repository documents its own rules: nothing points outside it."""
    root = DOCS.parent
    outside = ("RULES" + ".md", "../" + "shared")  # spelt apart so this file does not match itself
    code = [path for part in ("solver", "rulesets", "tests", "benchmarks") for path in (root / part).rglob("*.py")]
    files = [*DOCS.rglob("*.md"), root / "README.md", *code]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name in outside:
            assert name not in text, f"{path} points at {name}, which is not in the repository"


def test_results_page_gives_each_presets_survey_command_and_n() -> None:
    """docs/results.md covers every preset, and for each one the table's N and the survey command
    are the ones benchmarks/results.py runs (its PLANS), word for word."""
    benchmark = load_benchmark("results")
    page = (DOCS / "results.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| ([a-z-]+) \| ([\d,]+) \|", page, re.MULTILINE))
    presets = {variant.name for family in families().values() for variant in family.variants}
    assert {plan.preset for plan in benchmark.PLANS} == presets == set(table)
    for plan in benchmark.PLANS:
        assert table[plan.preset] == f"{plan.deals:,}", plan.preset
        assert " ".join(benchmark.command(plan, 2)) + "\n" in page, plan.preset


def test_results_page_gives_each_presets_player_surveys() -> None:
    """The players' table of docs/results.md has a row for every preset, its N of deals solved
    and played by each player, and the three survey commands benchmarks/player_results.py runs
    (its PLANS), word for word."""
    benchmark = load_benchmark("player_results")
    page = (DOCS / "results.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| ([a-z-]+) \| ([\d,]+): .*? \| ([\d,]+): .*? \| ([\d,]+): .*? \| (\d+) \|", page, re.MULTILINE
    )
    presets = {variant.name for family in families().values() for variant in family.variants}
    assert {plan.preset for plan in benchmark.PLANS} == presets == {row[0] for row in rows}
    for plan in benchmark.PLANS:
        (row,) = [row for row in rows if row[0] == plan.preset]
        assert row[1:] == (f"{plan.deals:,}", f"{plan.deals:,}", f"{plan.sampled:,}", str(plan.samples)), plan.preset
        for survey, _, _ in plan.surveys():
            assert " ".join(benchmark.command(plan, survey, 2)) + "\n" in page, (plan.preset, survey)


def _sessions(page: str) -> list[list[tuple[str, str]]]:
    """The page's shell sessions: each fenced block whose lines start with ``$ ``, as (command,
    what it printed) pairs in order."""
    sessions = []
    for block in re.findall(r"```\n(\$ .*?)```", page, re.DOTALL):
        pairs: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                pairs.append((line[2:], []))
            else:
                pairs[-1][1].append(line)
        sessions.append([(command, "".join(f"{line}\n" for line in printed)) for command, printed in pairs])
    return sessions


def _steady(text: str) -> str:
    """Output with the CPU seconds, which differ from run to run, and the engine (the page's were
    printed on the compiled core, and the Python engine plays these games alike) masked."""
    text = re.sub(r"\d+ moves, [\d.]+ CPU seconds", "N moves, S CPU seconds", text)
    text = re.sub(r"[\d.]+ CPU seconds for the exact chance", "S CPU seconds for the exact chance", text)
    text = re.sub(r'"engine": "(native|python)"', '"engine": E', text)
    return re.sub(r'"seconds": [\d.e-]+', '"seconds": S', text)


@pytest.mark.one_engine
def test_the_players_page_prints_what_the_commands_print(tmp_path: Path) -> None:
    """Every command shown in docs/players.md, run in turn from a copy of the examples, prints
    what the page shows (the CPU seconds aside)."""
    shutil.copytree(DOCS.parent / "examples", tmp_path / "examples")
    (tmp_path / "out").mkdir()  # $out, the folder the page's files go to
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    environment["out"] = str(tmp_path / "out")
    sessions = _sessions((DOCS / "players.md").read_text(encoding="utf-8"))
    assert len(sessions) >= 8
    for session in sessions:
        for command, shown in session:
            ran = subprocess.run(
                ["bash", "-c", command],
                cwd=tmp_path,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # as a terminal shows them, in the order written
                text=True,
                env=environment,
                check=False,
            )
            assert _steady(ran.stdout) == _steady(shown), command
    assert sorted(path.name for path in tmp_path.iterdir()) == ["examples", "out"]  # nothing beside them


@pytest.mark.one_engine
def test_the_face_down_page_prints_what_the_commands_print() -> None:
    """Every command shown in docs/face-down.md prints what the page shows (the CPU seconds
    aside): the bracket's figures are counted in states, so they are the same on any machine."""
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    sessions = _sessions((DOCS / "face-down.md").read_text(encoding="utf-8"))
    assert len(sessions) >= 10
    for session in sessions:
        for command, shown in session:
            ran = subprocess.run(
                ["bash", "-c", command],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=environment,
                check=False,
            )
            assert _steady(ran.stdout) == _steady(shown), command


# --- the README's quick start ----------------------------------------------------------------------


def _quick_start() -> list[tuple[str, list[str]]]:
    """The README's quick start: each command with the lines shown under it."""
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"## Quick start\n.*?```\n(.*?)```", readme, re.DOTALL)
    (session,) = _sessions(f"```\n{block}```")
    return [(command, shown.splitlines()) for command, shown in session]


def _shows(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows: line for line, where a shown line ending in
    `` ...`` is the start of the printed one, and a last line ``...`` stands for the lines after."""
    if shown[-1:] == ["..."]:
        shown, printed = shown[:-1], printed[: len(shown) - 1]
    return len(shown) == len(printed) and all(
        line == out or line.endswith(" ...") and out.startswith(line[:-3]) for line, out in zip(shown, printed)
    )


@pytest.mark.one_engine  # as the players' page: the Python engine prints these alike, but for its name
def test_the_quick_start_prints_what_the_readme_shows(tmp_path: Path) -> None:
    """The quick start run as written, in one shell, from a copy of the examples with the virtual
    environment activated as the README says: each command succeeds and prints the lines shown
    under it (its engine, the solver's version and timings aside; ``$out``, the folder made for
    its files, named so), and its files go to that folder, none to the copy."""
    copy, temporary = tmp_path / "copy", tmp_path / "tmp"
    shutil.copytree(DOCS.parent / "examples", copy / "examples")
    activate = copy / ".venv" / "bin" / "activate"
    activate.parent.mkdir(parents=True)
    activate.write_text(f'export PATH="{Path(sys.executable).parent}:$PATH"\n')  # what the venv's own does
    temporary.mkdir()
    before = sorted(copy.rglob("*"))
    commands = _quick_start()
    assert commands[0] == ("source .venv/bin/activate", []) and len(commands) >= 10
    script = "".join(f"echo '@@@ {i}'\n{command}\necho \"@@@ exit $?\"\n" for i, (command, _) in enumerate(commands))
    environment = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "CI")}
    environment.update(PATH="/usr/bin:/bin", TMPDIR=str(temporary))  # patience found through the activation
    ran = subprocess.run(
        ["bash", "-c", script + 'echo "@@@ out $out"'],
        cwd=copy,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # as a terminal shows them, in the order written
        text=True,
        env=environment,
        check=False,
    )
    # What the script printed: "@@@ i", command i's lines, "@@@ exit CODE", ..., then "@@@ out FOLDER".
    _, *pieces = re.split(r"^@@@ (.*)\n", ran.stdout, flags=re.MULTILINE)
    marks, texts = pieces[::2], pieces[1::2]
    out = marks[-1].removeprefix("out ")
    assert Path(out).parent == temporary, ran.stdout
    printed = [_masked(text.replace(out, "$out")).splitlines() for mark, text in zip(marks, texts) if mark.isdigit()]
    endings = [mark.split()[1] for mark in marks if mark.startswith("exit")]
    for (command, shown), lines, ending in zip(commands, printed, endings, strict=True):
        assert ending == "0", f"{command}\n" + "\n".join(lines)
        assert _shows([_masked(line) for line in shown], lines), f"{command}\n" + "\n".join(lines)
    assert sorted(copy.rglob("*")) == before  # nothing written beside the examples
    assert (Path(out) / "replay.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (Path(out) / "parlett.sqlite").exists()


def _masked(text: str) -> str:
    """:func:`_steady`, the solver's version, the engine a report names and a survey's rate masked."""
    text = re.sub(r"solver \d+\.\d+\.\d+\S*, engine (native|python)", "solver V, engine E", _steady(text))
    return re.sub(r"\([\d.]+ deals/s\)", "(R deals/s)", text)


#: Where a page or a help text lists the players ``--player`` takes: the text around the list.
PLAYER_LISTS = {
    "cli.md": "- `--player` (required)",
    "surveys.md": "`--player NAME` (",
    "glossary.md": "| **player** |",
    "players.md": "`--player NAME` chooses one",
}


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.one_engine
def test_every_list_of_players_names_every_player_of_the_registry() -> None:
    """Each list of the players, in the help of play and survey and in the docs, names every
    player of solver.players.PLAYERS (a new player appears in each, or this fails); the refusal
    the docs quote is the one the program prints."""
    from helpers import run_cli

    from solver.players import PLAYERS

    for command in ("play", "survey"):
        shown = _flat(run_cli(command, "--help").stdout)
        listed = shown[shown.index("--player NAME The player:") :][:400]
        assert all(name in listed for name in PLAYERS), (command, listed)
    for page, anchor in PLAYER_LISTS.items():
        text = _flat((DOCS / page).read_text())
        listed = text[text.index(anchor) :][:700]
        assert all(f"`{name}`" in listed for name in PLAYERS), (page, listed)
    readme = _flat((DOCS.parent / "README.md").read_text())
    row = readme[readme.index("| `play GAME --player NAME` |") :][:200]
    assert all(f"`{name}`" in row for name in PLAYERS), row
    refused = run_cli("play", "parlett", "--seed", "1", "--player", "best")
    message = refused.stderr.strip().removeprefix("patience: error: ")
    assert refused.exit_code == 2 and message in _flat((DOCS / "cli.md").read_text())


@pytest.mark.one_engine
def test_the_readme_names_every_game_and_counts_every_preset() -> None:
    """The README's list of games names each family of the registry (its name, any case, dashes
    as spaces) and counts its presets in words: a new game or preset shows there or this fails."""
    readme = " ".join((DOCS.parent / "README.md").read_text(encoding="utf-8").split())
    games = readme[readme.index("Games: ") :][:300].lower()
    assert all(family.replace("-", " ") in games for family in families()), games
    words = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    count = sum(len(family.variants) for family in families().values())
    assert f"{words.split()[count]} presets in all" in games
