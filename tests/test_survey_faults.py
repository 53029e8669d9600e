"""Surveys under faults: a full disk, read-only storage, a dead worker or resource tracker, a
lost Dask scheduler, a second run at once, ``kill -9`` at any moment -- each ends in one line
saying what is stored, after which rerunning the same command completes the survey exactly as an
uninterrupted run does. (The files and arguments a survey refuses: test_survey_refusals.py.)
"""

from __future__ import annotations

import errno
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import (
    FAULTS_SEEDS,
    FAULTS_TOTAL,
    SURVEY_GAME,
    SURVEY_NODES,
    SURVEY_VARIANT,
    DaskCluster,
    error_line,
    faults_reference,
    patience_command,
    run_cli,
    snapshot,
    stored_deals,
    survey_args,
    survey_deal_file,
    survey_spec,
    survey_table,
)

import solver
from solver.errors import SurveyBusy
from solver.surveys import store as store_module
from solver.surveys.running import SurveySpec

SEEDS, TOTAL = FAULTS_SEEDS, FAULTS_TOTAL
SPEC = survey_spec()


@pytest.fixture(scope="module")
def reference(tmp_path_factory, engine) -> tuple[Path, list[tuple]]:
    """An uninterrupted run of the survey (in this process)."""
    return faults_reference(tmp_path_factory)


@pytest.fixture(params=["seeds", "file"])
def source(request, tmp_path) -> str | Path:
    """What a survey is run on: the seeds, or a file of the same deals (line i: seed i's deal),
    whose survey stores the same rows keyed by line."""
    if request.param == "seeds":
        return SEEDS
    return survey_deal_file(tmp_path / "deals.txt", range(1, TOTAL + 1))


def stored_count(message: str, total: int = TOTAL) -> int:
    """The count of stored deals a fault's message gives (of ``total`` deals surveyed)."""
    found = re.search(rf"(\d+) of {total} deals", message)
    assert found, message
    return int(found.group(1))


def assert_kept_then_completed(out: Path, kept: int, rows: list[tuple], source: str | Path = SEEDS) -> None:
    """The rows a fault left are the reference's, and a rerun completes the same survey."""
    stored = survey_table(out)
    assert len(stored) == kept and stored == [row for row in rows if row[0] in {r[0] for r in stored}]
    rerun = run_cli(*survey_args(out, source))
    assert rerun.exit_code == 0, rerun.output
    assert f"{kept} already there" in rerun.stdout
    assert survey_table(out) == rows


# ----------------------------------------------------------------------------- a full disk


def test_a_full_disk_says_what_is_stored_and_a_rerun_carries_on(reference, tmp_path, monkeypatch):
    """SQLite's own 'database or disk is full', from a page limit on the file."""
    connect = store_module._connect

    def small_disk(path, mode, *named):
        db = connect(path, mode, *named)
        if mode == "rw":
            # Pages of 512 bytes (the new file's), a row some 25 bytes: 10 pages fill mid-run.
            db.execute("PRAGMA page_size = 512")
            db.execute("PRAGMA max_page_count = 10")
        return db

    monkeypatch.setattr(store_module, "_connect", small_disk)
    out = tmp_path / "full.sqlite"
    message = error_line(run_cli(*survey_args(out, SEEDS)))
    assert "the disk is full after" in message and "free some space, then rerun the same command" in message
    kept = stored_count(message)
    assert 0 < kept < TOTAL
    monkeypatch.undo()
    assert_kept_then_completed(out, kept, reference[1])


def test_an_enospc_from_the_system_says_the_same(reference, tmp_path, monkeypatch, source):
    """ENOSPC as the operating system raises it, on the fourth commit (the first two make the file:
    whole under a temporary name, then opened in place), in a survey of seeds and in one of a file
    of deals."""
    commits = []
    enter = store_module._Transaction.__enter__

    def failing(self):
        commits.append(1)
        if len(commits) == 4:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        enter(self)

    monkeypatch.setattr(store_module._Transaction, "__enter__", failing)
    out = tmp_path / "full.sqlite"
    message = error_line(run_cli(*survey_args(out, source)))
    assert "the disk is full after" in message and "rerun the same command" in message
    kept = stored_count(message)
    assert 0 < kept < TOTAL
    monkeypatch.undo()
    assert_kept_then_completed(out, kept, reference[1], source)


@contextmanager
def tmpfs(directory: Path, size: str) -> Iterator[Path]:
    """A small tmpfs mounted on ``directory`` (skips the test where mounting is not allowed)."""
    directory.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)


