"""The command line's conventions: exit codes, one error line for every bad input (the parser's
included), internal errors, deal files streamed line by line, standard input, text as editors write
it, verify holding every claim, Ctrl-C from the first moment and a closed pipe."""

from __future__ import annotations

import json
import os
import random
import signal
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulesets.cards import format_cards
from rulesets.deals import seeded_deal
from solver import api
from tests.helpers import PYSOL_DEAL_1, interruptible, snapshot
from tests.helpers import run_cli as run

PATIENCE = [str(Path(sys.executable).with_name("patience"))]
INTERRUPTED = "patience: interrupted (what was printed stands)"


def one_error_line(result, *words: str) -> None:
    """The run ended with exit code 2 and one stderr line naming the problem (and no traceback)."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("patience: error: "), result.stderr
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (("solve", "accordion", "--seed", "x"), ("-s/--seed", "'x' is not a whole number", "patience solve --help")),
        (("solve", "accordion", "--seed", "1_000"), ("'1_000' is not a whole number: write it in the digits 0-9",)),
        (("solve", "accordion", "--seed", "\u0663"), ("is not a whole number: write it in the digits 0-9",)),
        (("solve", "accordion", "--seed", "1", "--max-seconds", "1_0"), ("--max-seconds: '1_0' is not a number",)),
        (("report", "x.sqlite", "--slowest", "a"), ("--slowest: 'a' is not a whole number",)),
        (("solve", "accordion", "--file", ""), ("-f/--file: '' is an empty file name", "or - for standard input")),
        (("verify", "accordion", "--seed", "1", "--solution", ""), ("--solution: '' is an empty file name",)),
        (("solve", "accordion", "--max-nodes", "1.5", "--seed", "1"), ("--max-nodes", "'1.5'")),
        (("frobnicate",), ("unknown command 'frobnicate'; commands: games, describe", "(see 'patience --help')")),
        (("solv", "accordion"), ("unknown command 'solv' (did you mean 'solve'?); commands: games",)),
        (("survey", "accordion", "--seed", "7", "--out", "s.sqlite"), ("arguments: --seed 7 (did you mean --seeds?)",)),
        (("solve", "accordion", "--maxnodes", "4"), ("(did you mean --max-nodes?)", "patience solve --help")),
        (("solve", "accordion", "--seed", "1", "--frob"), ("unrecognized arguments: --frob", "patience solve --help")),
        (("--frob", "games"), ("unrecognized arguments: --frob", "patience games --help")),
        (("solve", "accordion", "--se", "1"), ("unrecognized arguments: --se 1",)),  # no abbreviations
        (("solve",), ("required: game", "patience solve --help")),
        (("verify", "accordion", "--seed", "1"), ("required: --solution",)),
        (("solve", "accordion", "--seed"), ("-s/--seed: expected one argument",)),
        (("deal", "accordion", "--seed", "1", "extra"), ("unrecognized arguments: extra", "patience deal --help")),
        (("solve", "accordion", "--seed", "1", "--max-seconds", "nan"), ("--max-seconds must be positive and finite",)),
        (("solve", "accordion", "--seed", "1", "--max-seconds", "inf"), ("--max-seconds must be positive and finite",)),
    ],
)
def test_what_the_parser_refuses_is_one_line_and_exit_code_2(args, words):
    result = run(*args)
    one_error_line(result, *words)
    assert "usage:" not in result.output.lower() and "Traceback" not in result.output


def test_version_short_help_and_bare_command():
    version = run("--version")
    assert version.exit_code == 0 and version.stdout.startswith("patience ")
    for args in (("-h",), ("solve", "-h")):
        result = run(*args)
        assert result.exit_code == 0 and result.stdout.startswith("usage: patience") and not result.stderr
    # No command is a missing argument (exit code 2, as the exit code table says): the commands
    # are listed on stderr, then the one error line; nothing goes to standard output.
    bare = run()
    assert bare.exit_code == 2 and bare.stdout == "" and bare.stderr.startswith("usage: patience")
    assert "solve" in bare.stderr and bare.stderr.splitlines()[-1] == (
        "patience: error: give a command, e.g. 'patience solve accordion --seed 7' (see 'patience --help')"
    )


def test_the_help_lists_every_command_whatever_follows_it():
    """Only the command run gets a parser, unless the words before it ask for more (the help)."""
    names = ("games", "describe", "deal", "solve", "verify", "hint", "play", "survey", "report")
    for args in (("--help",), ("--help", "solve"), ("--debug",), ("-h", "frobnicate")):
        ran = run(*args)  # --debug alone names no command: the help goes to stderr (exit code 2)
        listing = (ran.stdout or ran.stderr).split("commands:", 1)[1]
        listed = [line.split()[0] for line in listing.splitlines() if line.startswith("    ") and line[4] != " "]
        assert listed == list(names), args


def test_an_internal_error_is_not_the_users_fault(monkeypatch):
    """A bug gets exit code 70 and one line; the traceback only with --debug or PATIENCE_DEBUG."""
    import solver.service.solving

    def broken(*args, **kwargs):
        raise ValueError("a plain ValueError inside the solver")

    monkeypatch.setattr(solver.service.solving, "solve_from", broken)
    result = run("solve", "accordion", "--seed", "1")
    assert result.exit_code == 70 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        (
            "patience: internal error: ValueError: a plain ValueError inside the solver "
            "(a bug: please report it; rerun with --debug or PATIENCE_DEBUG=1 for the traceback)"
        )
    ]
    debug = run("--debug", "solve", "accordion", "--seed", "1")
    assert debug.exit_code == 70 and "Traceback" in debug.stderr and "in broken" in debug.stderr
    monkeypatch.setenv("PATIENCE_DEBUG", "1")
    assert "Traceback" in run("solve", "accordion", "--seed", "1").stderr


def test_a_deal_file_is_answered_line_by_line_and_bad_lines_named(tmp_path):
    """A bad line gets its own error line with its number; the others are answered; exit code 3.
    Byte-order mark and CRLF line ends are read as any editor writes them."""
    deals = tmp_path / "deals.txt"
    second = format_cards(seeded_deal(2))
    deals.write_bytes(f"\ufeff{PYSOL_DEAL_1}\r\nAS 2S XX\r\n# a comment\r\n{second}\r\n".encode())
    result = run("solve", "accordion", "--file", str(deals), "--json")
    assert result.exit_code == 3
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(record["line"], record.get("deal")) for record in records] == [(1, PYSOL_DEAL_1), (2, None), (4, second)]
    assert records[1] == {"line": 2, "error": "unknown card(s): XX (ranks A 2-9 T J Q K, suits C D H S)"}
    assert result.stderr.splitlines() == [
        f"patience: error: deal file {deals} line 2: unknown card(s): XX (ranks A 2-9 T J Q K, suits C D H S)"
    ]


@pytest.mark.parametrize("game", ["royal-marriage", "queen-and-her-lad", "nizhni-novgorod"])
def test_a_misplaced_end_card_is_named_when_its_line_is_read(tmp_path, game):
    good = run("deal", game, "--seed", "1").stdout.strip()
    cards = good.split()
    bad = (
        " ".join([cards[1], cards[0], *cards[2:]])
        if game != "nizhni-novgorod"
        else " ".join(cards[:-2] + cards[-1:] + cards[-2:-1])
    )
    deals = tmp_path / "deals.txt"
    deals.write_text(f"{bad}\n{good}\n")
    result = run("solve", game, "--file", str(deals), "--json", "--max-nodes", "50")
    error, record = map(json.loads, result.stdout.splitlines())
    assert result.exit_code == 3 and record["deal"] == good and error["line"] == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"patience: error: deal file {deals} line 1: ") and "card" in line
    one_error_line(run("solve", game, "--deal", bad), "the")


def test_an_endless_deal_file_is_answered_as_it_comes():
    """Deals arrive on standard input one at a time: the first is answered before the last is
    written (the file is not read whole first)."""
    process = subprocess.Popen(
        PATIENCE + ["solve", "accordion", "--file", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(PYSOL_DEAL_1 + "\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["deal"] == PYSOL_DEAL_1
    process.stdin.write(format_cards(seeded_deal(2)) + "\n")
    process.stdin.close()
    assert json.loads(process.stdout.readline())["seed"] is None
    assert process.wait(timeout=60) == 0


def test_files_that_are_not_text_are_refused_in_one_line(tmp_path):
    one_error_line(run("solve", "accordion", "--file", "/dev/zero"), "/dev/zero", "line 1")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("AS \xe9".encode("latin-1"))
    one_error_line(run("solve", "accordion", "--file", str(latin)), "not UTF-8")
    one_error_line(run("solve", "accordion", "--file", str(tmp_path)), "cannot read deal file")
    one_error_line(run("solve", "accordion", "--file", str(tmp_path / "missing.txt")), "No such file")
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n")
    one_error_line(run("solve", "accordion", "--file", str(empty)), "holds no deal")


def test_standard_input_for_deal_and_solution():
    result = run("solve", "accordion", "--deal", "-", "--json", stdin="\ufeff" + PYSOL_DEAL_1 + "\r\n")
    record = result.stdout
    assert result.exit_code == 0 and json.loads(record)["deal"] == PYSOL_DEAL_1
    verified = run("verify", "accordion", "--deal", PYSOL_DEAL_1, "--solution", "-", stdin=record)
    assert verified.exit_code == 0 and "the game is won" in verified.stdout
    one_error_line(run("verify", "accordion", "--deal", "-", "--solution", "-", stdin=record), "standard input")


@pytest.mark.parametrize(
    "game, args",
    [
        ("accordion", ()),
        ("accordion", ("--show",)),
        ("accordion", ("--max-nodes", "100", "--show")),
        ("baroness", ()),
        ("amazons", ("--fewest-redeals", "--max-nodes", "20000")),
        ("amazons-pysol", ("--fewest-redeals",)),
        ("thirteens", ()),
    ],
)
def test_verify_reads_what_solve_prints(tmp_path, game, args):
    printed = run("solve", game, "--seed", "3", *args)
    path = tmp_path / "moves.txt"
    path.write_bytes(printed.stdout.replace("\n", "\r\n").encode())
    result = run("verify", game, "--seed", "3", "--solution", str(path))
    assert result.exit_code == 0 and result.stdout.startswith("valid: all "), result.output
    record = run("solve", game, "--seed", "3", "--json", *[a for a in args if a != "--show"]).stdout
    path.write_text(json.dumps(json.loads(record), indent=2))
    assert run("verify", game, "--seed", "3", "--solution", str(path)).exit_code == 0
    path.write_text(printed.stdout.replace("result: ", "result: un", 1) if "result: won" in printed.stdout else "")
    assert run("verify", game, "--seed", "3", "--solution", str(path)).exit_code in (1, 2)


def test_the_printout_names_the_rules_it_was_solved_under_and_verify_holds_it_to_them(tmp_path):
    """Parlett's deal 7 is lost; solved with compulsory=no it is won, and the printout must say so."""
    path = tmp_path / "moves.txt"
    solved = run("solve", "parlett", "--option", "compulsory=no", "--seed", "7", "--html", str(tmp_path / "p.html"))
    assert solved.stdout.startswith("accordion (parlett; compulsory=no), seed 7\n"), solved.stdout
    assert "<title>accordion (parlett; compulsory=no): won</title>" in (tmp_path / "p.html").read_text()
    path.write_text(solved.stdout)
    one_error_line(
        run("verify", "parlett", "--seed", "7", "--solution", str(path)),
        "the record was solved with compulsory=no, this verification has compulsory=yes: give --variant",
    )
    assert run("verify", "parlett", "--option", "compulsory=no", "--seed", "7", "--solution", str(path)).exit_code == 0
    path.write_text(solved.stdout.replace("compulsory=no", "compulsory=maybe", 1))
    one_error_line(run("verify", "parlett", "--seed", "7", "--solution", str(path)), "does not take 'maybe'")
    printed = run("solve", "accordion", "--option", "compulsory=yes", "--option", "nearest=no", "--seed", "7").stdout
    assert printed.startswith("accordion (accordion; compulsory=yes), seed 7\n"), printed


