"""Hints (`patience hint`): each move's verdict and score equal solving the position after it,
and from a lost position every move is lost and the best keeps the position's minimum."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families
from solver.result import Limits
from solver.service.hinting import hints
from solver.service.setup import Setup
from solver.service.solving import solve, solve_from

VARIANTS = [variant.name for family in families().values() for variant in family.variants]
LIMITS = Limits(max_nodes=20_000)


def late_position(setup: Setup, seed: int, back: int) -> object:
    """The position ``back`` moves before the end of the best line of PySolFC deal ``seed``."""
    outcome = solve(setup, setup.deal(seed=seed), LIMITS, seed=seed)
    state = outcome.start
    line = outcome.result.best_line
    for move in line[: max(0, len(line) - back)]:
        state = setup.game.apply(state, move)
    return state


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(1, 5000), back=st.integers(1, 12))
def test_each_hint_is_what_solving_after_that_move_says(variant: str, seed: int, back: int) -> None:
    setup = Setup.of(variant)
    state = late_position(setup, seed, back)
    found = hints(setup, state, LIMITS)
    # every legal move, not only those the search tries (see Setup.legal)
    assert sorted(h.move for h in found) == sorted(setup.game.describe_move(state, m) for m in setup.legal.moves(state))
    for hint in found:
        after = setup.game.apply(state, setup.game.parse_move(state, hint.move))
        alone = solve_from(setup, after, LIMITS)
        if hint.result != "unknown" and alone.result.limit is None:
            assert (hint.result, hint.score) == (alone.result.verdict.value, alone.score())
    whole = solve_from(setup, state, LIMITS)
    if whole.result.verdict.value == "lost" and found:
        assert all(h.result == "lost" for h in found)
        assert found[0].score == whole.score()
    if whole.result.verdict.value == "won" and found:
        assert found[0].result == "won"


def test_moves_to_layouts_of_one_key_each_get_a_line_that_plays_from_there() -> None:
    """Baroness keys cards by rank, so `discard 6C+7D` and `discard 6H+7D` leave layouts of one
    key; the line found after one names a six the other has not (found by the test above)."""
    setup = Setup.of("baroness-classic")
    state = setup.position(
        "piles: 9H 3C 4C QS / 6C / 8S 3S 5S 9D TS / JD 4S 7D / 4D AD 2H 6D TH 9C | grace: 7C 6H 7H | stock: -"
    )
    found = hints(setup, state, LIMITS)
    assert len(found) == 6
    for hint in found:
        after = setup.game.apply(state, setup.game.parse_move(state, hint.move))
        for text in hint.line:
            after = setup.game.apply(after, setup.game.parse_move(after, text))
        assert (setup.game.score(after), setup.game.is_won(after)) == (hint.score, hint.result == "won")


def test_hint_command_lists_every_move_best_first_as_text_and_json() -> None:
    position = "row: 9D 4S 5D 6H 2D QS AD AH 2H AC 9S 5S"
    text = run_cli("hint", "accordion", "--position", position)
    assert text.exit_code == 0, text.output
    lines = [line for line in text.output.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert len(lines) == 4 and "won" in lines[0] and "lost" in lines[-1]
    record = json.loads(run_cli("hint", "accordion", "--position", position, "--json").output)
    assert record["position"] == position and [m["result"] for m in record["moves"]][:2] == ["won", "won"]
    assert record["moves"][0]["score"] == 1 and record["moves"][-1]["score"] == 3
    cut = json.loads(run_cli("hint", "accordion", "--seed", "1", "--max-nodes", "5", "--json").output)
    assert any(m["result"] == "unknown" and m["limit"] == "max_nodes" for m in cut["moves"])


def test_hint_names_the_options_it_was_asked_under() -> None:
    """The rules a hint was worked out under are never hidden: the header names the options set
    beyond the preset, as solve's does, and the JSON record carries them all."""
    position = "piles: - / - / - / - / - / - / KS | grace: - | stock: -"
    text = run_cli("hint", "baroness", "--option", "piles=7", "--position", position)
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[0] == "baroness (baroness; piles=7)"
    record = json.loads(run_cli("hint", "accordion", "--option", "compulsory=yes", "--seed", "7", "--json").output)
    assert record["options"] == {
        "compulsory": True,
        "nearest": False,
        "leap_only_without_slide": False,
        "order": "choice",
    }


@pytest.mark.parametrize(
    "position, line, end",
    [
        ("row: AS", "the game is won: no move is left (piles 1)", {"result": "won", "score": 1}),
        ("row: AS 2D", "no legal move: the game is over here (lost, piles 2)", {"result": "lost", "score": 2}),
    ],
)
def test_a_position_with_no_move_left_says_how_it_ended(position: str, line: str, end: dict) -> None:
    """With no move to list, the position's own end (won or lost, and its score) is what a player
    asks: the text and the JSON say it, and tell a won position from a dead end."""
    text = run_cli("hint", "accordion", "--position", position)
    assert text.exit_code == 0 and text.output.splitlines()[-1] == line, text.output
    record = json.loads(run_cli("hint", "accordion", "--position", position, "--json").output)
    assert record["moves"] == [] and record["end"] == end
    moving = json.loads(run_cli("hint", "accordion", "--position", "row: AS 2S", "--json").output)
    assert moving["end"] is None and len(moving["moves"]) == 1


def test_verify_names_a_hint_record_for_what_it_is(tmp_path: Path) -> None:
    record = tmp_path / "hint.json"
    record.write_text(run_cli("hint", "accordion", "--seed", "7", "--max-nodes", "50", "--json").output)
    ran = run_cli("verify", "accordion", "--seed", "7", "--solution", str(record))
    assert ran.exit_code == 2 and "'hint --json'" in ran.stderr, ran.output


@pytest.mark.parametrize(
    "game, position, legal",
    [
        (  # an available King: the search discards it first, but every discard is the player's to make
            "baroness",
            "piles: 6H 7C / KD / 5S / 8D 4C / QS | grace: AH 9D | stock: -",
            {"discard KD", "discard 4C+9D", "discard AH+QS"},
        ),
        (  # the stock out: the search moves only to the leftmost empty pile, but any empty one is legal
            "baroness-pysol",
            "piles: 6H 7C / - / 5S / 8D 4C / KS 3C | grace: TD 9D | stock: -",
            {"discard 4C+9D", "discard 3C+TD"} | {f"move {c} to pile 2" for c in ("7C", "5S", "4C", "3C", "9D", "TD")},
        ),
        (  # both orders of a pair refill other places: both are legal
            "thirteens",
            "places: KD / 6H / 7C / 5S / 8D / AH / QS / 9D / 4C / TS | stock: 3H",
            {"discard KD"}
            | {
                f"discard {a}+{b}"
                for p in ("6H 7C", "5S 8D", "AH QS", "9D 4C")
                for a, b in (p.split(), p.split()[::-1])
            },
        ),
    ],
)
def test_hint_lists_and_verify_takes_every_legal_move_not_only_those_the_search_tries(
    game: str, position: str, legal: set[str], tmp_path: Path
) -> None:
    """The search's sound reductions (a King first, one target pile, one order of a pair) prune
    what it tries, never what a player may do: hint lists every legal move, verify takes each."""
    record = json.loads(run_cli("hint", game, "--position", position, "--json").output)
    assert {hint["move"] for hint in record["moves"]} == legal
    for move in legal:
        (tmp_path / "move.txt").write_text(move + "\n")
        ran = run_cli("verify", game, "--position", position, "--solution", str(tmp_path / "move.txt"))
        assert ran.exit_code == 0, (move, ran.output)