def remount(directory: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(directory)], check=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tmpfs is Linux's")
def test_a_full_tmpfs_says_what_is_stored_and_a_rerun_carries_on(reference, tmp_path):
    # 64k: room to make the file (under a temporary name, then linked), its -shm and the -wal's
    # first commits, but not for every deal (a row takes some 25 bytes: the -wal's frames fill it)
    with tmpfs(tmp_path / "disk", "64k") as disk:
        out = disk / "s.sqlite"
        process = subprocess.run(
            [*patience_command(), *survey_args(out, SEEDS)], check=False, capture_output=True, text=True, timeout=120
        )
        lines = process.stderr.strip().splitlines()
        assert process.returncode == 2 and len(lines) == 1, process.stderr
        assert "disk is full" in lines[0] and "rerun the same command" in lines[0], lines[0]
        kept = stored_count(lines[0])
        remount(disk, "size=16m")  # space freed
        assert_kept_then_completed(out, kept, reference[1])


# ----------------------------------------------------------------------------- read-only storage


def test_a_survey_on_read_only_storage_is_reported_and_not_written(reference, tmp_path):
    with tmpfs(tmp_path / "disk", "16m") as disk:
        survey = disk / "s.sqlite"
        shutil.copy(reference[0], survey)
        remount(disk, "ro")
        try:
            before = snapshot(disk)
            report = run_cli("report", str(survey), "--csv", str(tmp_path / "deals.csv"))
            assert report.exit_code == 0, report.output
            assert (
                f"deals: {TOTAL}" in report.stdout
                and len((tmp_path / "deals.csv").read_text().splitlines()) == TOTAL + 1
            )
            message = error_line(run_cli(*survey_args(survey, "1-100")))
            assert "read-only" in message or "cannot open" in message, message
            assert snapshot(disk) == before
        finally:
            remount(disk, "rw")


def test_a_survey_file_refused_by_read_only_storage_is_named_as_the_user_gave_it(tmp_path, monkeypatch):
    """On a read-only file system the new file's hidden temporary cannot be created, and the
    system refuses even the removal of what it would leave (EROFS): the first error is the one
    reported, naming the --out file, not the temporary, nor hidden by the cleanup's."""
    connect, unlink, open_ = sqlite3.connect, Path.unlink, os.open

    def read_only_connect(database, *args, **kwargs):
        if ".new?" in database:
            error = sqlite3.OperationalError("unable to open database file")
            error.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN
            raise error
        return connect(database, *args, **kwargs)

    def read_only_open(path, flags, *args, **kwargs):
        if str(path).endswith(".new") and flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return open_(path, flags, *args, **kwargs)

    def read_only_unlink(path, missing_ok=False):
        if path.parent == tmp_path:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(sqlite3, "connect", read_only_connect)
    monkeypatch.setattr(Path, "unlink", read_only_unlink)
    out = tmp_path / "new.sqlite"
    for fails in ("os.open", "sqlite3.connect"):  # our own temporary, then SQLite's opening of it
        if fails == "os.open":
            monkeypatch.setattr(os, "open", read_only_open)
        else:
            monkeypatch.setattr(os, "open", open_)
        message = error_line(run_cli(*survey_args(out, "1-8")))
        assert message.startswith(f"patience: error: {out}: ") and ".new" not in message, message
        assert "read-only" in message or "cannot open" in message, message
        monkeypatch.setattr(Path, "unlink", unlink)
        for left in tmp_path.iterdir():  # what the read-only disk kept, in the world of this test
            left.unlink()
        monkeypatch.setattr(Path, "unlink", read_only_unlink)
    monkeypatch.undo()
    assert not list(tmp_path.iterdir())


# ----------------------------------------------------------------------------- a dead worker


def solve_seeds_dying_at_20(spec: SurveySpec, seeds: list[int]) -> list:
    """A worker's work that kills its own process (as the OOM killer would) on the chunk holding
    seed 20 (a module-level function: spawned workers import it from here)."""
    from solver.surveys.running import solve_seeds

    if 20 in seeds:
        os.kill(os.getpid(), signal.SIGKILL)
    return solve_seeds(spec, seeds)