def test_solve_never_writes_its_page_over_the_deal_it_reads(tmp_path):
    """``--deal -`` read from a file: --html naming that file (or a link to it, or /dev/stdin) is
    refused before anything is written; a directory is named as one."""
    deal = tmp_path / "d7.txt"
    deal.write_text(format_cards(seeded_deal(7)) + "\n")
    (tmp_path / "link").symlink_to(deal)
    before = snapshot(tmp_path)
    for target in (deal, tmp_path / "link", Path("/dev/stdin")):
        with deal.open() as given:
            done = subprocess.run(
                [*PATIENCE, "solve", "accordion", "--deal", "-", "--html", str(target)],
                stdin=given,
                capture_output=True,
                text=True,
                check=False,
            )
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert (
            done.stderr
            == f"patience: error: --html {target} would overwrite the deal it reads from standard input: give another file name\n"
        )
    assert snapshot(tmp_path) == before
    one_error_line(
        run("solve", "accordion", "--seed", "7", "--html", str(tmp_path)),
        f"--html {tmp_path} is a directory: give a file name",
    )


@pytest.mark.parametrize(
    "solution, where",
    [
        (lambda: format_cards(seeded_deal(7)), "line 1"),  # what 'deal' prints, given as the solution
        (lambda: api.solve("accordion", seed=7).to_html(), "line 1"),  # the replay page
        (lambda: "# the first move\n\n9D \u2192 3D (leap)\n", "line 3"),
        (lambda: run("solve", "accordion", "--seed", "7").stdout.replace("9D -> 3D (leap)", "9D => 3D"), "line 7"),
        (lambda: _record().replace("9D -> 3D (leap)", "9D => 3D"), "the record's move 1"),
        (lambda: "9D -> 3D (leap)\nZZ -> 3D\n", "line 2"),
    ],
)
def test_verify_calls_a_line_that_is_no_move_at_all_bad_input(tmp_path, solution, where):
    path = tmp_path / "moves.txt"
    path.write_text(solution())
    result = run("verify", "accordion", "--seed", "7", "--solution", str(path))
    one_error_line(result, f"solution file {path}, {where}: " if "record" in where else f"{path} {where}: ")
    assert "write e.g. '4D -> 4S (leap)'" in result.stderr or "ranks are A 2-9 T J Q K" in result.stderr


