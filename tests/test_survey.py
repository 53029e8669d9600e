"""Surveys: resumable after any interruption, the same whatever the parallelism, refusing to mix
settings; and the report's numbers, exports and plot."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from helpers import (
    SURVEY_GAME,
    SURVEY_NODES,
    SURVEY_VARIANT,
    interruptible,
    run_cli,
    stored_deals,
    survey_args,
    survey_table,
    wilson_by_bisection,
)

from rulesets.cards import format_cards
from solver.errors import SurveyError
from solver.result import Limits
from solver.service.seeds import MAX_SURVEY_SEED, parse_seeds
from solver.service.setup import Setup
from solver.service.solving import solve
from solver.service.stats import wilson
from solver.surveys.running import SurveySpec, run_survey
from solver.surveys.store import Store

GAME, VARIANT, NODES = SURVEY_GAME, SURVEY_VARIANT, SURVEY_NODES
SPEC = SurveySpec(GAME, VARIANT, (), NODES, None, 2 * 1024**3)  # as the command line builds it
SEEDS = "1-150"
#: The command line as the console script runs it, in a process of its own.
SCRIPT = "import sys\nfrom solver.cli.application import run\nsys.exit(run(sys.argv[1:]))\n"


table = survey_table


@pytest.fixture(scope="module")
def reference(tmp_path_factory, engine) -> tuple[Path, list[tuple]]:
    """An uninterrupted run in this process (--jobs 1)."""
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    tally = run_survey(SPEC, parse_seeds(SEEDS), path, jobs=1)
    assert tally.solved == 150 and not tally.interrupted
    rows = table(path)
    assert {row[5] for row in rows} == {"won", "lost", "unknown"}, "the sample should hold every verdict"
    return path, rows


# ----------------------------------------------------------------------------- seeds


def test_seed_ranges_merge_and_sort():
    assert parse_seeds("1-1000,2000-2100") == [(1, 1000), (2000, 2100)]
    assert parse_seeds("7") == [(7, 7)]
    assert parse_seeds("50-60, 1-10,5-20,21-22,55") == [(1, 22), (50, 60)]


@pytest.mark.parametrize("text", ["", "0-5", "9-3", "a-b", "1-2-3", "3,", f"1-{MAX_SURVEY_SEED + 1}"])
def test_bad_seed_ranges_are_refused(text):
    if text == "3,":
        assert parse_seeds(text) == [(3, 3)]
        return
    with pytest.raises(SurveyError):
        parse_seeds(text)


# ----------------------------------------------------------------------------- what is stored


def test_rows_are_the_solver_outcomes(reference):
    path, rows = reference
    setup = Setup.of(GAME, VARIANT)
    for seed in (1, 17, 150):
        cards = setup.deal(seed=seed)
        outcome = solve(setup, cards, Limits(max_nodes=NODES), seed=seed)
        row = rows[seed - 1]
        assert row[0] == seed and row[4] == format_cards(cards)
        assert (row[5], row[6], row[9]) == (outcome.result.verdict.value, outcome.score(), outcome.result.stats.nodes)
        assert json.loads(row[3])["compulsory"] is True and row[1:3] == (GAME, VARIANT)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(db.execute("SELECT key, value FROM survey"))
    assert meta["game"] == GAME and meta["variant"] == VARIANT and json.loads(meta["max_nodes"]) == NODES


def test_two_jobs_store_the_same_results(reference, tmp_path):
    out = tmp_path / "two.sqlite"
    tally = run_survey(SPEC, parse_seeds(SEEDS), out, jobs=2)
    assert tally.solved == 150
    assert table(out) == reference[1]


def test_rerun_after_a_partial_run_skips_what_is_stored(reference, tmp_path):
    out = tmp_path / "partial.sqlite"
    first = run_survey(SPEC, parse_seeds("1-20,40-50"), out, jobs=1)
    assert first.solved == 31
    second = run_survey(SPEC, parse_seeds(SEEDS), out, jobs=2)
    assert (second.skipped, second.solved) == (31, 119)
    assert table(out) == reference[1]
    third = run_survey(SPEC, parse_seeds(SEEDS), out, jobs=1)
    assert (third.skipped, third.solved) == (150, 0)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


#: What the stopped runs survey: far more deals than they can solve before they are stopped,
#: whatever the machine's load (a survey of SEEDS alone once ended first); their rows of SEEDS
#: are then held to the reference.
LONG = "1-100000"


def _start_and_stop(out: Path, how: int) -> tuple[subprocess.Popen, int, list[int]]:
    """Start the long survey in a subprocess with two workers; send it ``how`` once some rows are
    stored."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *survey_args(out, LONG, "--jobs", "2")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=interruptible,
    )
    deadline = time.monotonic() + 60
    stored = 0
    while time.monotonic() < deadline and process.poll() is None:
        stored = stored_deals(out)
        if stored:
            break
        time.sleep(0.01)
    workers = _children(process.pid) if Path("/proc").is_dir() else []
    assert process.poll() is None and stored, f"the survey ended, or stored nothing in a minute: {process.returncode}"
    process.send_signal(how)
    process.wait(30)
    return process, stored, workers


