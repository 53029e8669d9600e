"""Surveys and reports refusing what they must: a file that a command reads or refuses is left as
it was, every argument is checked before a file is made, and a damaged or altered survey file
is refused in one line before anything is solved. (Faults during a run: test_survey_faults.py.)
"""

from __future__ import annotations

import errno
import os
import random
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from helpers import (
    FAULTS_SEEDS,
    FAULTS_TOTAL,
    error_line,
    faults_reference,
    run_cli,
    snapshot,
    survey_args,
    survey_spec,
    survey_table,
)

import solver
from solver.errors import UserError
from solver.service.seeds import parse_seeds
from solver.surveys import store as store_module
from solver.surveys.running import run_survey

SEEDS, TOTAL = FAULTS_SEEDS, FAULTS_TOTAL
SPEC = survey_spec()


@pytest.fixture(scope="module")
def reference(tmp_path_factory, engine) -> tuple[Path, list[tuple]]:
    """An uninterrupted run of the survey (in this process)."""
    return faults_reference(tmp_path_factory)


# ----------------------------------------------------------------------------- data loss


def test_report_never_writes_over_its_survey(reference, tmp_path):
    survey = tmp_path / "s.sqlite"
    shutil.copy(reference[0], survey)
    os.link(survey, tmp_path / "link.sqlite")
    (tmp_path / "sym.sqlite").symlink_to(survey)
    before = snapshot(tmp_path)
    for args, word in [
        (["--csv", "s.sqlite"], "overwrite"),
        (["--json", "s.sqlite"], "overwrite"),
        (["--plot", "s.sqlite"], "overwrite"),
        (["--csv", "s.sqlite-wal"], "overwrite"),
        (["--json", "s.sqlite-shm"], "overwrite"),
        (["--csv", "link.sqlite"], "overwrite"),
        (["--plot", "sym.sqlite"], "overwrite"),
        (["--csv", "out.txt", "--json", "out.txt"], "both write to"),
        (["--csv", "-", "--json", "-"], "standard output"),
        (["--csv", "missing/out.csv"], "no directory"),
        (["--json", "."], "directory"),
    ]:
        paths = [str(tmp_path / a) if a not in ("-",) and not a.startswith("--") else a for a in args]
        result = run_cli("report", str(survey), *paths)
        assert word in error_line(result), args
        assert snapshot(tmp_path) == before, args


def test_a_failed_export_leaves_the_file_it_would_replace(reference, tmp_path, monkeypatch):
    target = tmp_path / "deals.csv"
    target.write_text("the old export\n")

    def full(source, destination):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("solver.service.output.os.replace", full)
    result = run_cli("report", str(reference[0]), "--csv", str(target))
    assert "cannot write" in error_line(result) and "No space left" in result.stderr
    assert snapshot(tmp_path) == {"deals.csv": b"the old export\n"}  # and no temporary file left
    monkeypatch.undo()
    assert run_cli("report", str(reference[0]), "--csv", str(target)).exit_code == 0
    assert len(target.read_text().splitlines()) == TOTAL + 1 and [p.name for p in tmp_path.iterdir()] == ["deals.csv"]


def test_exports_go_through_links_and_into_devices_as_they_are(reference, tmp_path):
    (tmp_path / "link.csv").symlink_to(tmp_path / "real.csv")
    assert run_cli("report", str(reference[0]), "--csv", str(tmp_path / "link.csv")).exit_code == 0
    assert (tmp_path / "link.csv").is_symlink() and len((tmp_path / "real.csv").read_text().splitlines()) == TOTAL + 1
    if Path("/dev/full").exists():  # a device is written, never replaced by a file
        message = error_line(run_cli("report", str(reference[0]), "--json", "/dev/full"))
        assert "No space left" in message and Path("/dev/full").is_char_device()


def test_names_the_system_cannot_look_up_get_one_line(reference):
    long = "x" * 5000
    for args in (
        ["report", long],
        ["report", str(reference[0]), "--csv", long],
        survey_args(long, "1-3"),
        ["report", str(reference[0]), "--json", "nul\0byte.json"],
    ):
        assert "file name" in error_line(run_cli(*args))


# ----------------------------------------------------------------------------- files