@pytest.mark.parametrize(
    "claim, code, words",
    [
        ("no", 1, "the record claims sheinwold false, but its moves reach piles 1"),
        ("maybe", 2, "end it with '; sheinwold win (5 or fewer): yes' or no"),
        ("yes; and more", 2, "is not one 'solve' prints"),
    ],
)
def test_verify_holds_the_printouts_sheinwold_line_to_the_moves(tmp_path, claim, code, words):
    printed = run("solve", "accordion", "--seed", "7").stdout
    assert "piles (minimum): 1; sheinwold win (5 or fewer): yes\n" in printed
    path = tmp_path / "moves.txt"
    path.write_text(printed.replace("(5 or fewer): yes", f"(5 or fewer): {claim}"))
    result = run("verify", "accordion", "--seed", "7", "--solution", str(path))
    assert result.exit_code == code and words in result.stderr and len(result.stderr.splitlines()) == 1, result.output


def _record(**changes):
    record = json.loads(run("solve", "accordion", "--seed", "7", "--json").stdout)
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize(
    "changes, code, words",
    [
        ({"result": "lost"}, 1, "claims lost, but holds a solution"),
        ({"result": "lost", "solution": None, "best_line": "WIN"}, 1, "claims lost, but its moves win"),
        ({"min_piles": "1"}, 2, 'min_piles is "1" (a string); it must be a whole number or null'),
        ({"min_piles": 2}, 1, "claims piles 2, but its moves reach 1"),
        ({"sheinwold": False}, 1, "claims sheinwold false"),
        ({"score_proven": False}, 1, "score_proven false"),
        ({"limit": "max_nodes"}, 1, "names the limit max_nodes"),
        ({"options": {"compulsory": True}}, 2, "compulsory=yes, this verification has compulsory=no: give --variant"),
        ({"seed": 8}, 2, "seed is 8"),
        ({"variant": "nonesuch"}, 2, "unknown variant"),
        ({"colour": "red"}, 2, "'colour' is not one"),
        ({"redeals": 0}, 1, "only a won deal of a game with a stock has redeals"),
        ({"result": "maybe"}, 2, "must be won, lost or unknown"),
    ],
)
def test_verify_holds_every_claim_of_a_record(tmp_path, changes, code, words):
    if changes.get("best_line") == "WIN":
        changes["best_line"] = json.loads(_record())["solution"]
    path = tmp_path / "record.json"
    path.write_text(_record(**changes))
    result = run("verify", "accordion", "--seed", "7", "--solution", str(path))
    assert result.exit_code == code and words in result.stderr, result.output
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "holds no moves"),
        ("# only a comment\n\n", "holds no moves"),
        ('{"result": "won"}\n{"result": "won"}\n', "holds 2 JSON records"),
        ("[1, 2]", "a --json record is a JSON object"),
        ('{"result": "won",', "moves.txt as a JSON record: not valid JSON"),
        ("[" * 100000 + "]" * 100000, "moves.txt as a JSON record: its values nest too deeply"),
        ('{"seed": ' + "9" * 5000 + "}", "moves.txt as a JSON record: a number in it has more than 4300 digits"),
    ],
)
def test_verify_refuses_what_holds_no_one_solution(tmp_path, text, words):
    path = tmp_path / "moves.txt"
    path.write_text(text)
    one_error_line(run("verify", "accordion", "--seed", "7", "--solution", str(path)), words)


