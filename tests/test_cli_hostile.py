"""Command lines a careless or hostile user types: each ends in one line and a documented exit
code, never an internal error (found by trying every command by hand; see the h-hostile branch)."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import patience_command, run_cli


def test_a_survey_file_name_that_is_not_utf8_is_used_as_given(tmp_path: Path) -> None:
    out = tmp_path / os.fsdecode(b"\xff.sqlite")
    ran = run_cli("survey", "accordion", "--seeds", "1-2", "--max-nodes", "10", "--out", str(out))
    assert ran.exit_code == 0, ran.output
    assert out.exists()
    assert run_cli("report", str(out)).exit_code == 0


def test_an_over_long_value_is_quoted_cut() -> None:
    ran = run_cli("solve", "accordion", "--variant", "A" * 100_000)
    assert ran.exit_code == 2
    assert (
        ran.stderr
        == "patience: error: unknown variant 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA... (100000 characters)' of accordion; variants: accordion, idle-year, parlett, self-working\n"
    )


def test_an_html_name_the_system_refuses_is_bad_input(tmp_path: Path) -> None:
    ran = run_cli("solve", "accordion", "--seed", "7", "--max-nodes", "10", "--html", str(tmp_path / ("A" * 300)))
    assert ran.exit_code == 2, ran.output
    assert ran.stderr.startswith("patience: error: --html '")  # refused by the guard report's exports use too
    assert ran.stderr.endswith("': cannot look this file name up (File name too long); give a shorter name\n")
    assert list(tmp_path.iterdir()) == []


def test_a_full_standard_output_is_bad_input() -> None:
    with open("/dev/full", "w") as full:
        ran = subprocess.run(
            [*patience_command(), "deal", "accordion", "--seed", "7"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (ran.returncode, ran.stderr) == (
        2,
        "patience: error: cannot use standard output: No space left on device; free some space, or write elsewhere\n",
    )


def closing(*descriptors: int) -> Callable[[], object]:
    """A child's set-up that closes ``descriptors`` (as the shell's ``>&-``, ``2>&-`` do)."""
    return lambda: [os.close(descriptor) for descriptor in descriptors]


def test_a_closed_standard_output_is_bad_input() -> None:
    """Python's print writes nothing when stdout is closed: the answer would be lost with exit 0."""
    ran = subprocess.run(
        [*patience_command(), "solve", "accordion", "--seed", "7"],
        preexec_fn=closing(1),
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert (ran.returncode, ran.stderr) == (
        2,
        "patience: error: standard output is closed: send it somewhere, e.g. '> FILE' or '> /dev/null'\n",
    )


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_bad_input_is_exit_code_2_when_stderr_cannot_be_written(stderr: str) -> None:
    """Nowhere to say what is wrong, but the exit code still tells (it was 1, verify's code)."""
    with open("/dev/full", "w") as full:
        ran = subprocess.run(
            [*patience_command(), "solve", "accordion", "--seed", "0"],
            preexec_fn=closing(2) if stderr == "closed" else None,
            stdout=subprocess.PIPE,
            stderr=full if stderr == "full" else None,
            check=False,
        )
    assert (ran.returncode, ran.stdout) == (2, b"")


def test_completion_beside_a_file_name_that_is_not_utf8_prints_nothing(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"\xff.txt")).touch()
    line = "patience solve accordion --file "
    environment = {**os.environ, "_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line))}
    environment["_ARGCOMPLETE_STDOUT_FILENAME"] = str(tmp_path / "words")
    done = subprocess.run(
        patience_command(), env=environment, cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("deal", "accordion", "--seed", "7", "--seed", "8"),
            "argument -s/--seed: given twice (7 and 8): give it once",
        ),
        (("deal", "accordion", "-s", "7", "--seed=7"), "argument -s/--seed: given twice (7 and 7): give it once"),
        (
            ("solve", "accordion", "--seed", "7", "--variant", "parlett", "-v", "accordion"),
            "argument -v/--variant: given twice (parlett and accordion): give it once",
        ),
        (
            ("solve", "accordion", "--seed", "7", "-o", "compulsory=yes", "-o", "compulsory=no"),
            "option compulsory is given twice: give it once",
        ),
        (("solve", "accordion", "--seed", "7", "--variant", ""), "unknown variant '' of accordion"),
        (
            ("survey", "accordion", "--seeds", "1-2", "--out", "x.sqlite", "--progress", "--no-progress"),
            "argument --progress/--no-progress: given twice: give --progress or --no-progress once",
        ),
    ],
)
def test_a_value_given_twice_or_empty_is_refused(args: tuple[str, ...], message: str) -> None:
    ran = run_cli(*args)
    assert ran.exit_code == 2 and ran.stdout == ""
    assert ran.stderr.startswith(f"patience: error: {message}") and ran.stderr.count("\n") == 1, ran.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--seed", "7", "solve", "accordion"),
            "--seed is an option of a command: write it after the command, e.g. 'patience solve GAME --seed ...'",
        ),
        (
            ("--max-nodes=5", "solve", "accordion"),
            "--max-nodes is an option of a command: write it after the command, e.g. 'patience solve GAME --max-nodes ...'",
        ),
        (
            ("solve", "accordion", "--seed", "7", "--debug"),
            "--debug goes before the command: 'patience --debug solve ...'",
        ),
        (
            ("solve", "accordion", "--position", "-x"),
            "argument -p/--position: expected one argument; if its value begins with '-', write it with '=', "
            "e.g. --position=-x",
        ),
    ],
)
def test_an_option_out_of_place_is_named_with_where_it_goes(args: tuple[str, ...], message: str) -> None:
    ran = run_cli(*args)
    assert ran.exit_code == 2 and ran.stdout == ""
    assert ran.stderr.startswith(f"patience: error: {message}") and ran.stderr.count("\n") == 1, ran.stderr


