"""Surveys under faults and hostile arguments.

A file that a command reads or refuses is left as it was; every argument is checked before a file
is made; and each fault -- a damaged file, a full disk, read-only storage, a lost Dask scheduler,
``kill -9`` at any moment -- ends in one line saying what is stored, after which rerunning the
same command completes the survey exactly as an uninterrupted run does.
"""

from __future__ import annotations

import errno
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    survey_table,
)

import solver
from solver.errors import UserError
from solver.service import store as store_module
from solver.service.errors import SurveyBusy
from solver.service.seeds import parse_seeds
from solver.service.survey import SurveySpec, run_survey

SEEDS, TOTAL = "1-80", 80
SPEC = SurveySpec(SURVEY_GAME, SURVEY_VARIANT, (), SURVEY_NODES, None, 2 * 1024**3)  # as the command line builds it


@pytest.fixture(scope="module")
def reference(tmp_path_factory, engine) -> tuple[Path, list[tuple]]:
    """An uninterrupted run of the survey (in this process)."""
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    assert run_survey(SPEC, parse_seeds(SEEDS), path).solved == TOTAL
    rows = survey_table(path)
    assert {row[5] for row in rows} == {"won", "lost", "unknown"}, "the sample should hold every verdict"
    return path, rows


@pytest.fixture(params=["seeds", "file"])
def source(request, tmp_path) -> str | Path:
    """What a survey is run on: the seeds, or a file of the same deals (line i: seed i's deal),
    whose survey stores the same rows keyed by line."""
    if request.param == "seeds":
        return SEEDS
    return survey_deal_file(tmp_path / "deals.txt", range(1, TOTAL + 1))


def stored_count(message: str) -> int:
    """The count of stored deals a fault's message gives."""
    found = re.search(rf"(\d+) of {TOTAL} deals", message)
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


def test_an_unreachable_scheduler_is_refused_before_a_file_is_made(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("solver.service.survey.DASK_CONNECT_TIMEOUT", "1s")
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

    monkeypatch.setattr("solver.service.survey.solve_seeds", solve_nothing)
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
    from solver.service.survey import solve_seeds

    if 20 in seeds:
        os.kill(os.getpid(), signal.SIGKILL)
    return solve_seeds(spec, seeds)


def test_a_dead_worker_says_what_is_stored_and_exits_75(reference, tmp_path, monkeypatch):
    monkeypatch.setattr("solver.service.survey.solve_seeds", solve_seeds_dying_at_20)
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_rows(out: Path, process: subprocess.Popen, seconds: float = 60) -> int:
    """Wait until the survey has stored some deals; how many."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists():
            try:
                with sqlite3.connect(f"file:{out}?mode=ro", uri=True, timeout=5) as db:
                    stored = db.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
                if stored:
                    return stored
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)
    raise AssertionError("the survey stored nothing")


def test_a_lost_scheduler_says_what_is_stored_and_exits_75(reference, tmp_path):
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = _start(
        "import asyncio\nfrom distributed import Scheduler\n"
        f"async def main():\n    async with Scheduler(host='127.0.0.1', port={address.rsplit(':', 1)[1]}, dashboard_address=None) as s:\n"
        "        await s.finished()\nasyncio.run(main())\n"
    )
    worker = _start(
        "import asyncio\nfrom distributed import Worker\n"
        f"async def main():\n    async with Worker({address!r}, nthreads=1, dashboard_address=None) as w:\n"
        "        await w.finished()\nasyncio.run(main())\n"
    )
    out = tmp_path / "dask.sqlite"
    try:
        survey = subprocess.Popen(
            [*patience_command(), *survey_args(out, SEEDS, "--scheduler", address)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for_rows(out, survey)
        scheduler.kill()
        _, stderr = survey.communicate(timeout=60)
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()
    lines = stderr.strip().splitlines()
    assert survey.returncode == 75 and len(lines) == 1, stderr
    assert "Dask scheduler" in lines[0] and "went away" in lines[0] and "rerun the same command" in lines[0]
    kept = stored_count(lines[0])
    assert kept < TOTAL
    assert_kept_then_completed(out, kept, reference[1])


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


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_kill_9_at_random_moments_then_a_rerun_stores_what_an_uninterrupted_run_does(reference, tmp_path, source):
    seed = random.randrange(10**6)
    moments = random.Random(seed).sample([i / 10 for i in range(3, 30)], 3)
    out = tmp_path / "killed.sqlite"
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    for moment in moments:
        process = subprocess.Popen(
            [*patience_command(), *survey_args(out, source, "--jobs", "2")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        time.sleep(moment)
        process.send_signal(signal.SIGKILL)
        _, stderr = process.communicate(timeout=30)  # until the workers and the resource tracker let go
        assert stderr == "", f"kill -9 after {moment} s (random seed {seed}) left on the terminal: {stderr}"
        if out.exists():
            kept = survey_table(out)
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
    final = [(row[0], row[5], row[6], row[9]) for row in survey_table(out)]
    assert final == [(row[0], row[5], row[6], row[9]) for row in reference[1]], (
        f"moments {moments} (random seed {seed})"
    )
