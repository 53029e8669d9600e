"""What a game's record says reads back (issue 39, items 7 and 8): every move ``play``, ``solver.Game``
and ``solve`` write is read by all three (a deal names every card it takes from the stock, next
first: one notation, read by :mod:`rulesets.dealt`), and ``verify`` holds a ``play --json``
record to all it says, the player's own moves included."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run_cli

import solver
from rulesets.concealed import presets_with_stock, write_concealed
from rulesets.dealt import read_move
from rulesets.notation import is_deal
from solver.chance import conceal
from solver.service.playing import dealt, make_player, play
from solver.service.setup import Setup

#: Thirteens refills its places from the stock by a discard, which names none of the cards it
#: takes: from a position with cards face down, solver.Game takes them in ``drawn=[...]``.
NAMED_BY_DEALS = [preset for preset in presets_with_stock() if preset != "thirteens"]


def verified(preset: str, where: tuple[str, str], moves: list[str], tmp_path: Any) -> str:
    """What ``patience verify`` says of ``moves`` from ``where`` (``--seed N`` or ``--position P``)."""
    path = tmp_path / "moves.txt"
    path.write_text("\n".join(moves) + "\n")
    ran = run_cli("verify", preset, *where, "--solution", str(path))
    assert ran.exit_code == 0, ran.output
    return ran.stdout


def midway(setup: Setup, start: Any, moves: tuple[str, ...]) -> tuple[Any, int]:
    """The true state before the first of ``moves`` that finds three cards or more in the stock
    with a deal still to come, and how many moves led there."""
    rules: Any = setup.legal
    state = start
    for at, text in enumerate(moves):
        if len(rules.stock(state)) >= 3 and any(is_deal(later) for later in moves[at:]):
            return state, at
        state = rules.apply(state, read_move(rules, state, text))
    raise AssertionError("no deal left with three cards in the stock")


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", presets_with_stock())
def test_a_played_game_reads_back_through_game_and_verify(preset: str, tmp_path: Any) -> None:
    """``play``'s moves of a deal replay in ``solver.Game`` from the same deal, and the moves the
    Game writes back replay there again and through ``verify``."""
    setup = Setup.of(preset)
    played = play(setup, dealt(setup, setup.deal(seed=1), 1), make_player("random"))
    game = solver.Game(preset, seed=1)
    game.replay(played.moves)
    again = solver.Game(preset, seed=1)
    again.replay([str(move) for move in game.moves])
    assert again.position == game.position and again.is_won() == played.won
    said = verified(preset, ("--seed", "1"), [str(move) for move in game.moves], tmp_path)
    assert said == verified(preset, ("--seed", "1"), list(played.moves), tmp_path)
    solved = solver.solve(preset, seed=1, max_nodes=2_000)  # solve's line, won or the best found
    line = solved.solution or solved.best_line
    assert line and len(solver.Game(preset, seed=1).replay(line)) == len(line)
    verified(preset, ("--seed", "1"), list(line), tmp_path)


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", NAMED_BY_DEALS)
def test_a_game_from_a_face_down_position_writes_its_deals_as_play_does(preset: str, tmp_path: Any) -> None:
    """From a position whose stock's first two cards are known and the rest face down, the moves
    ``play`` wrote (a deal naming every card it took, known or turned up) replay in a Game; the
    moves that Game writes replay in another, and both lines verify from the position written
    with every card known, reaching the same end."""
    setup = Setup.of(preset)
    rules: Any = setup.legal
    start = setup.legal.start(setup.deal(seed=1))
    played = play(setup, dealt(setup, setup.deal(seed=1), 1), make_player("random"))
    state, at = midway(setup, start, played.moves)
    hidden = len(rules.stock(state)) - 2
    braced = write_concealed(rules, conceal(rules, state, hidden))
    rest = list(played.moves[at:])
    game = solver.Game(preset, position=braced)
    game.replay(rest)
    written = [str(move) for move in game.moves]
    again = solver.Game(preset, position=braced)
    again.replay(written)
    assert again.position == game.position
    plain = ("--position", rules.write_position(state))
    assert verified(preset, plain, written, tmp_path) == verified(preset, plain, rest, tmp_path)
    deals = [text for text in written if text.split()[0] == "deal" and len(text.split()) > 2]
    assert deals or preset in ("idle-year", "parlett", "self-working", "nizhni-novgorod")  # one card a deal
