"""Amazons written down and played whole: seeded deals, the presets, notation, positions and
pictures read back along random play, won lines, and every preset's solutions replayed. (The
rules against the brute force, and the bounds: test_amazons.py.)"""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

import pytest
from helpers import states_along, walk
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.amazons import FAMILIES, Amazons, Play
from rulesets.cards import CARDS, NAME, RANK, format_cards, parse_cards
from rulesets.notation import MoveError, PositionError
from solver.engine import engine_of
from solver.replay import checked, replay
from solver.result import Limits, Verdict

FAMILY = FAMILIES[0]
VARIANTS = [variant.name for variant in FAMILY.variants]
#: PySolFC's Amazons deal number 1 (the 28-card deck, first dealt first).
DEAL_1 = "QS JD 8H AC 9H 7H TD 9D 8C TS 8D 9S 7C JS AS AD QD TH AH QH 8S JH QC 9C 7S 7D JC TC"


def variant_game(variant: str) -> Amazons:
    return Amazons(**FAMILY.settings(variant))


def play(game, state, *moves):
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


# ----- seeded deals, notation, positions, pictures, whole games -----------------------------------


def test_seeded_deal_vectors():
    assert format_cards(FAMILY.seeded_deal(1)) == DEAL_1
    assert format_cards(FAMILY.seeded_deal(32000)) == (
        "9S 7D JS 8D JD AH JH 8H TC 7C AC AS 9D 9H 8C JC 8S TD QD TS 7S AD 9C 7H QH QC TH QS"
    )


def test_registered_with_presets():
    family = families()["amazons"]
    assert [v.name for v in family.variants] == ["amazons", "amazons-dick", "amazons-mms", "amazons-pysol"]
    assert family.settings("amazons-pysol") == {
        "gather": "right-to-left",
        "queen_any_depot": True,
        "compulsory": False,
        "any_suit": True,
        "ace_any_place": True,
        "skip_complete": True,
    }
    assert len(family.deck()) == 28
    assert family.score_field == "min_cards_left"
    assert "compulsory" in family.describe()
    assert all(len(line) <= 100 for line in family.rules.splitlines())


@st.composite
def random_play(draw, max_moves=120):
    """(game, [(state, move played there or None at the end)]) for random play of a variant."""
    game = variant_game(draw(st.sampled_from(VARIANTS)))
    start = game.start(FAMILY.seeded_deal(draw(st.integers(1, 10**6))))
    return game, walk(game, start, draw(st.lists(st.integers(0, 20), max_size=max_moves)))


@settings(max_examples=40, deadline=None)
@given(played=random_play())
def test_notation_reads_back(played):
    game, steps = played
    for state, _ in steps:
        for move in game.moves(state):
            text = game.describe_move(state, move)
            assert game.parse_move(state, text) == move
            if isinstance(move, Play) and RANK[state.depots[move.source][-1]] == 1:
                assert " from " not in text


@settings(max_examples=60, deadline=None)
@given(played=random_play())
def test_positions_read_back(played):
    """Writing then reading a position is the identity on every state random play reaches."""
    game, steps = played
    for state, _ in steps:
        assert game.read_position(game.write_position(state)) == state


@settings(max_examples=40, deadline=None)
@given(played=random_play())
def test_pictures_hold_the_cards_and_touched_names_their_places(played):
    """Each picture holds exactly the state's cards (the stock as its size, face down); a
    move touches only places of the picture after it, and always those it changed."""
    game, steps = played
    for (state, move), (after, _) in itertools.pairwise(steps):
        picture = game.picture(after)
        places = [place for row in picture.rows for place in row]
        shown = sorted(card for place in places for card in place.cards)
        assert shown == sorted(card for pile in after.depots + after.foundations for card in pile)
        assert sum(place.face_down for place in places) == len(after.stock)
        labels = {place.label for place in places}
        touched = game.touched(state, move)
        assert touched <= labels
        before = {place.label: place for row in game.picture(state).rows for place in row}
        assert {place.label for place in places if place != before[place.label]} == touched
        assert picture.text(touched)


@cache
def won_line(variant: str) -> tuple:
    game = variant_game(variant)
    start = game.start(FAMILY.seeded_deal(1))
    result = engine_of(game).depth_first(start)
    assert result.verdict is Verdict.WON and result.solution is not None
    return result.solution


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(VARIANTS), fraction=st.floats(0, 1))
def test_the_position_after_part_of_a_won_line_is_won(variant, fraction):
    game = variant_game(variant)
    line = won_line(variant)
    states = states_along(game, game.start(FAMILY.seeded_deal(1)), line)
    state = states[int(fraction * (len(states) - 1))]
    position = game.read_position(game.write_position(state))
    assert engine_of(game).depth_first(position).verdict is Verdict.WON


def test_the_opening_position_and_its_notation():
    game = variant_game("amazons")
    start = game.start(parse_cards(DEAL_1))
    text = game.write_position(start)
    assert text == "foundations: - / - / - / - | depots: QS / JD / 8H / AC | stock: " + DEAL_1[12:]
    assert game.read_position(text.replace("QS / JD", "qs /  jd")) == start
    state = play(game, start, "AC to F1")
    assert game.write_position(state).startswith("foundations: AC / - / - / - | depots: QS / JD / 8H / - |")


