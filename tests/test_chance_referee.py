"""The exact chance held to its referee, the expectimax that walks every move and every outcome
(tests/brute/expectimax.py): on small decks, Baroness endgames and Parlett positions with a few
cards face down, the position's chance and every move's are the referee's to 1e-12, on both
engines, and the small decks' equal the brute force over sets of orders (tests/brute/chance.py)."""

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import engine as engines
from solver.chance import Concealed, conceal
from solver.result import Limits
from solver.service.setup import Setup
from tests.brute.chance import chance as brute_chance
from tests.brute.chance import states as brute_states
from tests.brute.expectimax import best_chance as referee
from tests.test_chance import baroness_endgame, dealt_accordion

UNLIMITED = Limits(max_memory=2**30)


def held_to_the_referee(setup: Setup, position: Concealed) -> float:
    """The chance and each move's on the engine in use, against the referee's; the chance."""
    found = engines.best_chance(setup.legal, setup.game, position, UNLIMITED, with_moves=True)
    moves = tuple(move for move, _ in found.moves)
    chance, each = referee(setup.legal, position, engines.decider(setup.game), moves)
    assert found.limit is None and found.chance == pytest.approx(chance, abs=1e-12)
    assert [worth for _, worth in found.moves] == pytest.approx(list(each), abs=1e-12)
    alone = engines.best_chance(setup.legal, setup.game, position, UNLIMITED)
    assert alone.chance == pytest.approx(chance, abs=1e-12)
    return chance


@settings(max_examples=15)
@given(
    variant=st.sampled_from(["parlett", "idle-year", "self-working"]),
    seed=st.integers(0, 10**6),
    hidden=st.integers(2, 6),
)
def test_a_small_accordion_is_the_referees_and_the_brute_forces(variant: str, seed: int, hidden: int) -> None:
    setup, position = dealt_accordion(variant, seed, hidden)
    chance = held_to_the_referee(setup, position)
    together = brute_states(setup.legal, position.state, hidden)
    assert chance == pytest.approx(float(brute_chance(setup.legal, together)), abs=1e-12)


@pytest.mark.parametrize("variant", ["baroness", "baroness-classic"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_baroness_endgame_is_the_referees(variant: str, seed: int) -> None:
    held_to_the_referee(*baroness_endgame(seed, variant))


def parlett_midgame(seed: int, hidden: int) -> tuple[Setup, Any]:
    """PySolFC's Parlett deal ``seed`` played at random to 13 cards left in the stock, the last
    ``hidden`` of them face down."""
    setup = Setup.of("parlett")
    game, chooser = setup.legal, random.Random(seed)
    state = game.start(setup.deal(seed=seed))
    while len(state.stock) > 13 and game.moves(state):
        state = game.apply(state, chooser.choice(list(game.moves(state))))
    return setup, conceal(game, state, hidden)


@pytest.mark.parametrize(("seed", "hidden"), [(221, 4), (395, 4), (7, 5), (12, 4), (30, 4)])
def test_a_parlett_position_with_few_cards_face_down_is_the_referees(seed: int, hidden: int) -> None:
    """Deals 221 and 395 are where a pruned walk, its bounds compared to the last bit, once
    took a bound for a chance (with six cards face down; four here, to be quick)."""
    held_to_the_referee(*parlett_midgame(seed, hidden))
