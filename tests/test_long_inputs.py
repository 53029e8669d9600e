"""Long inputs are refused in time linear in their length: a position of a megabyte in one line
and exit code 2 within a second or so, a solution file of many records likewise."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.cli.application import run

#: About 1 MB of distinct cards, written again and again.
SPADES = " ".join(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"] * 27_000)
BRACES = f"row: AS | stock: {{{SPADES}}}"
SOLVE = ("solve", "parlett", "--max-nodes", "1", "--position")

#: Each command with a long position, and the words of the line refusing it.
LONG = [
    ((*SOLVE, BRACES), "written twice in the stock"),
    (("hint", "parlett", "--max-nodes", "1", "--position", BRACES), "written twice in the stock"),
    (("play", "parlett", "--player", "random", "--position", BRACES), "written twice in the stock"),
    ((*SOLVE, f"row: AS | stock: {SPADES} {{3}}"), "written twice in the stock"),
    ((*SOLVE, f"row: AS | stock: {{3}} | out: {SPADES}"), "written twice in 'out'"),
    ((*SOLVE, f"row: AS | stock: {SPADES}"), "more than once"),
]

#: A child that runs each command it is given (as the console script does) and prints its exit
#: code and error output: a megabyte is more than a system passes as one argument (128 KB).
CHILD = """
import contextlib, io, json, sys
from solver.cli.application import run
answers = []
for args in json.load(sys.stdin):
    error = io.StringIO()
    with contextlib.redirect_stderr(error), contextlib.redirect_stdout(io.StringIO()):
        code = run(args)
    answers.append([int(code), error.getvalue()])
print(json.dumps(answers))
"""


@pytest.mark.one_engine
def test_a_megabyte_position_is_refused_in_one_line_at_once() -> None:
    """Linear: a few tenths of a second each. The duplicate check that counted each card in turn
    took 24 seconds over 128 KB, and would take about half an hour over this: the child is given a
    minute, far beyond the first and far short of the second, however loaded the machine is."""
    ran = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps([args for args, _ in LONG]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    for (code, error), (args, words) in zip(json.loads(ran.stdout), LONG, strict=True):
        lines = error.splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("patience: error: "), (args[0], error[:300])
        assert words in lines[0]


def _cpu_seconds(solution: Path) -> float:
    """The least CPU time of two runs of verify refusing ``solution`` (the least: the one a
    neighbour's load slowed least)."""
    times = []
    for _ in range(2):
        began = time.process_time()
        with contextlib.redirect_stderr(io.StringIO()) as error:
            assert run(["verify", "parlett", "--seed", "1", "--solution", str(solution)]) == 2
        times.append(time.process_time() - began)
        assert "JSON records; verify checks one" in error.getvalue()
    return min(times)


@pytest.mark.one_engine
def test_a_solution_file_of_many_records_is_refused_in_linear_time(tmp_path: Path) -> None:
    """Four times the records, about four times the CPU time (0.07 and 0.29 seconds); the reader
    that copied the rest of the file after each record took 15 times as long for 4 times as many."""
    small, large = tmp_path / "small.json", tmp_path / "large.json"
    small.write_text('{"a": 1}\n' * 55_000)  # half a megabyte
    large.write_text('{"a": 1}\n' * 220_000)
    assert _cpu_seconds(large) < 8 * _cpu_seconds(small)
