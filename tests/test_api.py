"""The Python API (`import solver`): the same answers, records and errors as the command line."""

from __future__ import annotations

import doctest
import json
import pickle
import re
from pathlib import Path

import pytest
from helpers import run_cli

import solver
from solver.api import ArgumentTypeError
from solver.errors import UserError

ROOT = Path(__file__).resolve().parent.parent


def without_time(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "seconds"}


@pytest.mark.parametrize(
    "game, start",
    [("accordion", {"seed": 7}), ("parlett", {"seed": 2}), ("amazons-pysol", {"seed": 1}), ("baroness", {"seed": 3})],
)
def test_solve_gives_the_command_lines_json_record(game: str, start: dict) -> None:
    solved = solver.solve(game, **start, max_nodes=50_000)
    cli = json.loads(run_cli("solve", game, "--seed", str(start["seed"]), "--json", "--max-nodes", "50000").output)
    assert without_time(json.loads(solved.to_json())) == without_time(cli)
    assert solved.result == cli["result"] and solved.nodes == cli["nodes"] and solved.seconds >= 0
    assert (solved.solution or solved.best_line) == (cli["solution"] or cli["best_line"])


def test_deal_position_options_and_variant_arguments() -> None:
    by_seed = solver.solve("accordion", seed=7)
    cards = by_seed.record()["deal"]
    assert solver.solve("accordion", deal=cards).solution == by_seed.solution
    assert solver.solve("accordion", deal=cards.split()).result == "won"
    later = solver.solve("accordion", position="row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S")
    assert later.result == "won" and later.score == 1 and later.record()["deal"] is None
    strict = solver.solve("accordion", seed=7, options={"compulsory": True})
    assert strict.record()["variant"] == "accordion" and strict.record()["options"]["compulsory"] is True
    assert solver.solve("accordion", variant="parlett", seed=7).record() | {"seconds": 0} == strict.record() | {
        "seconds": 0,
        "variant": "parlett",
    }


@pytest.mark.parametrize(
    "call, argv",
    [
        (lambda: solver.solve("accordion", seed=0), ["solve", "accordion", "--seed", "0"]),
        (lambda: solver.solve("nope", seed=1), ["solve", "nope", "--seed", "1"]),
        (lambda: solver.solve("accordion", deal="AS AS"), ["solve", "accordion", "--deal", "AS AS"]),
        (
            lambda: solver.solve("accordion", seed=1, max_nodes=0),
            ["solve", "accordion", "--seed", "1", "--max-nodes", "0"],
        ),
        (lambda: solver.hint("accordion", position="row: AS AS"), ["hint", "accordion", "--position", "row: AS AS"]),
    ],
)
def test_errors_are_the_command_lines(call, argv) -> None:
    with pytest.raises(UserError) as raised:
        call()
    assert isinstance(raised.value, ValueError)
    result = run_cli(*argv)
    assert result.exit_code == 2 and str(raised.value) in result.output


def test_hint_survey_and_load_survey(tmp_path: Path) -> None:
    lines = solver.hint("accordion", position="row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S")
    assert [h.result for h in lines] == ["won", "won", "lost", "lost"] and lines[0].score == 1
    assert all(isinstance(h, solver.api.Hint) for h in lines) and "Hint" in solver.api.__all__
    out = tmp_path / "s.sqlite"
    tally = solver.survey("thirteens", "1-20", out)
    assert tally.solved == 20
    rows = list(solver.load_survey(out))
    assert [row.seed for row in rows] == list(range(1, 21)) and {row.result for row in rows} <= {"won", "lost"}
    again = solver.solve("thirteens", seed=rows[4].seed)
    assert (again.result, again.score, again.nodes) == (rows[4].result, rows[4].score, rows[4].nodes)
    summary = solver.load_survey(out).summary()
    won = sum(row.result == "won" for row in rows)
    assert (summary["deals"], summary["won"], summary["unknown"]) == (20, won, 0)
    assert [summary["win_rate_low"], summary["win_rate_high"]] == summary["win_rate_95"]
    with pytest.raises(UserError):
        solver.load_survey(tmp_path / "missing.sqlite")


def test_a_survey_script_without_the_main_guard_is_told_of_it(tmp_path: Path) -> None:
    """Spawned workers import the calling script again: without the guard each fails to start, and
    the caller gets a WorkerLost naming both causes (a killed worker, or the missing guard). A
    worker's own call is refused as a plain RuntimeError, which the script's handler of WorkerLost
    does not catch (a handler that caught it carried on and served the caller's survey, its
    workers printing SurveyBusy)."""
    import subprocess
    import sys

    out = tmp_path / "s.sqlite"
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import solver\n"
        "try:\n"
        f"    solver.survey('accordion', '1-8', {str(out)!r}, jobs=2, max_nodes=1000)\n"
        "except solver.errors.WorkerLost as error:\n"
        "    print(type(error).__name__, error)\n"
    )
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0 and ran.stdout.startswith("WorkerLost a worker process died"), ran.stdout + ran.stderr
    assert 'if __name__ == "__main__":' in ran.stdout and "0 of 8 deals are stored" in ran.stdout, ran.stdout