def _foreign_files(directory: Path, reference: Path) -> list[Path]:
    """Files a survey must refuse: not SQLite, foreign SQLite (rollback and WAL), another survey."""
    text = directory / "notes.sqlite"
    text.write_text("not a database at all, just some words " * 10)
    rollback, wal = directory / "rollback.db", directory / "wal.db"
    for path in (rollback, wal):
        db = sqlite3.connect(path, isolation_level=None)
        if path is wal:
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE other (x)")
        db.execute("INSERT INTO other VALUES (1)")
        db.close()
    other = directory / "other-limits.sqlite"
    shutil.copy(reference, other)
    older = directory / "older.sqlite"  # a survey 0.6.2 wrote (format 1), other limits too
    shutil.copy(Path(__file__).parent / "data" / "survey-0.6.2-seeds.sqlite", older)
    return [text, rollback, wal, other, older]


def test_refused_files_are_left_byte_for_byte(reference, tmp_path):
    for path in _foreign_files(tmp_path, reference[0]):
        before = snapshot(tmp_path)
        args = survey_args(path, "1-3")
        if "sqlite" in path.suffix and "notes" not in path.name:  # the survey's own file, other limits
            args[args.index("--max-nodes") + 1] = "3000"
        message = error_line(run_cli(*args))
        assert any(words in message for words in ("not a survey file", "other settings", "survey format 1")), message
        assert "--out" in message
        assert snapshot(tmp_path) == before, path


def test_report_reads_without_writing_and_refuses_in_its_own_words(reference, tmp_path):
    survey = tmp_path / "s.sqlite"
    shutil.copy(reference[0], survey)
    (tmp_path / "empty.sqlite").touch()
    (tmp_path / "folder").mkdir()
    _foreign_files(tmp_path, reference[0])
    before = snapshot(tmp_path)
    assert run_cli("report", str(survey)).exit_code == 0
    for name, word in [
        ("empty.sqlite", "empty"),
        ("missing.sqlite", "no such survey file"),
        ("folder", "directory"),
        ("notes.sqlite", "not a survey file"),
        ("rollback.db", "not a survey file"),
        ("wal.db", "not a survey file"),
    ]:
        message = error_line(run_cli("report", str(tmp_path / name)))
        assert word in message and "--out" not in message, message
    assert snapshot(tmp_path) == before


def test_a_run_stopped_while_it_creates_the_survey_file_leaves_none(reference, tmp_path, monkeypatch):
    """The file is made whole under a temporary name and linked into place: a run that dies while
    making it (here: right after writing the schema) leaves no survey file that a rerun would
    refuse, and the rerun stores what an uninterrupted run does."""
    out = tmp_path / "new.sqlite"
    set_up = store_module.Store._set_up

    def dies_after_the_schema(self, *args, **settings):
        set_up(self, *args, **settings)
        raise KeyboardInterrupt

    monkeypatch.setattr(store_module.Store, "_set_up", dies_after_the_schema)
    with pytest.raises(KeyboardInterrupt):
        run_survey(SPEC, parse_seeds(SEEDS), out)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(store_module.Store, "_set_up", set_up)
    result = run_cli(*survey_args(out, SEEDS))
    assert result.exit_code == 0, result.output
    assert survey_table(out) == reference[1]
    assert [path.name for path in tmp_path.iterdir() if not path.name.startswith("new.sqlite-")] == ["new.sqlite"]


ARGUMENTS = [
    (["--max-nodes", "0"], "--max-nodes"),
    (["--max-nodes", "-5"], "--max-nodes"),
    (["--max-seconds", "nan"], "--max-seconds"),
    (["--max-seconds", "inf"], "--max-seconds"),
    (["--max-seconds", "1e999"], "--max-seconds"),
    (["--max-seconds", "-1"], "--max-seconds"),
    (["--max-memory", "9" * 400], "too large"),
    (["--max-memory", "1K"], "too small"),
    (["--max-memory", "lots"], "memory size"),
    (["--jobs", "-1"], "--jobs"),
    (["--jobs", "9" * 30], "--jobs"),
    (["--seeds", "5-1"], "seed range"),
    (["--variant", "no-such-variant"], "variant"),
    (["--option", "nearest=perhaps"], "nearest"),
]


@pytest.mark.one_engine  # refused before any search
@pytest.mark.parametrize("change, word", ARGUMENTS)
def test_every_argument_is_checked_before_a_file_is_made(tmp_path, change, word):
    out = tmp_path / "new.sqlite"
    args = survey_args(out, "1-3")
    for flag, value in zip(change[::2], change[1::2]):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    assert word in error_line(run_cli(*args))
    assert list(tmp_path.iterdir()) == []


def test_the_corrected_command_then_runs_on_the_same_path(tmp_path):
    out = tmp_path / "new.sqlite"
    error_line(run_cli(*survey_args(out, "1-3", "--max-seconds", "nan")))
    result = run_cli(*survey_args(out, "1-3"))
    assert result.exit_code == 0 and "3 of 3 deals stored" in result.stdout


