"""verify holds every claim a solution makes (issue 28): what it claims to start from, every field
of a --json record, every line of what ``solve`` printed. A claim the moves and the rules do not
bear out is exit code 1; a record or printout ``solve`` could not have written is bad input, exit
code 2, in one line naming what is wrong."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli as run

from solver.service.setup import Setup

#: verify replays moves through the rules, never searching: run on one engine only (the solves
#: that make the records to verify are the compiled engine's where it is built).
pytestmark = pytest.mark.one_engine


def record(*args: str, **changes) -> dict:
    """The --json record of ``solve accordion --seed 7`` (or of ``args``), with ``changes``."""
    found = json.loads(run("solve", *(args or ("accordion", "--seed", "7")), "--json").stdout)
    found.update(changes)
    return found


def verify(tmp_path, text: str, *args: str):
    path = tmp_path / "solution.txt"
    path.write_text(text)
    return run("verify", *(args or ("accordion", "--seed", "7")), "--solution", str(path))


def refused(result, code: int, *words: str) -> None:
    """The run ended with ``code`` and one stderr line holding ``words`` (no traceback)."""
    lines = result.stderr.splitlines()
    assert result.exit_code == code and len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_a_record_claiming_a_deal_is_held_to_it_when_verified_from_a_position(tmp_path):
    """Seed 7's record without its first move (and its position) verified from the position after
    that move: it still claims seed 7's deal, which does not start there."""
    claimed = record()
    first, *rest = claimed["solution"]
    setup = Setup.of("accordion")
    start = setup.game.start(setup.deal(seed=7))
    after = setup.legal.write_position(setup.legal.apply(start, setup.legal.parse_move(start, first)))
    cut = {k: v for k, v in claimed.items() if k != "position"} | {"solution": rest}
    refused(verify(tmp_path, json.dumps(cut), "accordion", "--position", after), 2, "seed 7", "does not start")
    no_seed = cut | {"seed": None}
    refused(verify(tmp_path, json.dumps(no_seed), "accordion", "--position", after), 2, "deal", "does not start")
    honest = {k: v for k, v in no_seed.items() if k != "deal"}
    assert verify(tmp_path, json.dumps(honest), "accordion", "--position", after).exit_code == 0
    eight = record(seed=8)
    refused(verify(tmp_path, json.dumps(eight), "accordion", "--position", claimed["position"]), 2, "seed is 8")


@pytest.mark.parametrize(
    "changes, code, words",
    [
        ({"best_line": ["9D -> 3D (leap)"]}, 1, ("claims won, but holds a best_line",)),
        ({"solution": []}, 2, ("holds no moves",)),
        ({"result": "lost", "solution": None, "best_line": []}, 2, ("holds no moves",)),
        ({"variant": "parlett"}, 2, ("variant parlett", "give --variant or --option")),
        (
            {"options": {"compulsory": 0, "nearest": False, "leap_only_without_slide": False, "order": "choice"}},
            2,
            ("compulsory is 0", "true or false"),
        ),
        (
            {"options": {"compulsory": False, "nearest": False, "leap_only_without_slide": False, "order": 7}},
            2,
            ("order is 7",),
        ),
        ({"nodes": -1}, 2, ("nodes is -1",)),
        ({"seconds": -0.5}, 2, ("seconds is -0.5",)),
        ({"peak_table_bytes": -4}, 2, ("peak_table_bytes is -4",)),
    ],
)
def test_every_field_of_a_record_is_held_to_the_moves_or_refused(tmp_path, changes, code, words):
    refused(verify(tmp_path, json.dumps(record(**changes))), code, *words)


def test_a_lost_record_claims_the_score_of_an_end(tmp_path):
    """A proven loss searched every line to its end: its best score is never 'no end reached'."""
    lost = record("parlett", "--seed", "7")
    assert lost["result"] == "lost" and lost["min_piles"] is not None
    cut = lost | {"best_line": lost["best_line"][:2], "min_piles": None, "sheinwold": False}
    refused(verify(tmp_path, json.dumps(cut), "parlett", "--seed", "7"), 1, "claims a loss", "no end of the game")


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"seed": 7, "seed": 8, "solution": ["9D -> 3D (leap)"]}', ("seed", "twice")),
        (
            '{"options": {"compulsory": false, "compulsory": true}, "solution": ["9D -> 3D (leap)"]}',
            ("compulsory", "twice"),
        ),
        ('{"seconds": NaN, "solution": ["9D -> 3D (leap)"]}', ("NaN",)),
        ('{"nodes": Infinity, "solution": ["9D -> 3D (leap)"]}', ("Infinity",)),
        ('{"seconds": 1e999, "solution": ["9D -> 3D (leap)"]}', ("1e999",)),
    ],
)
def test_a_record_solve_could_not_have_written_is_bad_input(tmp_path, text, words):
    refused(verify(tmp_path, text), 2, *words)


def _printout(*args: str) -> list[str]:
    return run("solve", *(args or ("accordion", "--seed", "7"))).stdout.splitlines()


