"""The exact chance held to its referee, the expectimax that walks every move and every outcome
(tests/brute/expectimax.py): on small decks, Baroness endgames and Parlett positions with a few
cards face down, the position's chance and every move's are the referee's to 1e-12, on both
engines, and the small decks' equal the brute force over sets of orders (tests/brute/chance.py).
The referee walks card by card: Baroness and Thirteens positions with up to twelve cards face
down hold the search by rank (solver.protocol.Classed) to it, and a position with its suits
renamed has the same chances."""

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.baroness import Baroness
from rulesets.cards import CARDS, RANK
from rulesets.moves import DEAL
from rulesets.thirteens import Thirteens
from solver.chance import IDENTITY, Concealed, class_outcomes, conceal, outcomes
from solver.engine import engine_of
from solver.result import Limits
from solver.service.setup import Setup
from tests.brute.chance import chance as brute_chance
from tests.brute.chance import states as brute_states
from tests.brute.expectimax import best_chance as referee
from tests.test_chance import baroness_endgame, dealt_accordion, played_until

UNLIMITED = Limits(max_memory=2**30)


def held_to_the_referee(setup: Setup, position: Concealed) -> float:
    """The chance and each move's on the engine in use, against the referee's; the chance."""
    return rules_held_to_the_referee(setup.legal, setup.game, position)


def rules_held_to_the_referee(legal: Any, searched: Any, position: Concealed) -> float:
    """:func:`held_to_the_referee` for rules not among the presets (a small deck's)."""
    found = engine_of(legal, searched).best_chance(position, limits=UNLIMITED, with_moves=True)
    moves = tuple(move for move, _ in found.moves)
    chance, each = referee(legal, position, engine_of(searched).decider(), moves)
    assert found.limit is None and found.chance == pytest.approx(chance, abs=1e-12)
    assert [worth for _, worth in found.moves] == pytest.approx(list(each), abs=1e-12)
    alone = engine_of(legal, searched).best_chance(position, limits=UNLIMITED)
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


# ----------------------------------------------------------------------------- by rank

#: Deals of each Baroness preset that, played at random, come to two deals from the end (12 cards
#: in the stock, or 13 in baroness-classic) with a chance strictly between 0 and 1 there: the
#: last 8 face down (the referee, card by card, takes about a second), the first known.
TWO_DEALS_LEFT = [("baroness", 12, 3), ("baroness", 12, 12), ("baroness", 12, 19)]
TWO_DEALS_LEFT += [("baroness-classic", 13, 6), ("baroness-classic", 13, 10), ("baroness-classic", 13, 35)]


@pytest.mark.parametrize(("variant", "stock", "seed"), TWO_DEALS_LEFT)
def test_a_baroness_position_two_deals_from_the_end_is_the_referees(variant: str, stock: int, seed: int) -> None:
    setup = Setup.of(variant)
    position = played_until(setup, seed, stock)
    assert len(setup.legal.stock(position.state)) == stock
    chance = held_to_the_referee(setup, conceal(setup.legal, position.state, 8))
    assert 0 < chance < 1


#: The ranks of a small deck of Thirteens (four suits each): 20 cards in pairs totalling 13 and Kings.
SMALL_THIRTEENS = (1, 2, 11, 12, 13)


def small_thirteens(seed: int, hidden: int) -> tuple[Thirteens, Thirteens, Concealed]:
    """Thirteens in four places on SMALL_THIRTEENS, played at random to ``hidden`` cards in
    the stock, those face down: the rules (every move), the searched rules, the position."""
    legal, searched = Thirteens(4, frozenset()), Thirteens(4)
    cards = [card for card in CARDS if RANK[card.code] in SMALL_THIRTEENS]
    chooser = random.Random(seed)
    chooser.shuffle(cards)
    state = legal.start(cards)
    while len(state.stock) > hidden and legal.moves(state):
        state = legal.apply(state, chooser.choice(list(legal.moves(state))))
    return legal, searched, conceal(legal, state, len(state.stock))


@pytest.mark.parametrize(("seed", "hidden"), [(2, 10), (3, 10), (4, 12)])
def test_a_small_thirteens_with_many_cards_face_down_is_the_referees(seed: int, hidden: int) -> None:
    legal, searched, position = small_thirteens(seed, hidden)
    assert position.hidden == hidden
    assert 0 < rules_held_to_the_referee(legal, searched, position) < 1


def suits_renamed(state: Any, suits: list[int]) -> Any:
    """A Baroness or Thirteens state with every card's suit renamed (suit ``s`` to ``suits[s]``),
    its grace cards kept sorted."""
    card = [suits[code // 13] * 13 + code % 13 for code in range(52)]
    fields: dict[str, Any] = {"stock": tuple(card[code] for code in state.stock)}
    fields["left"] = sum(1 << card[code] for code in range(52) if state.left >> code & 1)
    if hasattr(state, "piles"):
        fields["piles"] = tuple(tuple(card[code] for code in pile) for pile in state.piles)
        fields["grace"] = tuple(sorted(card[code] for code in state.grace))
    else:
        fields["places"] = tuple(None if code is None else card[code] for code in state.places)
    return state._replace(**fields)


@settings(max_examples=10, deadline=None)
@given(
    game=st.sampled_from(["baroness", "baroness-classic", "thirteens"]),
    seed=st.integers(1, 10**6),
    suits=st.permutations(range(4)),
)
def test_a_position_with_its_suits_renamed_has_the_same_chances(game: str, seed: int, suits: list[int]) -> None:
    """The rules look at ranks only: renaming the suits throughout (the face-down cards' too)
    changes no chance, the position's nor any move's (the moves renamed alike, in the same order)."""
    if game == "thirteens":
        legal, searched, position = small_thirteens(seed, 8)
    else:
        setup, position = baroness_endgame(seed, game)
        legal, searched = setup.legal, setup.game
    renamed = conceal(legal, suits_renamed(position.state, suits), position.hidden)
    assert sorted(unseen_ranks(legal, renamed)) == sorted(unseen_ranks(legal, position))
    found = engine_of(legal, searched).best_chance(position, limits=UNLIMITED, with_moves=True)
    again = engine_of(legal, searched).best_chance(renamed, limits=UNLIMITED, with_moves=True)
    assert again.chance == pytest.approx(found.chance, abs=1e-12)
    assert [worth for _, worth in again.moves] == pytest.approx([worth for _, worth in found.moves], abs=1e-12)


def unseen_ranks(game: Any, position: Concealed) -> list[int]:
    stock = game.stock(position.state)
    return [RANK[code] for code in stock[len(stock) - position.hidden :]]


def test_a_deal_by_rank_stands_for_every_ordered_deal_of_cards() -> None:
    """A deal of five from twelve face-down cards: its outcomes by rank weigh 12*11*10*9*8 in
    all, fewer than those by card; each card its own class, they are the outcomes by card, each
    weighed 1, in the same order."""
    setup = Setup.of("baroness")
    position = played_until(setup, 3, 12)
    game: Baroness = setup.legal
    while DEAL not in game.moves(position.state):  # the discards first, as the rules compel
        position = position._replace(state=game.apply(position.state, game.moves(position.state)[0]))
    assert position.hidden == 12
    by_rank = list(class_outcomes(game, game.card_classes, position, move=DEAL))
    assert sum(weight for weight, _ in by_rank) == math.perm(12, 5)
    by_card = list(class_outcomes(game, IDENTITY, position, move=DEAL))
    assert [after for _, after in by_card] == list(outcomes(game, position, DEAL))
    assert {weight for weight, _ in by_card} == {1} and len(by_rank) < len(by_card) == math.perm(12, 5)