def test_a_dead_worker_says_what_is_stored_and_exits_75(reference, tmp_path, monkeypatch):
    monkeypatch.setattr("solver.surveys.running.solve_seeds", solve_seeds_dying_at_20)
    out = tmp_path / "k.sqlite"
    ran = run_cli(*survey_args(out, SEEDS), "--jobs", "2")
    lines = ran.stderr.strip().splitlines()
    assert ran.exit_code == 75 and len(lines) == 1, ran.stderr
    assert "a worker process died (killed, or out of memory?)" in lines[0] and "rerun the same command" in lines[0]
    kept = stored_count(lines[0])
    assert 0 < kept < TOTAL
    monkeypatch.undo()
    assert_kept_then_completed(out, kept, reference[1])


def _resource_tracker_of(pid: int) -> int:
    """The pid of the resource tracker the process ``pid`` started (its child running
    multiprocessing.resource_tracker)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):  # a process gone meanwhile
            continue
        if parent == pid and b"multiprocessing.resource_tracker" in command:
            return int(stat.parent.name)
    raise AssertionError(f"process {pid} runs no resource tracker")


def _wait_until_dead(pid: int, seconds: float = 60) -> None:
    """Wait until the process ``pid`` is dead (a zombie its parent has not reaped yet, or gone)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX":
                return
        except OSError:
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} outlived its kill -9")


