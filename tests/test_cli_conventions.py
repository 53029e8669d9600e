"""The command line's conventions, as users of python-chess, PySolFC and fc-solve expect them:
names in any case with 'did you mean', ranges of seeds, numbered deals of a file, one verdict a
line of verify can have and an exit code for it, help an installed user can follow, and output
that fits an 80-column terminal (but the pasteable deal and position lines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli as run

from rulesets import DECLARED, families
from solver.cli.application import COMMANDS

PRESETS = [variant.name for family in families().values() for variant in family.variants]
#: Lines kept whole however long, to be pasted back: a deal, a position.
PASTEABLE = ("deal: ", "position: ", "as seen: ")


def _fits(text: str) -> list[str]:
    """The lines of ``text`` wider than 80 columns, but the pasteable ones."""
    return [line for line in text.splitlines() if len(line) > 80 and not line.strip().startswith(PASTEABLE)]


# --- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["Accordion", "PARLETT", "Royal_Marriage", " baroness-PySol "])
def test_names_are_read_whatever_their_case(written: str) -> None:
    result = run("deal", written, "--seed", "1")
    assert (
        result.exit_code == 0
        and result.stdout == run("deal", written.strip().lower().replace("_", "-"), "--seed", "1").stdout
    )


@pytest.mark.parametrize(
    "args, hint",
    [
        (("solve", "acordion", "--seed", "1"), "unknown game 'acordion' (did you mean 'accordion'?)"),
        (("solve", "accordion", "--variant", "Parlet", "--seed", "1"), "(did you mean 'parlett'?)"),
        (
            ("solve", "baroness", "--option", "pile=6", "--seed", "1"),
            "unknown option 'pile' of baroness (did you mean 'piles'?)",
        ),
        (("survey", "parlett", "--seed", "1-3", "--out", "x.sqlite"), "--seed 1-3 (did you mean --seeds?)"),
        (("solv", "accordion"), "unknown command 'solv' (did you mean 'solve'?)"),
    ],
)
def test_a_near_miss_is_named_with_what_was_meant(args: tuple[str, ...], hint: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and hint in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr


# --- seeds and deal files ------------------------------------------------------------------------


def test_solve_takes_a_range_of_seeds_as_survey_does() -> None:
    ranged = run("solve", "thirteens", "--seeds", "3-5,9", "--json")
    records = [json.loads(line) for line in ranged.stdout.splitlines()]
    assert ranged.exit_code == 0 and [r["seed"] for r in records] == [3, 4, 5, 9]
    one = json.loads(run("solve", "thirteens", "--seed", "4", "--json").stdout)
    assert {**records[1], "seconds": 0} == {**one, "seconds": 0}
    text = run("solve", "thirteens", "--seeds", "1-2").stdout
    assert "thirteens (thirteens), seed 1\n" in text and "\n\nthirteens (thirteens), seed 2\n" in text
    assert run("solve", "thirteens", "--seeds", "2-1").exit_code == 2


def test_a_deal_files_text_output_names_each_deals_line_and_verify_reads_it_back(tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    seven = run("deal", "accordion", "--seed", "7").stdout
    deals.write_text(f"# two deals\n{run('deal', 'accordion', '--seed', '1').stdout}AS AS\n{seven}")
    result = run("solve", "accordion", "--file", str(deals))
    assert result.exit_code == 3
    headers = [line for line in result.stdout.splitlines() if line.startswith("accordion (")]
    assert headers == ["accordion (accordion), line 2", "accordion (accordion), line 4"]
    part = tmp_path / "line4.txt"
    part.write_text(result.stdout[result.stdout.index("accordion (accordion), line 4") :])
    checked = run("verify", "accordion", "--deal", seven.strip(), "--solution", str(part))
    assert checked.exit_code == 0 and checked.stdout.startswith("valid: all 51 moves legal; the game is won")


def test_with_json_a_bad_line_is_a_record_in_its_place(tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("AS 2S\n" + run("deal", "thirteens", "--seed", "2").stdout)
    result = run("solve", "thirteens", "--file", str(deals), "--json")
    bad, good = map(json.loads, result.stdout.splitlines())
    assert result.exit_code == 3 and set(bad) == {"line", "error"} and bad["line"] == 1 and good["line"] == 2
    assert bad["error"] in result.stderr  # and named on stderr as before


# --- verify --------------------------------------------------------------------------------------


def test_verify_says_a_broken_claim_once_as_a_failure(tmp_path: Path) -> None:
    record = json.loads(run("solve", "accordion", "--seed", "7", "--json").stdout)
    record["min_piles"] = 2
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    result = run("verify", "accordion", "--seed", "7", "--solution", str(tampered))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "invalid: the record claims piles 2, but its moves reach 1 (all 51 moves legal; the game is won)\n"
    )


def test_verify_verdict_code_tells_a_win_an_unwon_end_and_a_line_stopped_short(tmp_path: Path) -> None:
    won, lost = tmp_path / "won.txt", tmp_path / "lost.txt"
    won.write_text(run("solve", "accordion", "--seed", "7").stdout)
    lost.write_text(run("solve", "parlett", "--seed", "7").stdout)  # a loss: its line ends the game
    short = tmp_path / "short.txt"
    short.write_text("9D -> 3D (leap)\n")
    codes = [
        run("verify", game, "--seed", "7", "--solution", str(path), "--verdict-code").exit_code
        for game, path in (("accordion", won), ("parlett", lost), ("accordion", short))
    ]
    assert codes == [0, 4, 5]
    plain = run("verify", "accordion", "--seed", "7", "--solution", str(short))
    assert plain.exit_code == 0 and plain.stdout.startswith("valid: its 1 move legal; not won")


# --- help, describe and the games: what an installed user reads -----------------------------------


@pytest.mark.parametrize("command", [command.name for command in COMMANDS])
def test_the_help_points_to_nothing_an_installed_user_lacks(command: str) -> None:
    """No help text sends a user to docs/, which an installed package does not have."""
    shown = run(command, "--help")
    text = shown.stdout
    assert shown.exit_code == 0 and "docs/" not in text and ".md" not in text
    if command in ("solve", "hint", "verify"):
        assert "'patience describe GAME'" in " ".join(text.split())


def test_verify_help_says_its_file_holds_one_deal() -> None:
    text = " ".join(run("verify", "--help").stdout.split())
    file_help = text.split("-f FILE, --file FILE", 1)[1].split(" -p POSITION", 1)[0]
    assert "A file holding the one deal or position to verify" in file_help and "per line" not in file_help


@pytest.mark.parametrize("game", [game for games in DECLARED.values() for game in games])
def test_describe_fits_80_columns_and_its_example_is_a_real_position(game: str) -> None:
    from solver.service.setup import Setup

    text = run("describe", game).stdout
    assert _fits(text) == [], _fits(text)
    lines = text.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("Example: the opening of PySolFC deal 1")))
    position = lines[at + 2].removeprefix("  position: ")  # (the heading takes two lines)
    moves = " ".join(lines[at + 3 : lines.index("", at)]).removeprefix("  moves: ")
    moves = " ".join(moves.split())
    setup = Setup.of(game)
    state = setup.legal.read_position(position)
    assert state == setup.legal.start(setup.deal(seed=1))
    assert moves == ", ".join(setup.legal.describe_move(state, move) for move in setup.legal.moves(state))
    record = json.loads(run("describe", game, "--json").stdout)
    assert record["example"] == {"seed": 1, "position": position, "moves": moves.split(", ")}
    assert record["game"] == game and [v["name"] for v in record["variants"]] == list(DECLARED_VARIANTS[game])


DECLARED_VARIANTS = {game: variants for games in DECLARED.values() for game, variants in games.items()}


def test_games_fits_80_columns_and_has_a_json_form() -> None:
    text = run("games").stdout
    assert _fits(text) == [] and text.splitlines()[0].startswith("accordion ")
    listed = json.loads(run("games", "--json").stdout)
    assert [(g["game"], tuple(g["variants"])) for g in listed] == list(DECLARED_VARIANTS.items())


@pytest.mark.parametrize("preset", PRESETS)
def test_show_draws_every_table_within_80_columns(preset: str) -> None:
    result = run("solve", preset, "--seed", "5", "--show", "--max-nodes", "2000")
    assert result.exit_code == 0 and _fits(result.stdout) == [], _fits(result.stdout)
    pictures = [line for line in result.stdout.splitlines() if line.startswith("       ") and ": " in line]
    assert pictures, "no picture drawn"