def test_verify_refuses_the_printout_of_several_deals(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"{PYSOL_DEAL_1}\n{format_cards(seeded_deal(2))}\n")
    path = tmp_path / "moves.txt"
    path.write_text(run("solve", "accordion", "--file", str(deals)).stdout)
    one_error_line(run("verify", "accordion", "--deal", PYSOL_DEAL_1, "--solution", str(path)), "lines of 2 deals")


def test_verdict_code_tells_won_lost_and_unknown_apart():
    assert run("solve", "accordion", "--seed", "7", "--verdict-code").exit_code == 0
    assert run("solve", "baroness", "--seed", "3", "--verdict-code").exit_code == 4
    assert run("solve", "accordion", "--seed", "7", "--verdict-code", "--max-nodes", "5").exit_code == 5
    assert run("solve", "baroness", "--seed", "3").exit_code == 0


def test_a_closed_pipe_ends_quietly(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("\n".join(format_cards(seeded_deal(seed)) for seed in range(1, 200)))
    process = subprocess.Popen(
        PATIENCE + ["solve", "accordion", "--file", str(deals)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    assert process.wait(timeout=60) == 141 and process.stderr.read() == b""


# Slow (25 interpreter starts, ~9 s) and kept so: each random moment is a chance at a start-up window.
@pytest.mark.one_engine  # start-up is the same whatever then searches (Ctrl-C at work: test_cli, both engines)
def test_ctrl_c_at_any_moment_of_start_up_is_one_line():
    """SIGINT sent within the first 0.2 s (while the command line is importing): one line and exit
    code 130, never a traceback from the program. A signal that lands before its first line runs
    is Python's to handle: it ends the process by the signal (the shell shows 130), printing
    nothing or, once its own handler is set, KeyboardInterrupt from the launcher's line 1 or from
    the import of the entry module itself (its packages' files being found and read).

    Run as an installed package starts (its modules on the path), not through site's .pth hooks:
    an editable install's hook imports for tens of milliseconds before any line of ours runs."""
    paths = [str(Path(__file__).parents[1]), *site.getsitepackages()]
    command = [
        sys.executable,
        "-S",
        "-c",
        "from solver.cli.entry import main; main()",
        "solve",
        "accordion",
        "--seed",
        "7",
    ]
    rng = random.Random(13)
    endings = []
    # The first 0.2 s as the issue asks, then later moments so that the handler's own line is
    # seen however slowly a loaded machine starts the interpreter.
    for delay in [rng.uniform(0, 0.2) for _ in range(16)] + [rng.uniform(0.2, 1.5) for _ in range(8)]:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths)),
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=60)
        endings.append(process.returncode)
        if process.returncode == -signal.SIGINT:  # Python's: before the handler was set
            assert errors == "" or errors.endswith("\nKeyboardInterrupt\n") and " in main" not in errors
        elif process.returncode == 1 and errors.startswith("Fatal Python error: init_"):
            # Python's too, in its own initialisation (seen on a loaded machine: "init_sys_streams:
            # can't initialize sys standard streams", KeyboardInterrupt in importing io)
            assert errors.endswith("\nKeyboardInterrupt\n") and "solver" not in errors
        elif process.returncode == 130:
            assert errors == INTERRUPTED + "\n"
        else:
            assert process.returncode == 0 and errors == ""  # it had already finished
    # And once it runs, whatever the load: a command that has answered a deal and waits for the
    # next on its standard input (left open) cannot have finished first.
    process = subprocess.Popen(
        [*command[:4], "solve", "accordion", "--file", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(PYSOL_DEAL_1 + "\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["deal"] == PYSOL_DEAL_1
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    endings.append(process.returncode)
    assert (process.returncode, errors) == (130, INTERRUPTED + "\n")
    assert endings.count(130) >= 1, endings


def test_the_console_script_imports_no_parser_before_the_signal_handler():
    """The entry point's package imports nothing heavy, so Ctrl-C is ours from the first moment."""
    code = "import sys, solver.cli.entry; print('argparse' in sys.modules, 'rulesets' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ), check=True
    )
    assert output.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    "line, words",
    [
        ("patience so", ["solve"]),
        ("patience solve parl", ["parlett"]),
        ("patience deal accordion --se", ["--seed"]),
        ("patience solve baroness --variant ", ["baroness", "baroness-classic", "baroness-pysol"]),  # its own only
        ("patience solve parlett --variant i", ["idle-year"]),
        ("patience solve parlett --option ord", ["order=choice", "order=leftmost"]),  # the game's options
        ("patience hint Amazons -o gather=r", ["gather=right-to-left"]),  # and their values
        ("patience solve thirteens --option ", []),  # Thirteens has none
        ("patience survey baroness --out s.sqlite --option pi", ["piles=5", "piles=6", "piles=7"]),
    ],
)
def test_the_shell_completes_commands_games_and_flags(tmp_path, line, words):
    """Completion as argcomplete's shell code asks for it: the line and the cursor in the
    environment, the words written to the file it names (in the shell, fd 8), then exit 0."""
    answer = tmp_path / "words"
    environment = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
    }
    done = subprocess.run(PATIENCE, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert answer.read_text().split() == words  # (words end in a space, separated by \v)


def test_ctrl_c_landing_in_a_weakref_callback_is_delivered_again():
    """Python drops an exception raised in a weakref callback (as the import machinery's are),
    printing "Exception ignored": a Ctrl-C landing there was lost and the command ran on. The
    entry point delivers it again a moment later, in ordinary code, with nothing on stderr."""
    code = (
        "import time, weakref\n"
        "import solver.cli.entry as entry\n"
        "class Held: pass\n"
        "def callback(_): raise KeyboardInterrupt\n"
        "held = Held(); ref = weakref.ref(held, callback); entry._running = True\n"
        "try:\n"
        "    del held\n"
        "    time.sleep(1)\n"
        "    print('ran on')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False, preexec_fn=interruptible
    )
    assert (ran.stdout, ran.stderr) == ("interrupted\n", "")