@pytest.mark.one_engine
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the resource tracker in /proc")
def test_a_killed_resource_tracker_is_one_line_and_loses_no_row(reference, tmp_path):
    """Killed mid-run, multiprocessing's resource tracker printed 22 lines of warnings and
    tracebacks as the pool ended. The deals come from a pipe, so the tracker is killed while the
    run waits for the rest of them: whatever the machine's load, before the pool ends."""
    deals = survey_deal_file(tmp_path / "deals.txt", range(1, 9)).read_text().splitlines(keepends=True)
    out = tmp_path / "t.sqlite"
    survey = subprocess.Popen(
        [*patience_command(), *survey_args(out, Path("-"), "--jobs", "2")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert survey.stdin is not None
        survey.stdin.writelines(deals[:4])
        survey.stdin.flush()
        _wait_for_rows(out, survey)
        tracker = _resource_tracker_of(survey.pid)
        os.kill(tracker, signal.SIGKILL)
        _wait_until_dead(tracker)
        _, stderr = survey.communicate("".join(deals[4:]), timeout=60)
    finally:
        survey.kill()
        survey.wait()
    assert survey.returncode == 0, stderr
    assert stderr.splitlines() == [
        "patience: note: multiprocessing's resource tracker, a helper process of this run, died (killed?) "
        "and was started again; no row was lost"
    ]
    assert survey_table(out) == reference[1][:8]


# ----------------------------------------------------------------------------- a lost scheduler


def _wait_for_rows(out: Path, process: subprocess.Popen, seconds: float = 60) -> int:
    """Wait until the survey has stored some deals; how many."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        stored = stored_deals(out)
        if stored:
            return stored
        time.sleep(0.05)
    raise AssertionError("the survey stored nothing")


def test_a_lost_scheduler_says_what_is_stored_and_exits_75(reference, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "dask.sqlite"
    with DaskCluster(tmp_path / "cluster", workers=1) as cluster:  # on a port the system picks
        # A survey of 100,000 deals: the scheduler is killed once some are stored, long before it
        # could end whatever the load (of 80, it once ended first: exit 0).
        survey = subprocess.Popen(
            [*patience_command(), *survey_args(out, "1-100000", "--scheduler", cluster.address)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _wait_for_rows(out, survey)
            cluster.scheduler.kill()
            _, stderr = survey.communicate(timeout=60)
        finally:
            survey.kill()
            survey.wait()
    lines = stderr.strip().splitlines()
    assert survey.returncode == 75 and len(lines) == 1, stderr
    assert "Dask scheduler" in lines[0] and "went away" in lines[0] and "rerun the same command" in lines[0]
    assert 0 < stored_count(lines[0], 100_000) < 100_000
    kept = [row for row in survey_table(out) if row[0] <= TOTAL]  # the reference's seeds among those stored
    assert kept == [row for row in reference[1] if row[0] in {r[0] for r in kept}]
    rerun = run_cli(*survey_args(out, SEEDS))
    assert rerun.exit_code == 0 and f"{len(kept)} already there" in rerun.stdout, rerun.output
    assert [row for row in survey_table(out) if row[0] <= TOTAL] == reference[1]


# ----------------------------------------------------------------------------- two runs at once


def test_a_second_survey_of_a_file_being_written_is_refused_and_leaves_it_alone(reference, tmp_path):
    out = tmp_path / "busy.sqlite"
    writing = store_module.Store(out, SPEC.identity())  # a first run, between two of its batches
    try:
        before = snapshot(tmp_path)
        line = error_line(run_cli(*survey_args(out, SEEDS)))
        assert str(out) in line and "another survey is writing this file" in line, line
        assert "wait for it to end, or write to another file" in line
        with pytest.raises(SurveyBusy, match="another survey is writing"):
            solver.survey(SURVEY_GAME, SEEDS, out, variant=SURVEY_VARIANT, max_nodes=SURVEY_NODES)
        assert snapshot(tmp_path) == before
        assert run_cli("report", str(out)).exit_code == 0  # readers are welcome meanwhile
    finally:
        writing.close()
    assert_kept_then_completed(out, 0, reference[1])


def _posix_locks(path: Path) -> list[str]:
    """This file's POSIX (fcntl) locks as the kernel lists them: SQLite's own."""
    inode = f":{path.stat().st_ino} "
    return [line for line in Path("/proc/locks").read_text().splitlines() if inode in line and " POSIX " in line]


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="the kernel's lock table is Linux's")
def test_a_refusal_in_the_process_writing_the_file_keeps_the_writers_locks(tmp_path):
    """Closing any descriptor of a file drops the POSIX locks the process holds on it: a second
    writer in the same process is refused before it opens one, so SQLite's locks stay."""
    out = tmp_path / "mine.sqlite"
    writing = store_module.Store(out, SPEC.identity())
    try:
        writing.db.execute("SELECT count(*) FROM deals").fetchall()  # SQLite takes its shared lock
        held = _posix_locks(out)
        assert held
        with pytest.raises(SurveyBusy, match="another survey is writing"):
            store_module.Store(out, SPEC.identity())
        assert _posix_locks(out) == held
    finally:
        writing.close()
    store_module.Store(out, SPEC.identity()).close()  # closed, the file is free to write again


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_survey_killed_while_another_waits_lets_the_rerun_write(reference, tmp_path):
    out = tmp_path / "killed.sqlite"
    first = subprocess.Popen(
        [*patience_command(), *survey_args(out, "1-100000")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _wait_for_rows(out, first)
        second = subprocess.run(
            [*patience_command(), *survey_args(out, SEEDS)], check=False, capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 2 and "another survey is writing" in second.stderr, second.stderr
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    kept = len([row for row in survey_table(out) if row[0] <= TOTAL])
    rerun = run_cli(*survey_args(out, SEEDS))  # the lock went with the killed run
    assert rerun.exit_code == 0 and f"{kept} already there" in rerun.stdout, rerun.output
    assert [row for row in survey_table(out) if row[0] <= TOTAL] == reference[1]


# ----------------------------------------------------------------------------- kill -9


@pytest.mark.one_engine  # the store and the pool under kill -9: the engine only decides the rows
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_kill_9_at_random_moments_then_a_rerun_stores_what_an_uninterrupted_run_does(reference, tmp_path, source):
    """Each killed run cannot have ended before its moment, whatever the load: of seeds, it
    surveys 100,000 deals; of a file, it reads the file's deals from a pipe left open (which a
    rerun of the file carries on). The rerun is of the reference's deals."""
    seed = random.randrange(10**6)
    moments = random.Random(seed).sample([i / 10 for i in range(2, 20)], 3)
    out = tmp_path / "killed.sqlite"
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    for moment in moments:
        process = subprocess.Popen(
            [
                *patience_command(),
                *survey_args(out, Path("-") if isinstance(source, Path) else "1-100000", "--jobs", "2"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert process.stdin is not None
        if isinstance(source, Path):
            process.stdin.write(source.read_text())
            process.stdin.flush()  # and left open: more may come
        time.sleep(moment)  # the moment drawn is what this test varies
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGKILL)
        _, stderr = process.communicate(timeout=30)  # until the workers and the resource tracker let go
        assert stderr == "", f"kill -9 after {moment} s (random seed {seed}) left on the terminal: {stderr}"
        if out.exists():
            kept = [row for row in survey_table(out) if row[0] <= TOTAL]
            assert kept == [row for row in reference[1] if row[0] in {r[0] for r in kept}], (moment, seed)
    rerun = subprocess.run(
        [*patience_command(), *survey_args(out, source, "--jobs", "2")],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert rerun.returncode == 0 and rerun.stderr == "", rerun.stderr
    final = [(row[0], row[5], row[6], row[9]) for row in survey_table(out) if row[0] <= TOTAL]
    assert final == [(row[0], row[5], row[6], row[9]) for row in reference[1]], (
        f"moments {moments} (random seed {seed})"
    )
