"""The compact survey format (issue 26): a row holds only what varies, the settings and the seed
ranges asked for are stored once, a seed's deal not at all; files 0.6.x wrote are refused in one
line; a survey says what of what it was asked is still missing; the engine of every row; the
fewest redeals from the command line to every export. The ten-million-row cases are in
benchmarks/survey_store.py; these are the same behaviour on small files."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from helpers import SURVEY_GAME, SURVEY_NODES, SURVEY_VARIANT, error_line, run_cli, snapshot, survey_spec
from hypothesis import given
from hypothesis import strategies as st

import solver
from rulesets.cards import format_cards
from solver.errors import UserError
from solver.result import Limits
from solver.service.seeds import parse_seeds
from solver.service.setup import Setup
from solver.service.solving import solve
from solver.surveys.report import render, summarize
from solver.surveys.row_codec import STORED
from solver.surveys.running import SurveySpec, run_survey
from solver.surveys.store import Store, Stored

DATA = Path(__file__).parent / "data"
SPEC = survey_spec()


def lost(seed: int, engine: int = 1) -> Stored:
    """A stored row of a lost deal (score by seed, times and nodes of a search of a thousand or
    more states, within the quick survey's node limit)."""
    return (seed, 1, 2 + seed % 40, None, 1000 + seed % 1000, 100 + seed % 90000, 1 << 20, None, engine)


def made(path: Path, requested: list[tuple[int, int]], seeds: list[int], spec: SurveySpec = SPEC) -> Path:
    """A survey of ``requested`` seed ranges holding the rows of ``seeds`` (all lost)."""
    store = Store(path, spec.identity(), requested=requested)
    try:
        store.add(lost(seed) for seed in seeds)
    finally:
        store.close()
    return path


# ----------------------------------------------------------------------------- what a row holds


@pytest.mark.one_engine  # the store's row format: no search
def test_a_row_of_a_survey_of_seeds_takes_at_most_64_bytes(tmp_path):
    """Measured on 50,000 rows written in batches as a run writes them (benchmarks/survey_store.py
    measures a million and ten million: about 21 bytes)."""
    path = tmp_path / "s.sqlite"
    store = Store(path, SPEC.identity(), requested=[(1, 50_000)])
    try:
        for first in range(1, 50_001, 500):
            store.add(lost(seed) for seed in range(first, first + 500))
    finally:
        store.close()
    assert not Path(f"{path}-wal").exists()  # checkpointed: every row is in the file measured
    assert path.stat().st_size / 50_000 <= 64


def test_a_seeds_deal_and_the_shared_settings_are_not_repeated_in_its_rows(tmp_path):
    out = tmp_path / "s.sqlite"
    run_survey(SPEC, parse_seeds("1-20"), out)
    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    data = out.read_bytes()
    assert format_cards(setup.deal(seed=7)).encode() not in data  # the seed gives the deal
    assert data.count(SPEC.identity()["options"].encode()) == 1  # the options, once
    with sqlite3.connect(out) as db:
        columns = [name for (name,) in db.execute("SELECT name FROM pragma_table_info('deals')")]
        assert columns == ["seed", *STORED]
        assert db.execute("SELECT low, high FROM requested").fetchall() == [(1, 20)]
    # ... and the Python API deals them again from the seed
    rows = list(solver.load_survey(out))
    assert [row.deal for row in rows] == [format_cards(setup.deal(seed=seed)) for seed in range(1, 21)]
    assert {(row.game, row.variant, row.options) for row in rows} == {
        (SPEC.identity()["game"], SPEC.identity()["variant"], SPEC.identity()["options"])
    }


def test_a_survey_of_a_file_keeps_each_lines_deal_once(tmp_path):
    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    deals = tmp_path / "deals.txt"
    deals.write_text("".join(format_cards(setup.deal(seed=seed)) + "\n" for seed in (5, 6, 7)))
    out = tmp_path / "f.sqlite"
    run_cli_ok("survey", SURVEY_GAME, "--variant", SURVEY_VARIANT, "--file", str(deals), "--out", str(out),
               "--max-nodes", str(SURVEY_NODES))  # fmt: skip
    assert out.read_bytes().count(format_cards(setup.deal(seed=6)).encode()) == 1
    exported = list(csv.DictReader(io.StringIO(run_cli_ok("report", str(out), "--csv", "-").stdout)))
    assert [r["deal"] for r in exported] == [format_cards(setup.deal(seed=seed)) for seed in (5, 6, 7)]


def run_cli_ok(*args: str):
    ran = run_cli(*args)
    assert ran.exit_code == 0, ran.output
    return ran


# ----------------------------------------------------------------------------- 0.6.x files


@pytest.mark.parametrize("name", ["survey-0.6.2-seeds.sqlite", "survey-0.6.2-file.sqlite"])
def test_a_file_written_by_0_6_is_refused_in_one_line_naming_its_version(tmp_path, name):
    """Made by patience-solver 0.6.2 itself (tests/data): report, a resumed survey and the Python
    API each refuse it in one line naming the version that wrote it and what to do; untouched."""
    old = tmp_path / name
    shutil.copy(DATA / name, old)
    before = snapshot(tmp_path)
    for args in (["report", str(old)], ["report", str(old), "--csv", "-"], ["survey", "parlett", "--seeds", "1-30",
                 "--max-nodes", "2000", "--out", str(old)]):  # fmt: skip
        ran = run_cli(*args)
        line = error_line(ran)
        assert ran.exit_code == 2 and len(ran.stderr.strip().splitlines()) == 1, ran.output
        assert "written by patience-solver 0.6.2 (survey format 1)" in line, line
        assert "report it with patience-solver 0.6.2, or survey its deals again into a new --out file" in line
    with pytest.raises(UserError, match="0.6.2"):
        solver.load_survey(old)
    assert snapshot(tmp_path) == before


# ----------------------------------------------------------------------------- what was asked


def test_the_report_says_how_many_requested_deals_are_missing_and_which(tmp_path):
    """The issue's example: 3,000 asked for, 280 stored, seeds 271-277 missing among them."""
    path = made(tmp_path / "s.sqlite", [(1, 3000)], [*range(1, 271), *range(278, 288)])
    summary = summarize(path)
    assert summary["requested"] == {
        "deals": 3000,
        "stored": 280,
        "missing": 2720,
        "first_missing": [[271, 277], [288, 3000]],
        "open": False,
    }
    text = render(summary)
    assert "280 of 3,000 requested deals stored; 2,720 not yet solved (rerun the command to carry on)" in text
    assert "  first missing: seeds 271-277, 288-3000\n" in text
    table = run_cli_ok("report", str(path), str(path)).stdout
    assert "280 (2720 to do)" in table
    row = next(csv.DictReader(io.StringIO(run_cli_ok("report", str(path), "--summary-csv", "-").stdout)))
    assert (row["requested"], row["missing"], row["deals"]) == ("3000", "2720", "280")


def test_a_complete_survey_says_nothing_is_missing(tmp_path):
    path = made(tmp_path / "s.sqlite", [(1, 50)], list(range(1, 51)))
    assert summarize(path)["requested"]["missing"] == 0
    assert "requested" not in render(summarize(path))


def test_the_seeds_requested_by_every_run_are_merged(tmp_path):
    out = tmp_path / "s.sqlite"
    for ranges in ("1-10", "5-20", "30-40", "21-25"):
        Store(out, SPEC.identity(), requested=parse_seeds(ranges)).close()
    store = Store(out)
    assert store.requested() == [(1, 25), (30, 40)]
    store.close()


def test_a_survey_stopped_early_and_resumed_on_more_seeds_says_what_is_left(tmp_path):
    out = tmp_path / "s.sqlite"
    run_survey(SPEC, parse_seeds("1-12"), out)
    assert run_cli("survey", SURVEY_GAME, "--variant", SURVEY_VARIANT, "--seeds", "1-12,20-25", "--max-nodes",
                   str(SURVEY_NODES), "--out", str(out)).exit_code == 0  # fmt: skip
    Store(out, SPEC.identity(), requested=parse_seeds("26-30")).close()  # a run stopped before it stored a deal
    summary = summarize(out)
    assert summary["requested"]["deals"] == 23 and summary["requested"]["first_missing"] == [[26, 30]]


@pytest.mark.one_engine  # the store's reading of seeds: no search
@given(
    spans=st.lists(st.tuples(st.integers(1, 300), st.integers(0, 40)), min_size=1, max_size=5),
    stored=st.sets(st.integers(1, 400), max_size=200),
    first=st.integers(1, 6),
)
def test_what_is_missing_is_what_a_set_of_seeds_says(tmp_path_factory, spans, stored, first):
    ranges = parse_seeds(",".join(f"{low}-{low + width}" for low, width in spans))
    asked = {seed for low, high in ranges for seed in range(low, high + 1)}
    path = made(tmp_path_factory.mktemp("c") / "s.sqlite", list(ranges), sorted(stored & asked))
    store = Store(path)
    try:
        found = store.coverage(first)
    finally:
        store.close()
    missing = sorted(asked - stored)
    runs: list[list[int]] = []
    for seed in missing:
        if runs and runs[-1][1] == seed - 1:
            runs[-1][1] = seed
        else:
            runs.append([seed, seed])
    assert (found["deals"], found["stored"], found["missing"]) == (len(asked), len(asked & stored), len(missing))
    assert found["first_missing"] == runs[:first]


def test_a_survey_of_a_file_names_its_missing_lines(tmp_path):
    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    deals = tmp_path / "deals.txt"
    deals.write_text("# five deals\n" + "".join(format_cards(setup.deal(seed=s)) + "\n" for s in range(1, 6)))
    from solver.service.deal_file import read_deal_file

    out = tmp_path / "f.sqlite"
    store = Store(out, {**SPEC.identity()}, read_deal_file(setup, str(deals)))
    store.add([(2, *lost(2)[1:]), (4, *lost(4)[1:])])
    store.close()
    summary = summarize(out)
    assert summary["requested"]["deals"] == 5 and summary["requested"]["first_missing"] == [[3, 3], [5, 5], [6, 6]]
    assert "2 of 5 requested deals stored; 3 not yet solved" in render(summary)
    assert "first missing: lines 3, 5, 6" in render(summary)


# ----------------------------------------------------------------------------- the engine


def test_every_row_records_its_engine_and_the_report_counts_them(tmp_path):
    path = tmp_path / "s.sqlite"
    store = Store(path, SPEC.identity(), requested=[(1, 10)])
    store.add([*(lost(seed, engine=1) for seed in range(1, 8)), *(lost(seed, engine=0) for seed in range(8, 11))])
    store.close()
    summary = summarize(path)
    assert summary["engines"] == {"native": 7, "python": 3}
    assert render(summary).splitlines()[0].endswith(", engines native 7, python 3")
    exported = list(csv.DictReader(io.StringIO(run_cli_ok("report", str(path), "--csv", "-").stdout)))
    assert [r["engine"] for r in exported] == ["native"] * 7 + ["python"] * 3
    assert [row.engine for row in solver.load_survey(path)] == ["native"] * 7 + ["python"] * 3


def test_a_real_surveys_rows_name_the_engine_that_searched(tmp_path, engine):
    out = tmp_path / "s.sqlite"
    run_survey(SPEC, parse_seeds("1-5"), out)
    assert summarize(out)["engines"][engine] == 5


# ----------------------------------------------------------------------------- exports


def test_the_exports_hold_the_rows_the_python_api_gives(tmp_path):
    out = tmp_path / "s.sqlite"
    run_survey(SPEC, parse_seeds("1-25"), out)
    rows = list(solver.load_survey(out))
    document = json.loads(run_cli_ok("report", str(out), "--json", "-").stdout)
    exported = list(csv.DictReader(io.StringIO(run_cli_ok("report", str(out), "--csv", "-").stdout)))
    fields = ("seed", "result", "score", "limit_hit", "nodes", "seconds", "peak_table_bytes", "engine")
    assert [tuple(r[f] for f in fields) for r in document["rows"]] == [
        tuple(getattr(row, f) for f in fields) for row in rows
    ]
    assert [r["score_proven"] for r in document["rows"]] == [bool(row.score_proven) for row in rows]
    as_text = [tuple("" if getattr(row, f) is None else str(getattr(row, f)) for f in fields) for row in rows]
    assert [tuple(r[f] if f != "seconds" else str(float(r[f])) for f in fields) for r in exported] == as_text
    assert document["deals"] == len(rows) == 25


def test_a_file_checked_once_is_checked_again_once_altered(tmp_path):
    """The damage check is kept for a file unchanged since (its state: size, times, -wal), and
    only for one last written over a second before: a change after it always shows."""
    path = made(tmp_path / "s.sqlite", [(1, 10)], list(range(1, 11)))
    past = time.time() - 30
    os.utime(path, (past, past))
    Store(path).close()  # checked, and kept as checked
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE deals SET verdict = 7 WHERE seed = 3")
    db.close()
    with pytest.raises(UserError, match="the deal of seed 3 has verdict 7"):
        Store(path)


# ----------------------------------------------------------------------------- fewest redeals


@pytest.fixture(scope="module")
def fewest(tmp_path_factory, engine) -> Path:
    out = tmp_path_factory.mktemp("fewest") / "fewest.sqlite"
    args = ["survey", "amazons-pysol", "--seeds", "1-6", "--max-nodes", "20000", "--fewest-redeals", "--out", str(out)]
    run_cli_ok(*args)
    return out


def test_survey_takes_fewest_redeals_on_the_command_line(fewest):
    store = Store(fewest)
    try:
        assert store.meta["fewest_redeals"] == "true"
    finally:
        store.close()
    rows = list(solver.load_survey(fewest))
    assert any(row.result == "won" for row in rows)
    assert all((row.redeals is not None) == (row.result == "won") for row in rows)
    setup = Setup.of("amazons-pysol")
    for row in rows:  # what solve finds of each deal, with the same limits
        again = solve(setup, setup.deal(seed=row.seed), Limits(max_nodes=20000), seed=row.seed, least_cost=True)
        assert (row.result, row.redeals, row.limit_hit) == (
            again.result.verdict.value,
            again.cost(),
            again.result.limit,
        )


def test_the_report_and_its_exports_give_the_fewest_redeals(fewest):
    summary = summarize(fewest)
    rows = list(solver.load_survey(fewest))
    wins = [row.redeals for row in rows if row.result == "won"]
    assert summary["redeals"]["won"] == len(wins) and summary["redeals"]["max"] == max(wins)
    assert summary["redeals"]["mean"] == pytest.approx(sum(wins) / len(wins))
    assert [(r["redeals"], r["deals"]) for r in summary["redeals"]["histogram"]] == sorted(
        (value, wins.count(value)) for value in set(wins)
    )
    text = render(summary)
    assert f"fewest redeals of the {len(wins)} deal" in text and "redeals    deals" in text
    document = json.loads(run_cli_ok("report", str(fewest), "--json", "-").stdout)
    assert document["redeals"] == summary["redeals"] and [r["redeals"] for r in document["rows"]] == [
        row.redeals for row in rows
    ]
    row = next(csv.DictReader(io.StringIO(run_cli_ok("report", str(fewest), "--summary-csv", "-").stdout)))
    assert row["fewest_redeals"] == "True" and float(row["redeals_mean"]) == pytest.approx(sum(wins) / len(wins))
    assert "redeals mean" in run_cli_ok("report", str(fewest), str(fewest)).stdout


def test_fewest_redeals_of_a_game_without_redeals_is_refused_before_a_file_is_made(tmp_path):
    out = tmp_path / "s.sqlite"
    ran = run_cli("survey", "parlett", "--seeds", "1-3", "--fewest-redeals", "--out", str(out))
    assert ran.exit_code == 2 and "has none: leave it out" in error_line(ran)
    assert not out.exists()


@pytest.mark.one_engine  # the store and the report: no search
def test_no_report_or_export_holds_every_row(tmp_path, monkeypatch):
    """The report, every export and both figures of a survey of 3,000 deals, with the store
    refusing to give any of them every row at once: no query's answer longer than 1,000 rows,
    no block longer than 10,000, and never the rows as records (as the Python API iterates them)."""
    pytest.importorskip("matplotlib")
    path = made(tmp_path / "s.sqlite", [(1, 3000)], list(range(1, 3001)))
    query, blocks = Store.query, Store.blocks

    def short_query(self, sql, parameters=()):
        found = query(self, sql, parameters)
        assert len(found) <= 1000, sql
        return found

    def short_blocks(self, sql, size=10000):
        assert size <= 10000
        yield from blocks(self, sql, size)

    def every_row(self):
        raise AssertionError("a report read every row as a record")

    monkeypatch.setattr(Store, "query", short_query)
    monkeypatch.setattr(Store, "blocks", short_blocks)
    monkeypatch.setattr(Store, "rows", every_row)
    exports = ["--csv", "d.csv", "--json", "d.json", "--summary-csv", "s.csv", "--plot", "p.png", "--plot-cpu", "c.png"]
    ran = run_cli("report", str(path), *(str(tmp_path / a) if "." in a else a for a in exports))
    assert ran.exit_code == 0, ran.output
    assert len((tmp_path / "d.csv").read_text().splitlines()) == 3001
    assert len(json.loads((tmp_path / "d.json").read_text())["rows"]) == 3000
