"""The command line as a hostile user meets it (issue 28): signals at odd moments, a full standard
error, endless standard input, records read slowly, and numbers and names that once slipped through
to internal errors or to messages naming something else."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import random
import signal
import site
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import error_line, interruptible, patience_command, run_cli, stored_deals, survey_args

from rulesets.cards import format_cards
from solver.service.setup import Setup

ROOT = Path(__file__).parents[1]


def _deals(count: int, start: int = 1) -> str:
    """The lines of ``count`` Parlett deals, seeds from ``start``."""
    setup = Setup.of("parlett")
    return "".join(format_cards(setup.deal(seed=seed)) + "\n" for seed in range(start, start + count))


def _caught(process: subprocess.Popen, number: int) -> bool:
    """Whether the process has a handler of its own for the signal ``number``."""
    try:
        status = Path(f"/proc/{process.pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught & (1 << (number - 1)))


def _reading(process: subprocess.Popen, path: Path) -> bool:
    """Whether the process has the file ``path`` open."""
    try:
        return any(os.readlink(entry) == str(path) for entry in Path(f"/proc/{process.pid}/fd").iterdir())
    except OSError:
        return False


def _held(pipe: Any) -> int:
    """How many bytes the pipe ``pipe`` holds, unread."""
    return struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0" * 4))[0]


def _stalled(pipe: Any) -> bool:
    """Whether what the pipe ``pipe`` holds has stopped growing (over 50 ms): its writer, whose
    output is larger than a pipe takes, waits for room."""
    before = _held(pipe)
    time.sleep(0.05)
    return _held(pipe) == before > 0


def _wait(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the moment never came"
        time.sleep(0.001)


# ----------------------------------------------------------------------------- signals


def test_the_packages_of_the_entry_point_import_nothing():
    """Until the entry module's first line sets the handler, Ctrl-C is Python's (a traceback):
    the packages imported before it (solver, solver.cli) import nothing, typing included, whose
    3 ms were the window that 9 of 90 early interrupts hit."""
    code = "import sys; before = set(sys.modules); import solver.cli; print(sorted(set(sys.modules) - before))"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.strip() == "['solver', 'solver.cli']"


@pytest.mark.one_engine
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the kernel's process status")
def test_sigterm_from_the_first_moment_of_a_survey_is_one_line(tmp_path):
    """SIGTERM while the survey imports, reads a large --file or opens its file: one line and
    exit code 130 as for Ctrl-C (it ended with no line, exit 143, before its pool was started)."""
    deals = tmp_path / "deals.txt"
    deals.write_text(_deals(50) * 200)  # 10,000 lines: a few seconds of reading and checking
    command = [
        sys.executable,
        "-S",
        "-c",
        "from solver.cli.entry import main; main()",
        *survey_args(tmp_path / "s.sqlite", deals),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *site.getsitepackages()])}
    rng = random.Random(28)
    # The moment the entry point has set its handler (while it imports), then moments while it
    # reads the deal file, then a few later ones.
    moments = [("set", 0.0), *(("reading", rng.uniform(0, 0.3)) for _ in range(3)), ("set", rng.uniform(0.2, 0.7))]
    for after, delay in moments:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if after == "set":
            _wait(lambda process=process: _caught(process, signal.SIGTERM) or process.poll() is not None)
        else:
            _wait(lambda process=process: _reading(process, deals) or process.poll() is not None)
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=60)
        lines = errors.splitlines()
        assert process.returncode == 130 and len(lines) == 1 and "interrupted" in lines[0], (after, delay, errors)


@pytest.mark.one_engine
def test_a_full_standard_error_does_not_fail_a_finished_survey(tmp_path):
    """The progress bar drawn on a full stderr made a survey that stored every deal exit 2."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*patience_command(), *survey_args(tmp_path / "s.sqlite", "1-20"), "--progress"],
            stdout=subprocess.PIPE,
            stderr=full,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0 and "20 of 20 deals stored" in done.stdout


