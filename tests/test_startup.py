"""Start-up: a command imports only what it uses (the time this saves is measured by
benchmarks/startup.py, not here)."""

import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

#: Modules no command but a survey's needs: rich (its progress bar), shell completion
#: (argcomplete: only when the shell asks), and typer, Click and pydantic (the command line was
#: typer's, whose import alone took most of the 0.1 s start-up budget).
NOT_FOR_ANY = ("rich", "argcomplete", "typer", "click", "pydantic")
#: Modules no command about one Accordion deal needs: the other games, the survey machinery and
#: its storage, the replay page, the verifier, pathlib (only to read a file's name), dataclasses
#: (with the inspect it loads, 10 ms: records are named tuples, see docs/code-map.md), and the above.
NOT_FOR_ACCORDION = (
    "rulesets.amazons",
    "rulesets.baroness",
    "rulesets.pairs",
    "rulesets.thirteens",
    "rulesets.royal_marriage",
    "solver.surveys",
    "solver.service.replay_page",
    "solver.service.verification",
    "solver.service.solution_file",
    "multiprocessing",
    "concurrent.futures",
    "sqlite3",
    "json",
    "pathlib",
    "dataclasses",
    "inspect",
    *NOT_FOR_ANY,
)


def imported_by(*args: str, watched: tuple[str, ...] = NOT_FOR_ACCORDION) -> list[str]:
    """The exit code of running ``patience ARGS``, and which of ``watched`` it imported. Run as an
    installed package starts (its modules on the path), not through site's .pth hooks: an
    editable install's hook imports pathlib itself."""
    code = (
        "import sys, contextlib, io\n"
        "from solver.cli.application import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = run({list(args)!r})\n"
        f"print(code, [m for m in {watched!r} if m in sys.modules])\n"
    )
    paths = os.pathsep.join([str(Path(__file__).parents[1]), *site.getsitepackages()])
    command = [sys.executable, "-S", "-c", code]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": paths})
    return done.stdout.split(" ", 1)


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "accordion", "--seed", "7"),
        ("solve", "parlett", "--seed", "7", "--show"),
        ("deal", "accordion", "--seed", "1"),
        ("describe", "accordion"),
        ("--help",),
        ("solve", "--help"),
    ],
)
def test_a_command_about_accordion_imports_neither_other_games_nor_surveys(args):
    code, found = imported_by(*args)
    assert (code, found.strip()) == ("0", "[]")


def test_the_json_record_needs_json_only():
    code, found = imported_by("solve", "accordion", "--seed", "7", "--json")
    assert (code, found.strip()) == ("0", "['json']")


def test_listing_the_games_imports_no_command_line_library_but_argparse_and_no_game():
    """The names, summaries and variants come from the registry (rulesets/__init__.py) alone."""
    games = ("rulesets.accordion", *NOT_FOR_ACCORDION[:5])
    code, found = imported_by("games", watched=(*NOT_FOR_ANY, "argparse", *games, "dataclasses"))
    assert (code, found.strip()) == ("0", "['argparse']")
