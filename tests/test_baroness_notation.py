"""Baroness and Thirteens written down: the notation of moves (read back along random play, and
by example), positions (read back, refused where impossible, won along a won line) and the
pictures of --show. (The rules, searches and reductions: test_baroness.py.)"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import PYSOL_DEAL_1, random_play, solve, states_along
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.baroness import Baroness, ToSpace
from rulesets.cards import CARDS, Card, parse_card, parse_cards
from rulesets.moves import DEAL
from rulesets.notation import MoveError, PositionError
from rulesets.pairs import Discard
from rulesets.thirteens import Thirteens
from solver.replay import replay
from solver.result import Verdict

RANK_GROUPS = [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7), (13,)]
FLAGS = st.tuples(*[st.booleans()] * 4)  # compulsory, kings_first, spaces, beneath, drawn
NONE: frozenset[str] = frozenset()


@st.composite
def small_deals(draw, max_size=10):
    """A few cards of a few complementary ranks (and Kings), so that pairs actually occur (as
    test_baroness.py draws them)."""
    groups = draw(st.lists(st.sampled_from(RANK_GROUPS), min_size=1, max_size=3, unique=True))
    pool = [Card(rank, suit) for group in groups for rank in group for suit in "CDHS"]
    size = draw(st.integers(1, min(max_size, len(pool))))
    return draw(st.permutations(pool))[:size]


# ---------------------------------------------------------------------------------------------
# Notation


@settings(max_examples=30)
@given(small_deals(max_size=12), st.integers(1, 4), FLAGS, st.randoms(use_true_random=False))
def test_every_move_reads_back(deal, piles, options, rng):
    game = Baroness(piles, *options, reductions=NONE)
    for state, _ in random_play(game, game.start(deal), rng, 40):
        for move in game.moves(state):
            text = game.describe_move(state, move)
            assert game.parse_move(state, text) == move
            assert game.parse_move(state, text.lower()) == move


def test_notation_examples():
    game = Baroness(spaces=True)
    state = game.start(parse_cards(PYSOL_DEAL_1))
    king = game.parse_move(state, "discard KH")
    assert king == Discard(parse_card("KH").code) and game.describe_move(state, king) == "discard KH"
    pair = game.parse_move(state, "discard 7D + 6C")
    assert pair == game.parse_move(state, "discard 6C+7D") == game.parse_move(state, "Discard 6♣+7♦")
    assert game.describe_move(state, pair) == "discard 6C+7D"
    assert game.describe_move(state, game.parse_move(state, "discard 10h+3s")) == "discard 3S+TH"
    move = game.parse_move(state, "move 9S to pile 3")
    assert move == ToSpace(parse_card("9S").code, 2) and game.describe_move(state, move) == "move 9S to pile 3"
    assert game.parse_move(state, "deal") is DEAL and game.describe_move(state, DEAL) == "deal"
    thirteens = Thirteens()
    t_state = thirteens.start(parse_cards(PYSOL_DEAL_1))
    assert thirteens.describe_move(t_state, thirteens.parse_move(t_state, "discard JD+2D")) == "discard JD+2D"


@pytest.mark.parametrize(
    "text",
    [
        "discard",
        "discard 6C",
        "discard 6C+8D",
        "discard XX+7D",
        "move 9S to pile 6",
        "move 9S to pile 0",
        "shuffle",
        "deal 7H",
    ],
)
def test_unreadable_moves_are_move_errors(text):
    game = Baroness()
    state = game.start(parse_cards(PYSOL_DEAL_1))
    with pytest.raises(MoveError) as error:
        game.parse_move(state, text)
    assert "\n" not in str(error.value)


def test_illegal_but_readable_moves_fail_replay():
    game = Baroness()
    state = game.start(parse_cards(PYSOL_DEAL_1))  # JD 2D 9H JC 5D: no discard
    line = [game.parse_move(state, "discard 6C+7D")]
    assert replay(game, state, line).illegal_at == 1


# ---------------------------------------------------------------------------------------------
# Positions


@settings(max_examples=40)
@given(st.permutations(CARDS), st.integers(5, 7), FLAGS, st.randoms(use_true_random=False))
def test_baroness_positions_read_back_along_random_play(deal, piles, options, rng):
    game = Baroness(piles, *options, reductions=NONE)
    for state, _ in random_play(game, game.start(deal), rng, 200):
        text = game.write_position(state)
        assert game.read_position(text) == state
        assert "\n" not in text


@pytest.mark.one_engine  # notation: no search
@settings(max_examples=40)
@given(st.permutations(CARDS), st.randoms(use_true_random=False))
def test_thirteens_positions_read_back_along_random_play(deal, rng):
    game = Thirteens(reductions=NONE)
    for state, _ in random_play(game, game.start(deal), rng, 60):
        assert game.read_position(game.write_position(state)) == state


GAMES = {
    "baroness": ("baroness", ()),
    "baroness-classic": ("baroness", ("kings_first=yes",)),
    "baroness-pysol": ("baroness", ("compulsory=no", "spaces=yes")),
    "beneath": ("baroness", ("beneath=yes",)),
    "6 piles": ("baroness", ("piles=6",)),
    "7 piles": ("baroness", ("piles=7", "compulsory=no")),
    "thirteens": ("thirteens", ()),
}


def first_won_line(family, game):
    """The first seeded deal (1 to 60) this game wins within 20,000 states, and its winning line."""
    for seed in range(1, 61):
        start = game.start(family.seeded_deal(seed))
        result = solve(game, start, limit=20_000)
        if result.verdict is Verdict.WON:
            return start, result.best_line
    raise AssertionError("no won deal among seeds 1 to 60")


@pytest.mark.parametrize("name", GAMES)
def test_every_position_of_a_won_line_is_won(name):
    family_name, overrides = GAMES[name]
    family = families()[family_name]
    game = family.build(family.settings(None, overrides))
    start, line = first_won_line(family, game)
    for state in states_along(game, start, line):
        again = game.read_position(game.write_position(state))
        assert solve(game, again, limit=20_000).verdict is Verdict.WON


def deal_1_layout(piles, grace=(), stock=None):
    """A Baroness position of PySolFC deal 1's cards: ``piles`` as card texts, the rest of the
    deck in the stock unless ``stock`` is given."""
    used = {card for pile in piles for card in pile.split()} | set(grace)
    rest = [card for card in PYSOL_DEAL_1.split() if card not in used] if stock is None else stock
    sections = (" / ".join(pile or "-" for pile in piles), " ".join(grace) or "-", " ".join(rest) or "-")
    return "piles: {} | grace: {} | stock: {}".format(*sections)


FIRST = ["JD", "2D", "9H", "JC", "5D"]
ALL_CARDS = PYSOL_DEAL_1.split()
BARONESS_REFUSED = {
    "a card twice": (deal_1_layout(FIRST, stock=ALL_CARDS[5:-1] + ["JD"]), "more than once"),
    "an unknown card": (deal_1_layout(["JD", "2D", "9H", "JC", "5X"]), "unknown card"),
    "too few piles": (deal_1_layout(FIRST[:4]), "has 4 piles"),
    "a card missing that no discard removes": (deal_1_layout(FIRST[:4] + [""], stock=ALL_CARDS[5:]), "rank 5"),
    "grace cards beside a stock": (
        deal_1_layout(FIRST, grace=ALL_CARDS[-2:], stock=ALL_CARDS[5:-2]),
        "grace cards and a stock",
    ),
    "a stock no deal leaves": (deal_1_layout(["JD 7H", "2D", "9H", "JC", "5D"]), "cannot hold 46"),
    "more grace cards than the deal lays": (
        deal_1_layout([" ".join(ALL_CARDS[i:49:5]) for i in range(5)], grace=ALL_CARDS[49:], stock=[]),
        "3 grace cards",
    ),
    "a pile higher than the deals so far": (deal_1_layout(["JD 7H 9S", "2D 7C", "9H 5H", "JC KD", "5D"]), "pile 1"),
    "a missing section": ("piles: JD / 2D / 9H / JC / 5D", "needs a 'stock' section"),
}


@pytest.mark.parametrize("case", BARONESS_REFUSED)
def test_impossible_baroness_positions_are_refused(case):
    text, words = BARONESS_REFUSED[case]
    with pytest.raises(PositionError, match=words) as error:
        Baroness().read_position(text)
    assert "\n" not in str(error.value)


def test_kings_first_positions_hold_no_king():
    text = deal_1_layout(FIRST, stock=[card for card in ALL_CARDS[5:] if card[0] != "K"])
    assert Baroness(kings_first=True).read_position(text).left.bit_count() == 48
    with pytest.raises(PositionError, match="KD"):
        Baroness(kings_first=True).read_position(deal_1_layout(["JD", "2D", "9H", "KD", "5D"]))


def test_a_position_may_lack_kings_and_pairs():
    gone = {"KH", "6C", "7D", "5S", "8S"}
    stock = [card for card in ALL_CARDS[5:] if card not in gone]
    assert Baroness().read_position(deal_1_layout(FIRST, stock=stock)).left.bit_count() == 47


THIRTEENS_START = "places: " + " / ".join(ALL_CARDS[:10]) + " | stock: " + " ".join(ALL_CARDS[10:])
THIRTEENS_REFUSED = {
    "nine places": ("places: " + " / ".join(ALL_CARDS[:9]) + " | stock: " + " ".join(ALL_CARDS[9:]), "9 places"),
    "two cards in a place": (THIRTEENS_START.replace("JD / 2D", "JD 2D / -"), "holds 2 cards"),
    "an empty place beside a stock": (
        THIRTEENS_START.replace("JD /", "- /").replace("stock:", "stock: JD"),
        "empty place",
    ),
    "a card twice": (THIRTEENS_START.replace(" 6H", " JD"), "more than once"),
    "a card missing that no discard removes": (THIRTEENS_START.replace(" 6H", ""), "rank 6"),
}


@pytest.mark.parametrize("case", THIRTEENS_REFUSED)
def test_impossible_thirteens_positions_are_refused(case):
    text, words = THIRTEENS_REFUSED[case]
    with pytest.raises(PositionError, match=words):
        Thirteens().read_position(text)


def test_position_examples():
    game = Baroness()
    start = game.start(parse_cards(PYSOL_DEAL_1))
    assert game.write_position(start) == deal_1_layout(FIRST)
    assert game.read_position(deal_1_layout(FIRST).replace("grace: - | ", "")) == start
    thirteens = Thirteens()
    assert thirteens.write_position(thirteens.start(parse_cards(PYSOL_DEAL_1))) == THIRTEENS_START


# ---------------------------------------------------------------------------------------------
# Pictures


def picture_cards(picture):
    face_up = Counter(code for row in picture.rows for place in row for code in place.cards)
    return face_up, sum(place.face_down for row in picture.rows for place in row)


def labels(picture):
    return {place.label for row in picture.rows for place in row}


@settings(max_examples=30)
@given(st.permutations(CARDS), st.integers(5, 7), FLAGS, st.randoms(use_true_random=False))
def test_baroness_pictures_hold_the_cards_and_mark_what_moved(deal, piles, options, rng):
    game = Baroness(piles, *options, reductions=NONE)
    for state, move in random_play(game, game.start(deal), rng, 200):
        face_up, face_down = picture_cards(game.picture(state))
        assert face_up == Counter([code for pile in state.piles for code in pile] + list(state.grace))
        assert face_down == len(state.stock)
        if move is not None:
            touched = game.touched(state, move)
            assert touched and touched <= labels(game.picture(game.apply(state, move)))
            assert (move is DEAL) == ("stock" in touched)


@settings(max_examples=30)
@given(st.permutations(CARDS), st.randoms(use_true_random=False))
def test_thirteens_pictures_hold_the_cards_and_mark_what_moved(deal, rng):
    game = Thirteens(reductions=NONE)
    for state, move in random_play(game, game.start(deal), rng, 60):
        face_up, face_down = picture_cards(game.picture(state))
        assert face_up == Counter(code for code in state.places if code is not None)
        assert face_down == len(state.stock)
        if move is not None:
            touched = game.touched(state, move)
            assert touched <= labels(game.picture(state))
            assert len(touched - {"stock"}) == (1 if move.partner is None else 2)


def test_picture_examples():
    game = Baroness()
    state = game.start(parse_cards(PYSOL_DEAL_1))
    assert game.touched(state, DEAL) == {"pile 1", "pile 2", "pile 3", "pile 4", "pile 5", "stock"}
    assert game.picture(state).text().splitlines() == [
        " pile 1: JD",
        " pile 2: 2D",
        " pile 3: 9H",
        " pile 4: JC",
        " pile 5: 5D",
        " grace: -",
        " stock: [47 face down]",
    ]
    thirteens = Thirteens()
    t_state = thirteens.start(parse_cards(PYSOL_DEAL_1))
    assert thirteens.touched(t_state, thirteens.parse_move(t_state, "discard 2D+JD")) == {"1", "2", "stock"}
    assert thirteens.picture(t_state).text().splitlines()[0] == "  1: JD   2: 2D   3: 9H   4: JC   5: 5D"