@pytest.mark.one_engine
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_endless_standard_input_is_surveyed_as_it_streams(tmp_path, jobs):
    """``survey --file -`` fed without end read it whole first, growing without bound and solving
    nothing; now each deal is stored as it comes, and Ctrl-C keeps them."""
    out = tmp_path / "s.sqlite"
    process = subprocess.Popen(
        [*patience_command(), *survey_args(out, Path("-"), "--jobs", jobs)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    assert process.stdin is not None
    process.stdin.write(_deals(40))
    process.stdin.flush()  # and the pipe stays open: more may come
    stored, deadline = 0, time.monotonic() + 60
    while stored < 40 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
        stored = stored_deals(out)
    process.send_signal(signal.SIGINT)
    output, errors = process.communicate(timeout=60)
    assert stored == 40, (stored, errors)
    assert process.returncode == 130 and "40 of 40 deals stored" in output and len(errors.splitlines()) == 1, errors
    again = run_cli(*survey_args(out, Path("-")), stdin=_deals(50))
    assert again.exit_code == 0 and "50 of 50 deals stored (40 already there" in again.stdout, again.output
    changed = run_cli(*survey_args(out, Path("-")), stdin=_deals(3, start=7))
    assert "line 1 holds another deal than the one surveyed there" in error_line(changed)


@pytest.mark.one_engine
def test_a_record_cut_by_ctrl_c_while_a_slow_reader_drains_it_is_whole(tmp_path):
    """Records to a pipe its reader drains slowly: a Ctrl-C while one is being written lets it
    finish (it once lacked its line end, or more), so every line read is a whole record."""
    deals = tmp_path / "deals.txt"
    deals.write_text(_deals(300))
    command = [*patience_command(), "solve", "parlett", "--file", str(deals), "--json", "--max-nodes", "3000"]
    for trial in range(3):
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, preexec_fn=interruptible
        )
        assert process.stdout is not None
        # the pipe has taken all it can (records, more than the head read below): the command waits
        _wait(lambda process=process: _held(process.stdout) >= 16384 and _stalled(process.stdout))
        head = process.stdout.read(1000 + 777 * trial)
        _wait(lambda process=process: _stalled(process.stdout))  # it wrote what that made room for, and waits
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=60)
        *records, tail = (head + rest).split(b"\n")
        assert tail == b"" and records, (trial, tail[-100:], errors)
        assert all(json.loads(record)["game"] == "accordion" for record in records), trial
        assert process.returncode == 130, errors


