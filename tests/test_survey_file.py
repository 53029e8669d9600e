"""Surveys of explicit deals (``patience survey GAME --file deals.txt``): rows keyed by line, every
line checked before a survey file is made, resumable, never mixed with another file's deals or with
seeds; reported by line; from Python too. Faults (full disk, ``kill -9``) are covered beside the
seeds' in test_survey_faults.py."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from helpers import (
    SURVEY_GAME,
    SURVEY_NODES,
    SURVEY_VARIANT,
    error_line,
    run_cli,
    snapshot,
    survey_args,
    survey_deal_file,
    survey_spec,
    survey_table,
)

import solver
from solver.errors import UserError
from solver.service.deal_file import read_deal_file
from solver.service.seeds import parse_seeds
from solver.service.setup import Setup
from solver.surveys.running import RunTally, run_survey

SPEC = survey_spec()
COUNT = 40


@pytest.fixture(scope="module")
def seeded(tmp_path_factory, engine) -> list[tuple]:
    """The survey of seeds 1 to COUNT: a file of their deals, line i seed i's, stores the same rows."""
    path = tmp_path_factory.mktemp("seeded") / "seeds.sqlite"
    run_survey(SPEC, parse_seeds(f"1-{COUNT}"), path)
    rows = survey_table(path)
    assert {row[5] for row in rows} == {"won", "lost", "unknown"}, "the sample should hold every verdict"
    return rows


@pytest.fixture
def deals(tmp_path) -> Path:
    return survey_deal_file(tmp_path / "deals.txt", range(1, COUNT + 1))


@pytest.fixture(scope="module")
def surveyed(tmp_path_factory, engine) -> tuple[Path, Path]:
    """A file of the deals of seeds 1 to COUNT (line i: seed i's) and its survey, run by the command."""
    folder = tmp_path_factory.mktemp("surveyed")
    deals, out = survey_deal_file(folder / "deals.txt", range(1, COUNT + 1)), folder / "s.sqlite"
    result = run_cli(*survey_args(out, deals))
    assert result.exit_code == 0 and f"{COUNT} of {COUNT} deals stored" in result.stdout, result.output
    return deals, out


@pytest.fixture
def copied(surveyed, tmp_path) -> tuple[Path, Path]:
    """A copy of :func:`surveyed`'s deal file and survey, to change or to resume."""
    deals, out = (Path(shutil.copy(path, tmp_path)) for path in surveyed)
    return deals, out


def file_survey(deals: Path, out: Path, jobs: int = 1, on_progress=None) -> RunTally:
    """A survey of the deal file ``deals`` into ``out``, in this process (as the command runs it)."""
    return run_survey(
        SPEC, read_deal_file(SPEC.setup(), str(deals)), out, jobs=jobs, chunk_seconds=0.01, on_progress=on_progress
    )


# ----------------------------------------------------------------------------- what is stored


def test_rows_are_keyed_by_line_and_hold_what_the_seeds_survey_holds(seeded, surveyed):
    out = surveyed[1]
    assert survey_table(out) == seeded
    with sqlite3.connect(out) as db:
        assert [name for (name,) in db.execute("SELECT name FROM pragma_table_info('deals')")][0] == "line"
        assert dict(db.execute("SELECT key, value FROM survey"))["key"] == "line"
        # each line's deal is kept once, in the lines table, not in the rows
        assert db.execute("SELECT line, deal FROM lines ORDER BY line").fetchall() == [(r[0], r[4]) for r in seeded]


def test_comments_and_blank_lines_keep_their_numbers(seeded, tmp_path):
    """Lines are numbered as in the file (as ``solve --file`` names them), comments and blanks
    counted; cards may be spelt any way ``solve`` reads them."""
    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    written = ["# a survey of three deals", ""]
    for seed in (3, 1, 2):
        written.append(" ".join(str(card) for card in setup.deal(seed=seed)).lower().replace("t", "10") + "  # x")
        written.append("")
    path = tmp_path / "deals.txt"
    path.write_bytes(("\ufeff" + "\r\n".join(written)).encode())
    out = tmp_path / "s.sqlite"
    assert run_cli(*survey_args(out, path)).exit_code == 0
    by_seed = {row[0]: row[1:] for row in seeded}
    assert survey_table(out) == [(3, *by_seed[3]), (5, *by_seed[1]), (7, *by_seed[2])]