@pytest.mark.one_engine  # refused before any search
def test_an_unreachable_scheduler_is_refused_before_a_file_is_made(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("solver.surveys.running.DASK_CONNECT_TIMEOUT", "1s")
    message = error_line(run_cli(*survey_args(tmp_path / "x.sqlite", "1-3", "--scheduler", "tcp://127.0.0.1:9")))
    assert "Dask scheduler" in message and list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- numbers


def test_slowest_is_a_count_of_any_size(reference):
    assert "--slowest" in error_line(run_cli("report", str(reference[0]), "--slowest", "-1"))
    every = run_cli("report", str(reference[0]), "--slowest", "9" * 30)
    assert every.exit_code == 0
    listed = every.stdout.split("slowest deals:")[1].strip().splitlines()[1:]
    assert len(listed) == TOTAL
    none = run_cli("report", str(reference[0]), "--slowest", "0")
    assert none.exit_code == 0 and "slowest deals" not in none.stdout


# ----------------------------------------------------------------------------- a damaged file


def _damage(path: Path, how: str) -> None:
    """4 KiB of random bytes written into the middle of the file, or its second half cut off."""
    size = path.stat().st_size
    with open(path, "r+b") as file:
        if how == "overwritten":
            file.seek(size // 2)
            file.write(random.Random(13).randbytes(4096))
        else:
            file.truncate(size // 2)


@pytest.mark.parametrize("how", ["overwritten", "truncated"])
def test_a_damaged_survey_is_refused_in_one_line_before_anything_is_solved(reference, tmp_path, monkeypatch, how):
    survey = tmp_path / "s.sqlite"
    shutil.copy(reference[0], survey)
    _damage(survey, how)
    before = snapshot(tmp_path)

    def solve_nothing(*args):
        raise AssertionError("a deal was solved before the file was checked")

    monkeypatch.setattr("solver.surveys.running.solve_seeds", solve_nothing)
    for args in (survey_args(survey, SEEDS), ["report", str(survey)], ["report", str(survey), "--csv", "-"]):
        message = error_line(run_cli(*args))
        assert "damaged" in message and ".recover" in message, message
    assert snapshot(tmp_path) == before


def _overwrite_options(path: Path, which: int) -> None:
    """Two bytes of the options' JSON overwritten in the file's bytes (``which``: 0 the first copy,
    the settings', the only one now that rows do not repeat them), which SQLite's checks do not notice."""
    data = bytearray(path.read_bytes())
    at = [found.start() for found in re.finditer(rb'\{"compulsory": ', data)][which]
    data[at : at + 2] = b"XX"
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "alter, what",
    [
        ("update deals set score='abc' where seed=3", "the deal of seed 3 has score 'abc'"),
        ("update deals set microseconds='x' where seed=4", "the deal of seed 4 has microseconds 'x'"),
        ("update deals set verdict='bogus' where seed=5", "the deal of seed 5 has verdict 'bogus'"),
        ("update survey set value='abc' where key='max_nodes'", "its setting max_nodes is not JSON: 'abc'"),
        (0, "its setting options is not JSON: 'XXcompulsory"),
        (  # a setting altered into another a run could write: no row repeats it, its digest differs
            """update survey set value=replace(value, '"compulsory": true', '"compulsory": false') where key='options'""",
            "its settings differ from those it was made with (their digest)",
        ),
        ("update survey set value='3000' where key='max_nodes'", "its settings differ from those it was made with"),
    ],
)
def test_a_survey_file_altered_beyond_what_runs_write_is_refused_as_damaged(reference, tmp_path, alter, what):
    """Values SQLite stores without complaint but no survey writes: refused as damaged by report,
    survey (not as "other settings") and the Python API alike, the file untouched (a deal with
    another verdict no longer vanishes from the counts)."""
    survey = tmp_path / "s.sqlite"
    shutil.copy(reference[0], survey)
    if isinstance(alter, int):
        _overwrite_options(survey, alter)
    else:
        with sqlite3.connect(survey) as db:
            db.execute(alter)
        db.close()
    before = snapshot(tmp_path)
    for args in (["report", str(survey)], ["report", str(survey), "--json", "-"], survey_args(survey, SEEDS)):
        message = error_line(run_cli(*args))
        assert message.startswith(f"patience: error: {survey}: the file is damaged (") and what in message, message
    with pytest.raises(UserError, match="damaged"):
        solver.load_survey(survey).summary()
    assert snapshot(tmp_path) == before