def _of_seeds(rows: list[tuple]) -> list[tuple]:
    """The rows of SEEDS among a long survey's."""
    return [row for row in rows if row[0] <= 150]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_kill_9_mid_run_loses_nothing_after_a_rerun(reference, tmp_path):
    out = tmp_path / "killed.sqlite"
    process, _, workers = _start_and_stop(out, signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL
    assert len(workers) >= 2 or not Path("/proc").is_dir()  # the two workers (and spawn's resource tracker)
    deadline = time.monotonic() + 10  # orphaned workers notice and leave
    while (
        any(
            Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
            for pid in workers
        )
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert not [
        pid
        for pid in workers
        if Path(f"/proc/{pid}").exists() and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    ]
    kept = _of_seeds(table(out))
    assert kept == [row for row in reference[1] if row[0] in {r[0] for r in kept}]
    rerun = run_cli(*survey_args(out, SEEDS, "--jobs", "2"))
    assert rerun.exit_code == 0, rerun.output
    assert f"{len(kept)} already there" in rerun.output
    assert _of_seeds(table(out)) == reference[1]


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(reference, tmp_path):
    out = tmp_path / "interrupted.sqlite"
    process, stored, _ = _start_and_stop(out, signal.SIGINT)
    assert process.returncode == 130
    assert "rerun the same command" in process.stderr.read()
    assert len(table(out)) >= stored
    kept = _of_seeds(table(out))
    assert kept == [row for row in reference[1] if row[0] in {r[0] for r in kept}]
    assert run_survey(SPEC, parse_seeds(SEEDS), out, jobs=1).skipped == len(kept)
    assert _of_seeds(table(out)) == reference[1]


# ----------------------------------------------------------------------------- refusing to mix


@pytest.mark.parametrize(
    "change, word",
    [
        (["--max-nodes", "3000"], "max_nodes"),
        (["--variant", "idle-year"], "variant"),
        (["--option", "nearest=yes"], "options"),
        (["--max-seconds", "5"], "max_seconds"),
        (["--max-memory", "1G"], "max_memory"),
    ],
)
def test_other_settings_are_refused_with_a_clear_message(tmp_path, change, word):
    out = tmp_path / "mixed.sqlite"
    first = run_cli(
        "survey", GAME, "--variant", VARIANT, "--seeds", "1-3", "--max-nodes", str(NODES), "--out", str(out)
    )
    assert first.exit_code == 0, first.output
    args = ["survey", GAME, "--variant", VARIANT, "--seeds", "1-6", "--max-nodes", str(NODES), "--out", str(out)]
    for i in range(0, len(change), 2):
        if change[i] in args:
            args[args.index(change[i]) + 1] = change[i + 1]
        else:
            args += change[i : i + 2]
    refused = run_cli(*args)
    assert refused.exit_code == 2
    message = refused.stderr
    assert message.startswith("patience: error:") and word in message and "not mixed" in message
    assert len(message.strip().splitlines()) == 1
    assert len(table(out)) == 3


def test_files_that_are_not_surveys_are_refused(tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, just some words " * 10)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE other (x)")
    for path in (text, foreign):
        for args in (survey_args(path, SEEDS), ["report", str(path)]):
            result = run_cli(*args)
            assert result.exit_code == 2 and "not a survey file" in result.stderr
    missing = run_cli("report", str(tmp_path / "none.sqlite"))
    assert missing.exit_code == 2 and "no such survey file" in missing.stderr
    bad = run_cli("survey", GAME, "--seeds", "5-1", "--out", str(tmp_path / "x.sqlite"))
    assert bad.exit_code == 2 and "seed range" in bad.stderr


# ----------------------------------------------------------------------------- progress


def test_no_progress_bar_in_pipes_but_one_on_request(tmp_path):
    quiet = run_cli("survey", "self-working", "--seeds", "1-40", "--out", str(tmp_path / "a.sqlite"))
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert "40 of 40 deals stored" in quiet.stdout
    shown = run_cli("survey", "self-working", "--seeds", "1-40", "--out", str(tmp_path / "b.sqlite"), "--progress")
    assert shown.exit_code == 0 and "40/40" in shown.stderr and "won 0" in shown.stderr


# ----------------------------------------------------------------------------- the report


@pytest.mark.parametrize("won, n", [(0, 10), (10, 10), (1, 2), (37, 100), (813, 100000)])
def test_wilson_interval_matches_its_definition(won, n):
    low, high = wilson(won, n)
    expected = wilson_by_bisection(won, n)
    assert low == pytest.approx(expected[0], abs=1e-9) and high == pytest.approx(expected[1], abs=1e-9)


@pytest.mark.parametrize("n", [1, 7, 30, 100, 12345])
def test_the_wilson_bounds_at_none_and_all_are_exactly_0_and_1(n):
    """Not 0.9999999999999999 for 30 of 30 deals in a report's JSON."""
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0


def test_report_of_a_real_survey_and_its_exports(reference, tmp_path):
    path, rows = reference
    csv_file, json_file = tmp_path / "deals.csv", tmp_path / "deals.json"
    result = run_cli("report", str(path), "--csv", str(csv_file), "--json", str(json_file))
    assert result.exit_code == 0, result.output
    counts = Counter(row[5] for row in rows)
    assert f"won: {counts['won']}  win rate" in result.stdout
    assert f"lost: {counts['lost']}  unknown: {counts['unknown']}" in result.stdout
    exported = list(csv.DictReader(io.StringIO(csv_file.read_text())))
    assert [int(r["seed"]) for r in exported] == [row[0] for row in rows]
    assert [(r["result"], r["score"], int(r["nodes"])) for r in exported] == [
        (row[5], "" if row[6] is None else str(row[6]), row[9]) for row in rows
    ]
    document = json.loads(json_file.read_text())
    assert document["won"] == counts["won"] and document["deals"] == 150
    assert document["win_rate_95"] == pytest.approx(list(wilson_by_bisection(counts["won"], 150)), abs=1e-9)
    assert document["win_rate_low"] == document["win_rate_95"][0]
    assert document["win_rate_high"] == pytest.approx(
        wilson_by_bisection(counts["won"] + counts["unknown"], 150)[1], abs=1e-9
    )
    assert [(r["seed"], r["result"], r["score"]) for r in document["rows"]] == [
        (row[0], row[5], row[6]) for row in rows
    ]
    assert document["survey"]["score_field"] == "min_piles"
    to_stdout = run_cli("report", str(path), "--csv", "-")
    assert to_stdout.stdout.splitlines()[0] == (
        "seed,result,score,score_proven,limit_hit,nodes,seconds,peak_table_bytes,engine"
    )  # what varies: the settings every row shares are the summary's, a seed's deal the seed's
    assert len(to_stdout.stdout.splitlines()) == 151
    engine = Setup.of(SURVEY_GAME, SURVEY_VARIANT).engine.name
    assert {r["engine"] for r in exported} == {engine} and document["engines"] == {engine: 150} | {
        other: 0 for other in ("native", "python") if other != engine
    }


@pytest.mark.one_engine  # a figure of stored rows: the engine only made them
def test_plot_draws_a_png(reference, tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "scores.png"
    result = run_cli("report", str(reference[0]), "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 5000


# ----------------------------------------------------------------------------- Dask


def test_dask_cluster_stores_the_same_results(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.sqlite"
    run_survey(SPEC, parse_seeds("1-30"), out, jobs=1)  # resume a local run on the cluster
    # The dashboard on a free port: two test processes asking for the default 8787 at once warned.
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        tally = run_survey(SPEC, parse_seeds(SEEDS), out, scheduler=cluster.scheduler_address)
    assert (tally.skipped, tally.solved) == (30, 120)
    assert table(out) == reference[1]


# ----------------------------------------------------------------------------- the service layer


def test_fewest_redeals_surveys_store_the_redeals_and_are_kept_apart(tmp_path):
    spec = SurveySpec("amazons-pysol", None, (), 3000, None, 2 * 1024**3, fewest_redeals=True)
    out = tmp_path / "fewest.sqlite"
    assert run_survey(spec, parse_seeds("1-3"), out).solved == 3
    store = Store(out)
    stored = list(store.rows())
    store.close()
    setup = Setup.of("amazons-pysol")
    for row in stored:
        outcome = solve(setup, setup.deal(seed=row.seed), Limits(max_nodes=3000), seed=row.seed, least_cost=True)
        assert (row.result, row.redeals, row.limit_hit) == (
            outcome.result.verdict.value,
            outcome.cost(),
            outcome.result.limit,
        )
    assert any(row.redeals is not None for row in stored)
    with pytest.raises(SurveyError, match="fewest_redeals"):
        run_survey(SurveySpec("amazons-pysol", None, (), 3000, None, 2 * 1024**3), parse_seeds("1-3"), out)
    header = run_cli("report", str(out), "--csv", "-").stdout.splitlines()[0]
    assert header.endswith(",engine,redeals")


def test_the_service_runs_without_the_command_line():
    code = (
        "import sys\n"
        "import solver.surveys.report, solver.surveys.running, solver.service.verification\n"
        "assert not [m for m in sys.modules if m.startswith('solver.cli')], 'the service imported solver.cli'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
