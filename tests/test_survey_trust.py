"""Surveys as a hostile user meets them (issue 28): survey files reached through links, faults that
would end in silence or leave the fix undone, and files altered so that SQLite's own checks pass.

A survey file is opened by its real path and a name SQLite's side files would miss (a second hard
link) is refused; every fault ends in one line saying what is stored; a value no survey writes, or
anything in the file a survey did not make, is refused as damaged before it is read.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import (
    SURVEY_GAME,
    SURVEY_NODES,
    SURVEY_VARIANT,
    error_line,
    patience_command,
    run_cli,
    snapshot,
    survey_args,
    survey_deal_file,
    survey_spec,
    survey_table,
)

import solver
from solver.errors import UserError
from solver.service.seeds import parse_seeds
from solver.surveys.running import run_survey
from solver.surveys.store import Store

SEEDS, TOTAL = "1-30", 30
SPEC = survey_spec()


@pytest.fixture
def reference(tmp_path_factory) -> tuple[Path, list[tuple]]:
    """An uninterrupted run of the survey (in this process, on the test's engine: under a node
    limit the two engines' restarts may leave different deals unknown)."""
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    assert run_survey(SPEC, parse_seeds(SEEDS), path).solved == TOTAL
    return path, survey_table(path)


def _uncheckpointed(out: Path) -> tuple[Store, sqlite3.Connection]:
    """A survey being written: ``out`` made and held open for writing, with a reader's transaction
    open so that no checkpoint copies the -wal file's commits into the file itself, as happens
    while a survey runs. Returns the writer and the reader (close both)."""
    writer = Store(out, SPEC.identity(), requested=parse_seeds(SEEDS))
    writer.db.execute("PRAGMA wal_autocheckpoint=0")
    reading = sqlite3.connect(out)
    reading.execute("BEGIN")
    reading.execute("SELECT COUNT(*) FROM deals").fetchall()
    return writer, reading


def _store_rows(writer: Store, reference: Path) -> int:
    """The reference survey's rows stored by ``writer`` (committed, in its -wal only)."""
    from solver.surveys.row_codec import STORED, Stored

    with sqlite3.connect(f"file:{reference}?mode=ro", uri=True) as db:
        values = db.execute(f"SELECT seed, {', '.join(STORED)} FROM deals").fetchall()
    writer.add(Stored(*value) for value in values)
    return len(values)


# ----------------------------------------------------------------------------- links


def test_an_export_through_a_symlink_never_replaces_the_live_wal(reference, tmp_path):
    """While a survey writes real.sqlite, its last commits are in real.sqlite-wal: a report of a
    symlink to it sees them, and an export named after the real file's -wal is refused."""
    real = tmp_path / "real.sqlite"
    writer, reading = _uncheckpointed(real)
    try:
        stored = _store_rows(writer, reference[0])
        wal = Path(f"{real}-wal")
        assert wal.stat().st_size > 0
        (tmp_path / "link.sqlite").symlink_to(real.name)
        before = wal.read_bytes()
        for target in (f"{real}-wal", f"{real}-shm", str(real)):
            message = error_line(run_cli("report", str(tmp_path / "link.sqlite"), "--csv", target))
            assert "would overwrite a survey file it reports" in message, message
        assert wal.read_bytes() == before
        shown = run_cli("report", str(tmp_path / "link.sqlite"))
        assert shown.exit_code == 0 and f"deals: {stored} " in shown.stdout, shown.output
        assert not (tmp_path / "link.sqlite-wal").exists() and not (tmp_path / "link.sqlite-shm").exists()
    finally:
        reading.close()
        writer.close()


def test_an_export_that_is_the_wal_by_another_name_is_refused(reference, tmp_path):
    """Compared by the file itself: a hard link to the live -wal is the -wal."""
    real = tmp_path / "real.sqlite"
    writer, reading = _uncheckpointed(real)
    try:
        _store_rows(writer, reference[0])
        os.link(f"{real}-wal", tmp_path / "other.csv")
        message = error_line(run_cli("report", str(real), "--csv", str(tmp_path / "other.csv")))
        assert "would overwrite a survey file it reports" in message, message
    finally:
        reading.close()
        writer.close()


def _killed_survey(directory: Path, reference: Path) -> Path:
    """What a survey killed by ``kill -9`` leaves: the file, and its committed rows in its -wal."""
    directory.mkdir()
    running = directory / "running.sqlite"
    writer, reading = _uncheckpointed(running)
    try:
        _store_rows(writer, reference)
        left = directory / "real.sqlite"
        for suffix in ("", "-wal"):  # copied while the writer holds them: as a kill leaves them
            shutil.copy(f"{running}{suffix}", f"{left}{suffix}")
    finally:
        reading.close()
        writer.close()
    for path in directory.glob("running.sqlite*"):
        path.unlink()
    return left


def test_a_survey_file_with_a_second_hard_link_is_refused_by_every_reader_and_writer(reference, tmp_path):
    left = _killed_survey(tmp_path / "disk", reference[0])
    hard = left.with_name("hard.sqlite")
    os.link(left, hard)
    before = snapshot(left.parent)
    for args in (["report", str(hard)], ["report", str(left)], survey_args(hard, SEEDS), survey_args(left, SEEDS)):
        message = error_line(run_cli(*args))
        assert "has 2 hard links" in message and "-wal" in message, message
    with pytest.raises(UserError, match="has 2 hard links"):
        solver.load_survey(hard)
    with pytest.raises(UserError, match="has 2 hard links"):
        solver.survey(SURVEY_GAME, SEEDS, hard, variant=SURVEY_VARIANT, max_nodes=SURVEY_NODES)
    assert snapshot(left.parent) == before
    hard.unlink()  # the fix the message gives: one name
    rerun = run_cli(*survey_args(left, SEEDS))
    assert rerun.exit_code == 0 and f"{TOTAL} already there" in rerun.stdout, rerun.output


def test_a_survey_through_a_symlink_resumes_the_real_files_rows(reference, tmp_path):
    left = _killed_survey(tmp_path / "disk", reference[0])
    link = tmp_path / "link.sqlite"
    link.symlink_to(left)
    report = run_cli("report", str(link))
    assert report.exit_code == 0 and f"deals: {TOTAL} " in report.stdout, report.output
    rerun = run_cli(*survey_args(link, SEEDS))
    assert rerun.exit_code == 0 and f"{TOTAL} already there" in rerun.stdout, rerun.output
    assert link.is_symlink() and not list(tmp_path.glob("link.sqlite-*"))
    assert survey_table(left) == reference[1]


def test_a_dangling_symlink_as_out_makes_the_file_it_names(reference, tmp_path):
    link = tmp_path / "link.sqlite"
    link.symlink_to("made.sqlite")
    ran = run_cli(*survey_args(link, SEEDS))
    assert ran.exit_code == 0, ran.output
    assert link.is_symlink() and survey_table(tmp_path / "made.sqlite") == reference[1]
    nowhere = tmp_path / "nowhere.sqlite"
    nowhere.symlink_to(tmp_path / "missing" / "x.sqlite")
    message = error_line(run_cli(*survey_args(nowhere, SEEDS)))
    assert f"{nowhere} is a symbolic link to {tmp_path / 'missing' / 'x.sqlite'}" in message, message
    assert "there is no directory" in message


# ----------------------------------------------------------------------------- faults


def test_three_threads_surveying_one_new_file_get_one_survey_and_two_refusals(tmp_path, monkeypatch):
    """Threads of one program making the same new file: each but the first is refused as busy
    (they once shared one temporary file name and failed each in its own wrong way)."""
    import threading

    from solver.errors import SurveyBusy
    from solver.surveys import running as survey_module

    solve_seeds = survey_module.solve_seeds
    refused = threading.Event()

    def once_the_others_are_refused(spec, seeds):
        refused.wait(60)  # the first run holds its file until the two others have met it
        return solve_seeds(spec, seeds)

    monkeypatch.setattr(survey_module, "solve_seeds", once_the_others_are_refused)
    out, start, endings = tmp_path / "shared.sqlite", threading.Barrier(3), []

    def run() -> None:
        start.wait()
        try:
            solver.survey(SURVEY_GAME, SEEDS, out, variant=SURVEY_VARIANT, max_nodes=SURVEY_NODES)
            endings.append("done")
        except BaseException as error:  # noqa: BLE001 - what each thread met is the test
            endings.append(type(error).__name__ if isinstance(error, SurveyBusy) else repr(error))
            if len(endings) == 2:
                refused.set()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(endings) == ["SurveyBusy", "SurveyBusy", "done"], endings
    assert [path.name for path in tmp_path.iterdir()] == ["shared.sqlite"]
    assert len(survey_table(out)) == TOTAL


@pytest.mark.one_engine
def test_a_temporary_file_left_by_a_killed_run_is_removed_by_the_next(tmp_path):
    """A run killed while it made the file (SIGBUS on a full disk, kill -9) leaves its hidden
    temporary: the next run removes it, but never one a living run is making."""
    gone = subprocess.Popen(["true"])  # a process number no process has now
    gone.wait()
    living = subprocess.Popen(["sleep", "30"])
    try:
        left = [tmp_path / f".s.sqlite.{gone.pid}.new", tmp_path / f".s.sqlite.{gone.pid}.7.new-wal"]
        left += [tmp_path / f".s.sqlite.{gone.pid}.new-shm", tmp_path / f".s.sqlite.{gone.pid}.7.new"]
        kept = tmp_path / f".s.sqlite.{living.pid}.new"
        for path in (*left, kept):
            path.write_bytes(b"SQLite format 3\0")
        ran = run_cli(*survey_args(tmp_path / "s.sqlite", "1-3"))
        assert ran.exit_code == 0, ran.output
        assert sorted(path.name for path in tmp_path.iterdir()) == sorted([kept.name, "s.sqlite"])
        # Killed between linking the new file into place and unlinking its temporary name: the
        # file has a second name, which the next run removes (a report refuses the file meanwhile).
        os.link(tmp_path / "s.sqlite", tmp_path / f".s.sqlite.{gone.pid}.8.new")
        ran = run_cli(*survey_args(tmp_path / "s.sqlite", "1-5"))
        assert ran.exit_code == 0 and "3 already there" in ran.stdout, ran.output
        assert sorted(path.name for path in tmp_path.iterdir()) == sorted([kept.name, "s.sqlite"])
    finally:
        living.kill()
        living.wait()


def _as_user() -> list[str]:
    """The command prefix that runs a command as nobody when the tests run as root (root writes
    read-only files and the disk's reserved blocks, so the faults below would not arise); skips
    the test where that cannot be done."""
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    try:
        done = subprocess.run([*prefix, *patience_command(), "--version"], capture_output=True, check=False)
    except OSError:
        done = None
    if done is None or done.returncode != 0:
        pytest.skip("cannot run patience as an unprivileged user here")
    return prefix


def _public_directory() -> Path:
    """A new directory every user may use (pytest's own are its owner's only)."""
    import tempfile

    directory = Path(tempfile.mkdtemp(prefix="patience-"))
    directory.chmod(0o777)
    return directory


def _run_as_user(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*_as_user(), *patience_command(), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.one_engine
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ext4 and loop devices are Linux's")
def test_a_nearly_full_disk_of_small_blocks_is_a_full_disk_not_a_sigbus():
    """On ext4 of 1 KiB blocks, SQLite's -shm file (mapped into memory) has holes a full disk
    cannot fill, and touching one killed the survey with SIGBUS (exit 135, nothing said, its
    temporary file left). Now a full disk in one line, nothing left behind, then carried on."""
    directory = _public_directory()
    image, mounted = directory / "disk.img", directory / "disk"
    mounted.mkdir()
    try:
        with open(image, "wb") as file:
            file.truncate(2 * 1024 * 1024)
        for command in (["mkfs.ext4", "-q", "-F", str(image)], ["mount", "-o", "loop", str(image), str(mounted)]):
            done = subprocess.run(command, capture_output=True, check=False)
            if done.returncode != 0:
                pytest.skip(f"cannot make a small ext4 disk here: {done.stderr.decode().strip()}")
        try:
            mounted.chmod(0o777)
            out = mounted / "s.sqlite"
            deals = survey_deal_file(directory / "deals.txt", range(1, 301))
            # KiB left to ordinary users: where SIGBUS struck (33 to 53), and, with a file of
            # deals to record as the file is made, where that said "disk I/O error; check the disk".
            for free, source in ((50, "1-300"), (36, "1-300"), (10, deals), (24, deals)):
                for path in mounted.iterdir():
                    if path.is_file():
                        path.unlink()
                fill = mounted / "fill"
                found = os.statvfs(mounted)
                with open(fill, "wb") as file:
                    file.write(b"\0" * (found.f_bavail * found.f_frsize - free * 1024))
                os.sync()
                done = _run_as_user(*survey_args(out, source))
                lines = done.stderr.strip().splitlines()
                assert done.returncode == 2 and len(lines) == 1 and "the disk is full" in lines[0], (free, done)
                assert [path.name for path in mounted.iterdir() if path.name.startswith(".")] == [], free
            fill.unlink()
            done = _run_as_user(*survey_args(out, "1-30"))
            assert done.returncode == 0 and "30 of 30 deals stored" in done.stdout, done.stderr
        finally:
            subprocess.run(["umount", str(mounted)], check=False)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.one_engine
def test_a_survey_refused_on_a_read_only_file_runs_once_it_is_made_writable():
    """The refusal leaves no -wal or -shm file behind (SQLite made them read-only like the file,
    and they refused the rerun after the chmod the message asked for)."""
    directory = _public_directory()
    try:
        out = directory / "s.sqlite"
        assert _run_as_user(*survey_args(out, "1-5")).returncode == 0
        out.chmod(0o444)
        done = _run_as_user(*survey_args(out, "1-10"))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and "read-only" in lines[0] and "chmod" in lines[0], done
        assert sorted(path.name for path in directory.iterdir()) == ["s.sqlite"]
        out.chmod(0o644)
        done = _run_as_user(*survey_args(out, "1-10"))
        assert done.returncode == 0 and "10 of 10 deals stored (5 already there" in done.stdout, done.stderr
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# ----------------------------------------------------------------------------- altered files


@pytest.mark.parametrize(
    "alter, what",
    [
        ("UPDATE deals SET microseconds = 9e999 WHERE seed = 3", "the deal of seed 3 has microseconds inf"),
        ("UPDATE deals SET microseconds = -1 WHERE seed = 3", "the deal of seed 3 has microseconds -1"),
        ("UPDATE deals SET microseconds = 2.5 WHERE seed = 3", "the deal of seed 3 has microseconds 2.5"),
        (
            "UPDATE deals SET score = 9223372036854775807 WHERE seed = 4",
            "the deal of seed 4 has score 9223372036854775807",
        ),
        ("UPDATE deals SET nodes = -7 WHERE seed = 5", "the deal of seed 5 has nodes -7"),
        (
            "UPDATE deals SET nodes = 9223372036854775807 WHERE seed = 5",
            "the deal of seed 5 has nodes 9223372036854775807",
        ),
        ("UPDATE deals SET verdict = 3 WHERE seed = 6", "the deal of seed 6 has verdict 3"),
        ("UPDATE deals SET verdict = 'won' WHERE seed = 6", "the deal of seed 6 has verdict 'won'"),
        ("UPDATE deals SET limit_hit = 7 WHERE seed = 7", "the deal of seed 7 has limit_hit 7"),
        ("UPDATE deals SET limit_hit = NULL WHERE verdict = 2", "has limit_hit None"),  # unknown, no limit
        ("UPDATE deals SET engine = 2 WHERE seed = 8", "the deal of seed 8 has engine 2"),
        ("UPDATE deals SET redeals = 1 WHERE seed = 8", "the deal of seed 8 has redeals 1"),  # no fewest-redeals
        ("UPDATE deals SET seed = -3 WHERE seed = 9", "the deal of seed -3 has seed -3"),
        ("UPDATE deals SET seed = 99 WHERE seed = 9", "the deal of seed 99 lies outside the seeds requested"),
        ("UPDATE deals SET peak_table_bytes = -1 WHERE seed = 10", "the deal of seed 10 has peak_table_bytes -1"),
        ("UPDATE requested SET high = 0", "its requested seeds hold the range 1-0"),
        ("INSERT INTO requested VALUES (31, 50)", "its requested seeds hold the range 31-50"),  # touches 1-30
        ("DELETE FROM survey WHERE key = 'max_nodes'", "its setting max_nodes is missing"),
        ("DELETE FROM survey WHERE key = 'game'", "its setting game is missing"),
        ("UPDATE survey SET value = '3' WHERE key = 'schema'", "its setting schema is '3'"),
        ("UPDATE survey SET value = '-5' WHERE key = 'max_nodes'", "its setting max_nodes is '-5'"),
        ("INSERT INTO survey VALUES ('colour', 'red')", "its setting colour"),
        (
            "CREATE TRIGGER forget AFTER INSERT ON deals BEGIN DELETE FROM deals WHERE seed = NEW.seed; END",
            "trigger forget",
        ),
        ("CREATE VIEW won AS SELECT * FROM deals WHERE verdict = 0", "view won"),
        ("ALTER TABLE deals ADD COLUMN note TEXT", "its deals table has the column note TEXT"),
        ("CREATE TABLE notes (text TEXT)", "table notes"),
        ("CREATE INDEX by_score ON deals (score)", "index by_score"),
    ],
)
@pytest.mark.one_engine
def test_a_value_or_an_object_no_survey_writes_is_refused_as_damaged(reference, tmp_path, alter, what):
    """SQLite's checks pass these, and report, its JSON and figures, and a resume read them:
    tracebacks (seconds infinite, a score of 2**63-1), a missing setting, or a resume saying every
    deal was stored while a trigger deleted them. Each is refused as damaged, the file untouched."""
    survey = tmp_path / "s.sqlite"
    shutil.copy(reference[0], survey)
    db = sqlite3.connect(survey, isolation_level=None)
    db.execute(alter)
    db.close()
    before = snapshot(tmp_path)
    figures = ["report", str(survey), "--plot", str(tmp_path / "scores.png")]  # where a value tripped them
    for args in (
        ["report", str(survey)],
        ["report", str(survey), "--json", "-"],
        *([figures] if alter.startswith("UPDATE deals SET m") else []),
        survey_args(survey, "1-40"),
    ):
        message = error_line(run_cli(*args))
        assert message.startswith(f"patience: error: {survey}: the file is damaged (") and what in message, message
    with pytest.raises(UserError, match="damaged"):
        solver.load_survey(survey).summary()
    assert snapshot(tmp_path) == before