def test_a_numbered_move_out_of_sequence_in_a_printout_is_named(tmp_path):
    lines = _printout()
    at = next(i for i, line in enumerate(lines) if line.startswith("  3. "))
    inserted = [*lines[: at + 1], "  7. 2S -> 2C (slide)", *lines[at + 1 :]]
    refused(verify(tmp_path, "\n".join(inserted)), 2, f"line {at + 2}", "7. 2S -> 2C (slide)")
    shown = _printout("accordion", "--seed", "7", "--show")
    at = next(i for i, line in enumerate(shown) if line.startswith("  2. "))
    stray = [*shown[: at + 1], "   not a picture", *shown[at + 1 :]]
    refused(verify(tmp_path, "\n".join(stray)), 2, f"line {at + 2}")
    assert verify(tmp_path, "\n".join(shown)).exit_code == 0


@pytest.mark.parametrize(
    "old, new, code, words",
    [
        ("solution (51 moves):", "line to the best score (51 moves):", 1, ("claims won, but has no solution",)),
        ("result: won", "result: won\nresult: won", 2, ("twice",)),
        ("piles (minimum): 1;", "piles (minimum): \u0661;", 2, ("is not one 'solve' prints",)),
        ("seed 7", "seed 7" + "0" * 5000, 2, ("seed",)),
        ("nodes: ", "nodes: lots and ", 2, ("is not one 'solve' prints",)),
    ],
)
def test_a_printout_is_held_to_its_every_line(tmp_path, old, new, code, words):
    printed = "\n".join(_printout())
    assert old in printed
    refused(verify(tmp_path, printed.replace(old, new, 1)), code, *words)


def test_a_printout_of_no_moves_is_refused(tmp_path):
    printed = run("solve", "accordion", "--position", "row: AS").stdout
    assert "solution (0 moves):" in printed
    refused(verify(tmp_path, printed, "accordion", "--position", "row: AS"), 2, "holds no moves")


# --- the record of a played game (play --json) ---------------------------------------------------------

#: Baroness deal 2 played by the careful player: lost, 28 cards left after 23 moves.
LOST = ("baroness", "--seed", "2", "--player", "careful")
#: Amazons (PySolFC's rules) deal 2 played by the sampling player: won.
WON = ("amazons-pysol", "--seed", "2", "--player", "sampling", "--samples", "5")


def played(args: tuple[str, ...], **changes) -> dict:
    """The --json record of ``play ARGS``, with ``changes``."""
    found = json.loads(run("play", *args, "--json").stdout)
    found.update(changes)
    return found


def verify_played(tmp_path, record: dict, args: tuple[str, ...] = LOST):
    return verify(tmp_path, json.dumps(record), *args[:3], "--verdict-code")


def test_the_record_of_a_played_game_verifies(tmp_path):
    """Its moves (deals naming the cards they turned up) replay to what it claims: exit code 4
    for a game lost, played to its end; 0 for a game won."""
    lost = played(LOST)
    assert (lost["won"], lost["score"], len(lost["moves"])) == (False, 28, 23)
    ran = verify_played(tmp_path, lost)
    assert (ran.exit_code, ran.stdout) == (4, "valid: all 23 moves legal; not won (cards left: 28)\n")
    assert verify(tmp_path, json.dumps(lost, indent=2), *LOST[:3]).exit_code == 0
    won = played(WON)
    assert won["won"] and verify_played(tmp_path, won, WON).exit_code == 0


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"won": True}, ("claims a win", "do not win")),
        ({"score": 27}, ("claims cards left 27", "reach 28")),
        ({"score": None}, ("claims cards left None", "reach 28")),
    ],
)
def test_the_record_of_a_played_game_is_held_to_its_claims(tmp_path, changes, words):
    refused(verify_played(tmp_path, played(LOST, **changes)), 1, "invalid: the record claims", *words)


def test_a_played_game_claims_its_win_and_its_end(tmp_path):
    """A game won claims so; a game lost was played to its end (cut short, moves are left)."""
    refused(verify_played(tmp_path, played(WON, won=False), WON), 1, "claims no win, but its moves win")
    lost = played(LOST)
    cut = lost | {"moves": lost["moves"][:-1]}
    refused(verify_played(tmp_path, cut), 1, "claims a game played to its end", "moves are left")


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"won": "no"}, ("won is", "true or false")),
        ({"score": -1}, ("score is -1", "0 or more")),
        ({"moves": []}, ("moves",)),
        ({"moves": [1, 2]}, ("moves is [1, 2]", "a list of moves")),
        ({"position": 7}, ("position is 7",)),
        ({"engine": "gpu"}, ("engine is 'gpu'",)),
        ({"player": "nobody"}, ("player is 'nobody'", "random, careful, sampling")),
        ({"settings": {"samples": 5}}, ("settings", "careful player takes none")),
        ({"player": "sampling", "settings": {"samples": 0, "rng_seed": 1}}, ("settings", "not 0")),
        ({"player": "random", "settings": {"rng_seed": True}}, ("settings", "rng_seed, each a whole number")),
        ({"seed": 3}, ("seed is 3",)),
        ({"result": "lost"}, ("field 'result'", "'play --json'")),  # a solve record's field
        ({"end": None}, ("field 'end'", "'play --json'")),  # a hint record's
    ],
)
def test_a_played_games_record_play_could_not_have_written_is_bad_input(tmp_path, changes, words):
    refused(verify_played(tmp_path, played(LOST, **changes)), 2, *words)


def test_a_solve_record_with_a_played_games_field_is_refused(tmp_path):
    """A record is a played game's only if it names its player: a solve record holding ``moves``
    or ``won`` is a solve record with a field solve does not write."""
    for field in ("moves", "won"):
        refused(verify(tmp_path, json.dumps(record(**{field: True}))), 2, f"field {field!r}", "'solve --json'")