@pytest.mark.parametrize("args", [("--help",), ("solve", "--help"), ("--version",)])
def test_help_and_version_to_a_closed_pipe_end_as_the_other_commands_do(args: tuple[str, ...]) -> None:
    command = [*patience_command(), *args]
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(command, stdout=writer, stderr=subprocess.PIPE, text=True, check=False)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_survey_is_not_written_to_a_file_named_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ran = run_cli("survey", "accordion", "--seeds", "1-2", "--max-nodes", "10", "--out", "-")
    assert ran.exit_code == 2 and ran.stdout == ""
    assert ran.stderr == (
        "patience: error: --out -: a survey is a SQLite file, not standard output: name it, e.g. --out survey.sqlite\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_replay_page_is_not_mixed_into_the_printed_moves() -> None:
    ran = run_cli("solve", "accordion", "--seed", "7", "--max-nodes", "10", "--html", "-")
    assert ran.exit_code == 2 and ran.stdout == ""
    assert ran.stderr.startswith("patience: error: --html -: the moves are printed on standard output")


def test_a_device_is_not_taken_for_a_survey_file() -> None:
    ran = run_cli("survey", "accordion", "--seeds", "1-2", "--max-nodes", "10", "--out", "/dev/null")
    assert (ran.exit_code, ran.stderr) == (
        2,
        "patience: error: /dev/null is a device, pipe or socket: give a file name for --out\n",
    )
    ran = run_cli("report", "/dev/zero")
    assert (ran.exit_code, ran.stderr) == (
        2,
        "patience: error: /dev/zero is a device, pipe or socket, not a survey file\n",
    )


@pytest.mark.parametrize(
    "name, message",
    [
        (
            "",
            "argument -f/--file: '' is an empty file name: give a file name, or - for standard input (see 'patience solve --help')",
        ),
        ("/", "cannot read deal file /: Is a directory; name a file, not a directory"),
    ],
)
def test_a_file_that_cannot_be_read_is_named_with_the_fix(name: str, message: str) -> None:
    ran = run_cli("solve", "accordion", "--file", name)
    assert (ran.exit_code, ran.stderr) == (2, f"patience: error: {message}\n")


@pytest.mark.parametrize("args, stdin", [(("--deal", "-"), ""), (("--deal", ""), "")])
def test_an_empty_deal_is_named_as_empty(args: tuple[str, ...], stdin: str) -> None:
    ran = run_cli("solve", "accordion", *args, stdin=stdin)
    assert ran.exit_code == 2
    assert ran.stderr == "patience: error: the deal is empty: give its 52 cards in deal order, e.g. 'AS 7H ...'\n"


@pytest.mark.parametrize(
    "line, wanted",
    [
        ("patience solve accordion --seed ", set()),
        ("patience solve thirteens --option ", set()),  # a game without options: no words, no files
        ("patience solve accordion --option ord", {"order=choice", "order=leftmost"}),  # its options, no files
        ("patience solve accordion --variant par", {"parlett"}),
        ("patience solve accordion --file ", {"deals.txt"}),
        ("patience report ", {"deals.txt"}),
    ],
)
def test_completion_offers_file_names_only_where_a_file_goes(tmp_path: Path, line: str, wanted: set[str]) -> None:
    here = tmp_path / "here"
    here.mkdir()
    (here / "deals.txt").touch()
    words = tmp_path / "words"
    environment = {**os.environ, "_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line))}
    environment["_ARGCOMPLETE_STDOUT_FILENAME"] = str(words)
    done = subprocess.run(patience_command(), env=environment, cwd=here, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    offered = {word.strip() for word in words.read_text().split("\v") if word.strip() and not word.startswith("-")}
    assert offered == wanted


def test_an_empty_scheduler_is_refused_not_taken_for_none(tmp_path: Path) -> None:
    out = tmp_path / "s.sqlite"
    ran = run_cli("survey", "accordion", "--seeds", "1-2", "--out", str(out), "--scheduler", "")
    assert (ran.exit_code, ran.stderr) == (
        2,
        "patience: error: --scheduler '' is empty: give the scheduler's address, e.g. tcp://host:8786\n",
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (("report", "."), ". is a directory, not a survey file"),
        (("report", "/"), "/ is a directory, not a survey file"),
        (("report", ""), "argument survey: '' is an empty file name: give a file name"),
        (("survey", "accordion", "--seeds", "1-2", "--out", ""), "argument --out: '' is an empty file name"),
        (("solve", "accordion", "--seed", "1", "--html", ""), "argument --html: '' is an empty file name"),
    ],
)
def test_a_directory_or_an_empty_name_is_named_as_such(args: tuple[str, ...], message: str) -> None:
    ran = run_cli(*args)
    assert ran.exit_code == 2 and ran.stderr.startswith(f"patience: error: {message}"), ran.stderr


@pytest.mark.parametrize("option", ["--csv", "--json", "--plot", "--summary-csv", "--plot-cpu"])
def test_an_empty_export_name_is_named_as_empty(tmp_path: Path, option: str) -> None:
    out = tmp_path / "s.sqlite"
    assert run_cli("survey", "accordion", "--seeds", "1-2", "--max-nodes", "10", "--out", str(out)).exit_code == 0
    ran = run_cli("report", str(out), option, "")
    assert (ran.exit_code, ran.stderr) == (2, f"patience: error: {option} '' is an empty file name: give a file name\n")


def test_a_system_refusal_is_the_users_only_for_a_file_they_named(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.cli.errors import report

    assert (
        report(FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/deals.txt"), named=["-f=/x/deals.txt"])
        == 2
    )
    assert report(FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/tables.bin"), named=["solve"]) == 70
    assert report(OSError(errno.ENOSPC, "No space left on device")) == 2  # a write naming no file: standard output
    assert report(OSError(errno.EACCES, "Permission denied")) == 70
    lines = capsys.readouterr().err.splitlines()
    assert (
        lines[0]
        == "patience: error: cannot use /x/deals.txt: No such file or directory; give a file in a directory that exists"
    )
    assert lines[1].startswith("patience: internal error: FileNotFoundError:")


def test_a_page_of_unknown_cards_is_named_in_a_short_line() -> None:
    ran = run_cli("solve", "accordion", "--deal", "XX " * 30_000)
    assert ran.exit_code == 2
    assert ran.stderr == (
        "patience: error: unknown card(s): XX XX XX XX XX XX XX XX XX XX and 29990 more (ranks A 2-9 T J Q K, suits C D H S)\n"
    )


def test_fewest_redeals_of_a_game_without_redeals_says_so() -> None:
    ran = run_cli("solve", "baroness", "--seed", "1", "--fewest-redeals")
    assert (ran.exit_code, ran.stderr) == (
        2,
        "patience: error: --fewest-redeals counts redeals, and baroness has none: leave it out\n",
    )


def test_a_long_unreadable_move_is_quoted_cut(tmp_path: Path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text(" ".join(["9D"] * 20_000) + "\n")
    ran = run_cli("verify", "accordion", "--seed", "7", "--solution", str(moves))
    assert ran.exit_code == 2 and len(ran.stderr) < 300, ran.stderr
    assert "... (59999 characters)" in ran.stderr
