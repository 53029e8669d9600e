"""Start-up: a command imports only what it uses (the time this saves is measured by
benchmarks/startup.py, not here)."""

import subprocess
import sys

import pytest

#: Modules no command about one Accordion deal needs: the other games, the survey machinery and
#: its storage, the replay page, the verifier, rich (the survey's progress bar), pydantic.
NOT_FOR_ACCORDION = [
    "rulesets.amazons",
    "rulesets.baroness",
    "rulesets.pairs",
    "rulesets.thirteens",
    "rulesets.royal_marriage",
    "solver.service.survey",
    "solver.service.report",
    "solver.service.store",
    "solver.service.replay_page",
    "solver.service.verification",
    "multiprocessing",
    "concurrent.futures",
    "sqlite3",
    "json",
    "rich",
    "pydantic",
]


def imported_by(*args: str) -> list[str]:
    """Which of NOT_FOR_ACCORDION running ``patience ARGS`` imported."""
    code = (
        "import sys, contextlib, io\n"
        "from solver.cli.application import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = run({list(args)!r})\n"
        f"print(code, [m for m in {NOT_FOR_ACCORDION!r} if m in sys.modules])\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split(" ", 1)


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "accordion", "--seed", "7"),
        ("solve", "parlett", "--seed", "7", "--show"),
        ("deal", "accordion", "--seed", "1"),
        ("describe", "accordion"),
        ("--help",),
    ],
)
def test_a_command_about_accordion_imports_neither_other_games_nor_surveys(args):
    code, found = imported_by(*args)
    assert (code, found.strip()) == ("0", "[]")


def test_the_json_record_needs_json_only():
    code, found = imported_by("solve", "accordion", "--seed", "7", "--json")
    assert (code, found.strip()) == ("0", "['json']")