def test_two_jobs_store_the_same_rows_as_one(seeded, surveyed, deals, tmp_path):
    two = tmp_path / "two.sqlite"
    assert file_survey(deals, two, jobs=2).solved == COUNT
    assert survey_table(two) == survey_table(surveyed[1]) == seeded


def test_a_dask_cluster_stores_the_same_rows(seeded, deals, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.sqlite"
    # The dashboard on a free port: two test processes asking for the default 8787 at once warned.
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        tally = run_survey(SPEC, read_deal_file(SPEC.setup(), str(deals)), out, scheduler=cluster.scheduler_address)
    assert tally.solved == COUNT and survey_table(out) == seeded


# ----------------------------------------------------------------------------- resuming


def test_a_rerun_after_an_interrupted_run_carries_on(seeded, deals, tmp_path):
    out = tmp_path / "partial.sqlite"

    def stop_after_two_batches(tally: RunTally) -> None:
        if tally.solved >= 4:
            raise KeyboardInterrupt

    first = file_survey(deals, out, on_progress=stop_after_two_batches)
    assert first.interrupted and 4 <= first.solved < COUNT
    kept = survey_table(out)
    assert len(kept) == first.solved and kept == seeded[: len(kept)]
    second = run_cli(*survey_args(out, deals))
    assert second.exit_code == 0 and f"({len(kept)} already there" in second.stdout, second.output
    assert survey_table(out) == seeded
    third = file_survey(deals, out)
    assert (third.skipped, third.solved) == (COUNT, 0)


def _changed(lines: list[str], how: str) -> tuple[list[str], int, str]:
    """The file's lines changed ``how``; the first line that differs, and what is said of it."""
    if how == "a deal replaced":
        return [*lines[:6], lines[30], *lines[7:]], 7, "holds another deal than the one surveyed there"
    if how == "a line added":
        return [*lines, lines[0]], COUNT + 1, "holds a deal where the surveyed file had none"
    if how == "a line dropped":
        return lines[:-1], COUNT, "holds no deal where the surveyed file had one"
    assert how == "a comment put first"
    return ["# deals", *lines], 1, "holds no deal where the surveyed file had one"


@pytest.mark.parametrize("how", ["a deal replaced", "a line added", "a line dropped", "a comment put first"])
def test_a_changed_file_is_refused_naming_its_first_differing_line(copied, tmp_path, monkeypatch, how):
    deals, out = copied
    changed, line, what = _changed(deals.read_text().splitlines(), how)
    deals.write_text("\n".join(changed) + "\n")
    before = snapshot(tmp_path)

    def solve_nothing(*args):
        raise AssertionError("a deal was solved from a changed file")

    monkeypatch.setattr("solver.surveys.running.solve_lines", solve_nothing)
    message = error_line(run_cli(*survey_args(out, deals)))
    assert f"deals.txt line {line} {what}" in message and "give another --out" in message, message
    assert snapshot(tmp_path) == before


def test_the_same_deals_written_otherwise_are_the_same_survey(copied, tmp_path):
    deals, out = copied
    respelt = tmp_path / "respelt.txt"
    respelt.write_bytes(
        "".join(f"{line.lower()}   # seed {n}\r\n" for n, line in enumerate(deals.read_text().splitlines(), 1)).encode()
    )
    rerun = run_cli(*survey_args(out, respelt))
    assert rerun.exit_code == 0 and f"({COUNT} already there" in rerun.stdout, rerun.output


def test_seeds_and_a_file_of_deals_are_never_mixed(copied, tmp_path):
    deals, by_file = copied
    by_seeds = tmp_path / "seeds.sqlite"
    assert run_cli(*survey_args(by_seeds, "1-3")).exit_code == 0
    before = snapshot(tmp_path)
    message = error_line(run_cli(*survey_args(by_file, "1-3")))
    assert "survey of the deals of a file and this run surveys seeds" in message and "--out" in message
    message = error_line(run_cli(*survey_args(by_seeds, deals)))
    assert "survey of seeds and this run surveys the deals of a file" in message and "--out" in message
    assert snapshot(tmp_path) == before


# ----------------------------------------------------------------------------- refused up front


@pytest.mark.parametrize(
    "text, words",
    [
        ("{0}\n# fine\n{1} 7H\n{2}\n", ("line 3", "duplicated 7H")),
        ("{0}\n\n{1} ZZ\n", ("line 3", "ZZ")),
        ("{0}\n{1}\n{2} 9\n", ("line 3",)),
        ("# nothing\n\n", ("holds no deal",)),
        ("row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S\n", ("line 1 holds a position", "patience solve")),
        ("\n# positions\nrow: 9D 4S | stock: 2S\n", ("line 3 holds a position",)),
        ("{0}\n\x00\n", ("line 2", "not a text file")),
    ],
)
def test_a_bad_line_is_refused_before_a_survey_file_is_made(tmp_path, text, words):
    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    good = [" ".join(map(str, setup.deal(seed=seed))) for seed in (1, 2, 3)]
    path = tmp_path / "deals.txt"
    path.write_text(text.format(*good))
    before = snapshot(tmp_path)
    out = tmp_path / "new.sqlite"
    message = error_line(run_cli(*survey_args(out, path)))
    assert "deal file" in message and all(word in message for word in words), message
    assert snapshot(tmp_path) == before and not out.exists()


def test_the_rules_own_checks_of_a_deal_refuse_it_up_front(tmp_path):
    """Royal Marriage's end cards out of place, found by the rules' start as ``solve --file`` finds it."""
    setup = Setup.of("royal-marriage")
    cards = setup.deal(seed=1)
    path = tmp_path / "deals.txt"
    path.write_text(" ".join(map(str, cards)) + "\n" + " ".join(map(str, reversed(cards))) + "\n")
    result = run_cli("survey", "royal-marriage", "--file", str(path), "--out", str(tmp_path / "s.sqlite"))
    assert "deal file" in error_line(result) and "line 2" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.txt"]


@pytest.mark.parametrize("given", [[], ["--seeds", "1-3", "--file", "deals.txt"]])
def test_exactly_one_of_seeds_and_file(tmp_path, given):
    args = ["survey", SURVEY_GAME, *given, "--out", str(tmp_path / "s.sqlite")]
    assert "exactly one of --seeds or --file" in error_line(run_cli(*args))
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- reports


def test_a_report_of_a_file_survey_names_deals_by_line(seeded, surveyed):
    out = surveyed[1]
    text = run_cli("report", str(out), "--slowest", "3")
    assert text.exit_code == 0 and f"deals: {COUNT} (lines 1 to {COUNT})" in text.stdout
    assert text.stdout.split("slowest deals:")[1].split()[0] == "line"
    exported = list(csv.DictReader(io.StringIO(run_cli("report", str(out), "--csv", "-").stdout)))
    assert list(exported[0])[0] == "line" and "seed" not in exported[0]
    assert [(int(r["line"]), r["deal"], r["result"]) for r in exported] == [(row[0], row[4], row[5]) for row in seeded]
    document = json.loads(run_cli("report", str(out), "--json", "-").stdout)
    assert document["survey"]["key"] == "line" and document["lines"] == {"min": 1, "max": COUNT}
    assert "seeds" not in document and all("line" in r and "seed" not in r for r in document["rows"])
    assert all("line" in r for r in document["slowest"])


# ----------------------------------------------------------------------------- Python


def test_the_python_api_surveys_a_file(seeded, deals, tmp_path):
    out = tmp_path / "s.sqlite"
    tally = solver.survey(SURVEY_GAME, variant=SURVEY_VARIANT, file=deals, out=out, max_nodes=SURVEY_NODES)
    assert tally.solved == COUNT
    rows = list(solver.load_survey(out))
    assert [(row.line, row.seed, row.result) for row in rows] == [(row[0], None, row[5]) for row in seeded]
    for wrong in ({}, {"seeds": "1-3", "file": deals}, {"file": deals, "out": None}):
        with pytest.raises(UserError, match="exactly one of seeds or file"):
            solver.survey(SURVEY_GAME, **{"out": out, **wrong})