def _streamed(out: Path, text: str, *extra: str) -> subprocess.CompletedProcess:
    """``patience survey ... --file -`` fed ``text`` through a pipe (a stream, read as it comes)."""
    return subprocess.run(
        [*patience_command(), *survey_args(out, Path("-"), *extra)],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.one_engine
def test_a_bad_line_of_a_stream_ends_the_survey_keeping_the_deals_before_it(tmp_path):
    out = tmp_path / "s.sqlite"
    done = _streamed(out, _deals(20) + "AS AS AS\n" + _deals(5, start=21))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "deal file standard input line 21:" in lines[0] and "20 of 20 deals are stored" in lines[0]
    with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as db:
        assert db.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 20
    whole = _streamed(out, _deals(25), "--jobs", "2")
    assert whole.returncode == 0 and "25 of 25 deals stored (20 already there" in whole.stdout, whole.stderr


@pytest.mark.one_engine
def test_a_stream_is_held_to_the_lines_it_surveyed(tmp_path):
    """Read again, a stream must hold the deals surveyed on their lines; once it has ended (the
    survey's lines complete), no more may follow, and a file of fewer deals is a changed file."""
    out = tmp_path / "s.sqlite"
    assert _streamed(out, _deals(10)).returncode == 0
    for text, words in [
        (_deals(4) + _deals(1, start=30) + _deals(5, start=6), "line 5 holds another deal than the one surveyed there"),
        (_deals(12), "line 11 holds a deal where the surveyed file had none"),
        (_deals(8), "line 9 holds no deal where the surveyed file had one"),
        ("# a comment\n" + _deals(10), "line 1 holds no deal where the surveyed file had one"),
    ]:
        done = _streamed(out, text)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and words in lines[0], (words, done.stderr)
    again = _streamed(out, _deals(10))
    assert again.returncode == 0 and "10 of 10 deals stored (10 already there" in again.stdout, again.stderr
    deals = tmp_path / "deals.txt"
    deals.write_text(_deals(10))
    assert run_cli(*survey_args(out, deals)).exit_code == 0


# ----------------------------------------------------------------------------- numbers and names


@pytest.mark.parametrize(
    "args, words",
    [
        (("solve", "accordion", "--seed", "7", "--max-nodes", "9" * 400), ("--max-nodes",)),
        (("solve", "accordion", "--seed", "7", "--max-nodes", "9" * 5000), ("--max-nodes",)),
        (("solve", "accordion", "--seed", "7", "--max-memory", "9" * 5000), ("memory size",)),
        (("solve", "accordion", "--seed", "9" * 5000), ("--seed",)),
        (("solve", "accordion", "--seed", "+5"), ("digits 0-9",)),
        (("solve", "accordion", "--seed", " 5"), ("digits 0-9",)),
        (("solve", "accordion", "--seed", "7", "--max-memory", "\uff12G"), ("memory size",)),
        (("report", "x.sqlite", "--slowest", "+3"), ("digits 0-9",)),
    ],
)
@pytest.mark.one_engine
def test_every_number_is_read_by_one_rule_and_none_overflows(args, words):
    """Digits 0-9 only, as --seed already read them, and no number so long that reading or
    comparing it fails (OverflowError, Python's 4,300-digit limit) instead of saying so."""
    line = error_line(run_cli(*args))
    for word in words:
        assert word in line, line


@pytest.mark.one_engine
@pytest.mark.parametrize("seeds", ["\u0663", "\uff12", "1_000", "+5", "1-\u0665", "1-" + "9" * 5000])
def test_seed_ranges_take_the_digits_0_9_only(tmp_path, seeds):
    line = error_line(run_cli(*survey_args(tmp_path / "s.sqlite", seeds)))
    assert "seed" in line and not list(tmp_path.iterdir()), line


@pytest.mark.one_engine
def test_the_api_refuses_numbers_beyond_reading_as_its_documented_errors(tmp_path):
    import solver
    from solver.errors import UserError

    for call in (
        lambda: solver.solve("accordion", seed=10**5000),
        lambda: solver.solve("accordion", seed=-(10**5000)),
        lambda: solver.solve("accordion", seed=7, max_nodes=10**400),
        lambda: solver.hint("accordion", seed=7, max_nodes=10**5000),
        lambda: solver.survey("parlett", "1-3", tmp_path / "s.sqlite", max_nodes=10**400),
    ):
        with pytest.raises(UserError) as refused:
            call()
        assert len(str(refused.value)) < 300, str(refused.value)
    assert not list(tmp_path.iterdir())


@pytest.mark.one_engine
@pytest.mark.parametrize("address", ["tls://127.0.0.1:9", "ucx://127.0.0.1:9", "inproc://nowhere"])
def test_a_scheduler_of_another_kind_is_bad_input(tmp_path, address, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("solver.surveys.running.DASK_CONNECT_TIMEOUT", "1s")
    line = error_line(run_cli(*survey_args(tmp_path / "s.sqlite", "1-3", "--scheduler", address)))
    assert "Dask scheduler" in line and address in line and not list(tmp_path.iterdir()), line


@pytest.mark.one_engine
def test_a_line_of_exactly_the_longest_length_is_read(tmp_path):
    deal = _deals(1).strip()
    deals = tmp_path / "deals.txt"
    deals.write_text(deal + " " * (65536 - len(deal)) + "\n")
    done = run_cli("solve", "parlett", "--file", str(deals), "--max-nodes", "100")
    assert done.exit_code == 0 and "result: unknown" in done.stdout, done.output
    deals.write_text(deal + " " * (65537 - len(deal)) + "\n")
    assert "line 1 is longer than 65536 bytes" in error_line(run_cli("solve", "parlett", "--file", str(deals)))


@pytest.mark.one_engine
def test_a_file_named_dash_is_written_when_named_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run_cli("solve", "accordion", "--seed", "7", "--html", "./-")
    assert done.exit_code == 0 and "<html" in (tmp_path / "-").read_text(), done.output
    (tmp_path / "-").unlink()
    done = run_cli(*survey_args("./-", "1-3"))
    assert done.exit_code == 0 and (tmp_path / "-").is_file(), done.output


@pytest.mark.one_engine
def test_empty_survey_names_in_the_api_are_named_as_empty(tmp_path):
    import solver
    from solver.errors import UserError

    for call in (
        lambda: solver.survey("parlett", "1-3", ""),
        lambda: solver.survey("parlett", out=tmp_path / "s.sqlite", file=""),
        lambda: solver.load_survey(""),
    ):
        with pytest.raises(UserError, match="empty file name"):
            call()
    assert not list(tmp_path.iterdir())


@pytest.mark.one_engine
def test_a_csv_row_cut_by_ctrl_c_while_a_slow_reader_drains_it_is_whole(tmp_path):
    """``report --csv -`` as the records of ``solve --json``: each row is written whole."""
    from solver.service.seeds import parse_seeds
    from solver.surveys.running import SurveySpec, run_survey

    out = tmp_path / "s.sqlite"
    run_survey(SurveySpec("accordion", "parlett", (), 50, None, 2 * 1024**3), parse_seeds("1-1500"), out)
    command = [*patience_command(), "report", str(out), "--csv", "-"]
    for trial in range(2):
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, preexec_fn=interruptible
        )
        assert process.stdout is not None
        # the pipe has taken all it can (rows, more than the head read below): the command waits
        _wait(lambda process=process: _held(process.stdout) >= 16384 and _stalled(process.stdout))
        head = process.stdout.read(999 + 777 * trial)
        _wait(lambda process=process: _stalled(process.stdout))  # and waits again
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=60)
        text = (head + rest).decode()
        assert text.endswith("\r\n") and process.returncode == 130, (trial, text[-100:], errors)
        header, *rows = csv.reader(io.StringIO(text, newline=""))
        assert rows and all(len(row) == len(header) and row[0].isdigit() for row in rows), trial