def test_the_documented_examples_read_back_and_are_won():
    """docs/positions/amazons.md gives one position per variant, each part way through a won line."""
    doc = (Path(__file__).parent.parent / "docs" / "positions" / "amazons.md").read_text()
    examples = dict(re.findall(r"^- `(amazons[a-z-]*)`.*?\n\s+`(foundations:[^`]+)`", doc, re.MULTILINE | re.DOTALL))
    assert sorted(examples) == sorted(VARIANTS)
    for variant, text in examples.items():
        game = variant_game(variant)
        state = game.read_position(text)
        assert game.write_position(state) == text
        assert engine_of(game).depth_first(state).verdict is Verdict.WON


def position(foundations="AC 7C / AD / - / -", depots="8C / - / 7D / -", stock=None, leave=()):
    """A position of the 28-card game: the cards not named go to the stock (but ``leave``)."""
    named = " ".join((foundations + " " + depots).replace("/", " ").replace("-", " ").split())
    if stock is None:
        rest = [NAME[c] for c in sorted(c.code for c in FAMILY.deck()) if NAME[c] not in named.split()]
        stock = " ".join(name for name in rest if name not in leave)
    return f"foundations: {foundations} | depots: {depots} | stock: {stock}"


def test_a_hand_written_position_reads():
    state = variant_game("amazons").read_position(position())
    assert [format_cards(CARDS[c] for c in place) for place in state.foundations] == ["AC 7C", "AD", "", ""]
    assert state.depots[0] == (parse_cards("8C")[0].code,) and len(state.stock) == 28 - 5


@pytest.mark.parametrize(
    "text, wrong",
    [
        ("foundations - / - / - / - | depots: - / - / - / - | stock: -", "cannot read"),
        (position().replace(" | stock:", " | pass: 1 | stock:"), "unknown section"),
        (position().split(" | stock")[0], "needs a 'stock' section"),
        (position(depots="8C / - / 7D"), "3 depots, not 4"),
        (position(foundations="AC 7C / AD / -"), "3 foundation places, not 4"),
        (position(stock=None, leave=("QS",)), "lacks QS"),
        (position() + " QS", "QS more than once"),
        (position() + " 5H", "5H, not in this game's deck"),
        (position(depots="8C XX / - / 7D / -"), "unknown card"),
        (position(foundations="AC 8C / AD / - / -", depots="7C / - / 7D / -"), "F1 is out of sequence at 8C"),
        (position(foundations="7C AC / AD / - / -", depots="8C / - / 7D / -"), "F1 is out of sequence at 7C"),
        (position(foundations="AC 7D / AD / - / -", depots="8C / - / 7C / -"), "F1 mixes suits at 7D"),
        (position(foundations="AC 7C / - / AD / -"), "F3 holds cards while F2 is empty"),
    ],
)
def test_impossible_positions_are_refused(text, wrong):
    with pytest.raises(PositionError, match=wrong):
        variant_game("amazons").read_position(text)


def test_options_decide_which_foundations_can_exist():
    """Mixed suits and a place right of an empty one are refused by default, read by
    amazons-pysol (foundations by rank in any suit, Aces to any empty place)."""
    for text in (
        position(foundations="AC 7D / AD / - / -", depots="8C / - / 7C / -"),
        position(foundations="AC 7C / - / AD / -"),
    ):
        with pytest.raises(PositionError):
            variant_game("amazons").read_position(text)
        assert variant_game("amazons-pysol").write_position(variant_game("amazons-pysol").read_position(text)) == text


def test_bad_moves_are_move_errors():
    game = Amazons()
    state = game.start(FAMILY.seeded_deal(1))
    for text in ("fly", "deal 7H", "ZZ to F1", "QS from D2 to F1", "QS from D9 to F1", "AS to F7", "7H to F1"):
        with pytest.raises(MoveError):
            game.parse_move(state, text)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [3, 18])
def test_solutions_replay(variant, seed):
    game = variant_game(variant)
    start = game.start(FAMILY.seeded_deal(seed))
    result = engine_of(game).depth_first(start, limits=Limits(max_nodes=300_000))
    checked(game, start, result)
    outcome = replay(game, start, result.best_line)
    assert outcome.illegal_at is None
    assert game.score(outcome.final) == result.best_score
    if result.verdict is Verdict.WON:
        assert game.is_won(outcome.final)


def test_key_ignores_suits_only_when_they_do_not_matter():
    deal = parse_cards("AC AD 7C 7D 8C 8D")
    swapped = parse_cards("AD AC 7D 7C 8D 8C")
    for any_suit in (False, True):
        game = Amazons(ranks=(1, 7, 8), piles=2, any_suit=any_suit)
        same = game.key(game.start(deal)) == game.key(game.start(swapped))
        assert same == any_suit