def test_every_record_of_the_api_has_its_json_form(tmp_path: Path) -> None:
    """The README's promise: outcomes, hints and survey rows each have ``record()``, the JSON form
    the command line writes (a survey row: as ``patience report --json`` writes each deal)."""
    out = tmp_path / "s.sqlite"
    solver.survey("thirteens", "1-3", out)
    report = json.loads(run_cli("report", str(out), "--json", "-").stdout)
    rows = [json.loads(json.dumps(row.record())) for row in solver.load_survey(out)]
    assert [{k: v for k, v in row.items() if k in deal} for row, deal in zip(rows, report["rows"])] == report["rows"]
    assert all(row["options"] == {} and row["score_proven"] is True for row in rows)
    hint = solver.hint("accordion", position="row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S")[0]
    solved = solver.solve("accordion", seed=7)
    assert json.loads(json.dumps(hint.record()))["move"] == hint.move
    assert json.loads(solved.to_json()) == solved.record()


def test_to_frame_when_pandas_is_installed(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas", reason="pandas is optional: to_frame() needs it")
    out = tmp_path / "s.sqlite"
    solver.survey("thirteens", "1-5", out)
    frame = solver.load_survey(out).to_frame()
    assert isinstance(frame, pandas.DataFrame) and list(frame["seed"]) == [1, 2, 3, 4, 5]


def test_html_replay_from_python_and_the_command_line(tmp_path: Path) -> None:
    solved = solver.solve("baroness", seed=3)
    page = solved.to_html()
    assert page.startswith("<!DOCTYPE html>") and "https://" not in page and "<script src" not in page
    assert "discard KC" in page and "lost" in page
    assert solved._repr_html_().startswith("<iframe srcdoc=")
    target = tmp_path / "replay.html"
    result = run_cli("solve", "baroness", "--seed", "3", "--html", str(target))
    assert result.exit_code == 0 and target.read_text(encoding="utf-8") == page


@pytest.mark.parametrize("document", ["README.md", "docs/api.md", "docs/players.md"])
def test_the_documents_examples_run(document: str) -> None:
    failures, tried = doctest.testfile(str(ROOT / document), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_what_solve_returns_pickles_as_it_did_as_a_dataclass() -> None:
    """Results cross process boundaries (a user's process pool): every preset's setup and a
    solved deal pickle and come back equal in what they say."""
    from rulesets import families
    from solver.service.setup import Setup

    for family in families().values():
        for variant in family.variants:
            setup = Setup.of(variant.name)
            again = pickle.loads(pickle.dumps(setup))
            assert (again.family.name, again.variant, again.settings) == (family.name, variant.name, setup.settings)
    solved = solver.solve("accordion", seed=7)
    assert pickle.loads(pickle.dumps(solved)).to_json() == solved.to_json()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solver.solve("accordion", seed="7"), "seed must be a whole number"),
        (lambda: solver.solve("accordion", seed=True), "seed must be a whole number (PySolFC's deal number), not True"),
        (lambda: solver.solve("accordion", seed=7, max_nodes=1.5), "max_nodes must be a whole number"),
        (lambda: solver.solve("accordion", seed=7, max_seconds="1"), "max_seconds must be a number of CPU seconds"),
        (lambda: solver.solve("accordion", seed=7, max_memory=None), "max_memory must be a number of bytes"),
        (lambda: solver.solve("accordion", seed=7, options=["compulsory=yes"]), "options must be a dict"),
        (lambda: solver.solve("accordion", deal=b"AS 2S"), "deal must be the cards as text"),
        (lambda: solver.solve("accordion", deal=["AS", 5]), "each card of deal must be a Card"),
        (lambda: solver.solve("accordion", deal=["AS", "2S 3S"]), "each card of deal must be one card's name"),
        (lambda: solver.hint("accordion", position=123), "position must be a position as text"),
        (lambda: solver.survey("accordion", 5, "never.sqlite"), "seeds must be text"),
        (lambda: solver.survey("accordion", "1-3", "never.sqlite", jobs="2"), "jobs must be a whole number"),
        (lambda: solver.load_survey(None), "path must be a file name, not None"),
        (lambda: solver.solve("amazons", seed=1, fewest_redeals="no"), "fewest_redeals must be True or False"),
    ],
)
def test_an_argument_of_the_wrong_type_is_named(call, message: str, tmp_path: Path, monkeypatch) -> None:
    """Python's own TypeError deep inside (or True taken for seed 1, 1.5 stored as a node limit
    the command line can never resume) becomes one error naming the argument; nothing is made."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ArgumentTypeError, match="^" + re.escape(message)) as raised:
        call()
    assert isinstance(raised.value, UserError) and isinstance(raised.value, TypeError)
    assert list(tmp_path.iterdir()) == []


def test_a_summary_of_a_wrong_kind_and_seconds_beyond_any_float_are_named(tmp_path: Path) -> None:
    """Python's own TypeError (a str compared with a number) and OverflowError (an int too large
    for a float) became one error naming the argument."""
    out = tmp_path / "s.sqlite"
    solver.survey("accordion", "1-2", out, max_nodes=100)
    with pytest.raises(ArgumentTypeError, match="^slowest must be a whole number"):
        solver.load_survey(out).summary(slowest="a")
    with pytest.raises(UserError, match="^--max-seconds must be positive and finite, not a number beyond any float"):
        solver.solve("accordion", seed=7, max_seconds=10**5000)


def test_a_survey_begun_from_python_with_whole_seconds_resumes_from_the_command_line(tmp_path: Path) -> None:
    """max_seconds=5 and --max-seconds 5 are one limit: the file records 5.0 for both."""
    out = tmp_path / "seconds.sqlite"
    solver.survey("accordion", "1-2", out, max_seconds=5, max_nodes=100)
    ran = run_cli(
        "survey", "accordion", "--seeds", "1-3", "--out", str(out), "--max-seconds", "5", "--max-nodes", "100"
    )
    assert ran.exit_code == 0, ran.output
    assert len(list(solver.load_survey(out))) == 3


def test_every_error_a_caller_may_meet_is_importable_from_solver_errors() -> None:
    """Each exception class the package defines for callers (every UserError and RunLost) is
    solver.errors' own, wherever it is raised; a lost worker is no bad value of the caller's."""
    import importlib
    import pkgutil

    import rulesets
    import solver.errors

    found = set()
    for package in (solver, rulesets):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name.rsplit(".", 1)[-1].startswith("_"):
                continue  # the compiled modules and the console script's entry define no errors
            for value in vars(importlib.import_module(module.name)).values():
                if isinstance(value, type) and issubclass(value, (solver.errors.UserError, solver.errors.RunLost)):
                    found.add(value)
    assert found == {getattr(solver.errors, name) for name in solver.errors.__all__}
    assert all(error.__module__ == "solver.errors" for error in found)
    from solver.errors import RunLost, SchedulerLost, WorkerLost

    for lost in (RunLost, WorkerLost, SchedulerLost):
        assert issubclass(lost, RuntimeError) and not issubclass(lost, ValueError)
    assert solver.errors is importlib.import_module("solver.errors")


def test_store_fault_survives_a_trip_through_pickle() -> None:
    from solver.errors import StoreFault

    fault = pickle.loads(pickle.dumps(StoreFault("s.sqlite", "the disk is full", "free some space", False)))
    assert (str(fault), fault.what, fault.fix, fault.resumable) == (
        "s.sqlite: the disk is full; free some space",
        "the disk is full",
        "free some space",
        False,
    )


def test_games_describe_and_version() -> None:
    from importlib.metadata import version

    listed = solver.games()
    cli = json.loads(run_cli("games", "--json").stdout)
    assert [game.record() for game in listed] == cli and listed[0].name == "accordion"
    assert "parlett" in listed[0].variants
    described = solver.describe("PARLETT")  # a variant names its game, in any case
    assert described.name == "accordion" and described.options["compulsory"] is False
    assert str(described) == run_cli("describe", "parlett").stdout.rstrip("\n")
    assert str(described).startswith("parlett: compulsory") and str(solver.describe("accordion")) in str(described)
    assert described.record() == json.loads(run_cli("describe", "accordion", "--json").stdout)
    assert solver.__version__ == version("patience-solver") and "Game" in dir(solver)


def test_a_loaded_survey_has_a_length_and_a_frame_of_real_types(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas", reason="pandas is optional: to_frame() needs it")
    out = tmp_path / "s.sqlite"
    solver.survey("parlett", "1-4", out, max_nodes=3000)
    rows = solver.load_survey(out)
    assert len(rows) == 4 == len(list(rows))
    frame = rows.to_frame()
    assert frame["score_proven"].dtype == bool and frame["compulsory"].dtype == bool
    assert list(frame["compulsory"]) == [True] * 4 and list(frame["order"]) == ["choice"] * 4
    assert "options" not in frame.columns and str(frame["seed"].dtype) == "Int64"
    assert frame["redeals"].isna().all() and list(frame["seed"]) == [1, 2, 3, 4]
    assert isinstance(frame, pandas.DataFrame)
    empty = tmp_path / "empty.sqlite"
    solver.survey("parlett", "1-1", empty, max_nodes=10)
    assert len(solver.load_survey(empty)) == 1
