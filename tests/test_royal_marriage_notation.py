"""Royal Marriage, Queen and her Lad and Nizhni Novgorod dealt and written down: PySolFC's
seeded rows with their end cards, explicit rows, the notation of moves and deals, and the rules'
text. (The rules against the brute force, removal rules, positions, pictures and the compiled
kernels: test_royal_marriage.py.)"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import PYSOL_DEAL_1, PYSOL_DEAL_32000
from hypothesis import given
from hypothesis import strategies as st

from rulesets import families
from rulesets.cards import CARDS, Card, CardError, format_cards, parse_cards
from rulesets.family import Family
from rulesets.moves import DEAL
from rulesets.notation import MoveError
from rulesets.royal_marriage import (
    CompulsoryNizhni,
    OpenMarriageRow,
)
from solver.errors import DealError
from solver.protocol import NO_SCORE

FAMILY = families()
ROYAL, LAD, NIZHNI = FAMILY["royal-marriage"], FAMILY["queen-and-her-lad"], FAMILY["nizhni-novgorod"]
ROYAL_1 = (
    "QH JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS 4H AC 4D 7S "
    "3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H KH"
)


def text(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


# --- seeded deals and explicit rows -----------------------------------------------------------------------


def test_royal_marriage_vector() -> None:
    assert format_cards(ROYAL.seeded_deal(1)) == ROYAL_1
    assert ROYAL_1.split()[1:-1] == [c for c in PYSOL_DEAL_1.split() if c not in ("QH", "KH")]


@pytest.mark.parametrize("family, last", [(ROYAL, "KH"), (LAD, "JH")], ids=["royal", "lad"])
@pytest.mark.parametrize("seed, deal", [(1, PYSOL_DEAL_1), (32000, PYSOL_DEAL_32000)])
def test_seeded_deal_moves_the_queen_first_and_the_last_card_last(
    family: Family, last: str, seed: int, deal: str
) -> None:
    cards = deal.split()
    assert text(family.seeded_deal(seed)) == ["QH"] + [c for c in cards if c not in ("QH", last)] + [last]


def test_nizhni_novgorod_moves_the_next_card_of_the_first_rank_to_the_end() -> None:
    # Deal 1 starts JD ... and the next jack dealt is JC (fourth card).
    cards = PYSOL_DEAL_1.split()
    assert text(NIZHNI.seeded_deal(1)) == cards[:3] + cards[4:] + ["JC"]
    # Deal 32000 starts 7S; the next seven dealt is 7D.
    cards = PYSOL_DEAL_32000.split()
    later = cards.index("7D")
    assert text(NIZHNI.seeded_deal(32000)) == cards[:later] + cards[later + 1 :] + ["7D"]


@given(st.integers(1, 10**12))
def test_seeded_rows_carry_their_end_cards(seed: int) -> None:
    for family, first, last in ((ROYAL, "QH", "KH"), (LAD, "QH", "JH")):
        row = text(family.seeded_deal(seed))
        assert row[0] == first and row[-1] == last and sorted(row) == sorted(text(CARDS))
    deal = NIZHNI.seeded_deal(seed)
    assert deal[0].rank == deal[-1].rank and sorted(deal) == sorted(CARDS)
    for family in (ROYAL, LAD, NIZHNI):
        family.build(family.settings()).start(family.seeded_deal(seed))


@pytest.mark.parametrize(
    "family, row, named",
    [
        (ROYAL, "KH 2C 3C QH", "QH"),
        (ROYAL, "QH 2C KH 3C", "KH"),
        (ROYAL, "QH 2C 3C JH", "KH"),
        (LAD, "QH 2C 3C KH", "JH"),
        (LAD, "JH 2C 3C QH", "QH"),
        (NIZHNI, "7H 2C 3C 8H", "8H"),
    ],
)
def test_explicit_rows_must_carry_the_end_cards(family: Family, row: str, named: str) -> None:
    with pytest.raises(DealError, match=named) as error:
        family.build(family.settings()).start(parse_cards(row))
    assert isinstance(error.value, CardError) and isinstance(error.value, ValueError)
    assert not isinstance(error.value, MoveError)
    assert "\n" not in str(error.value)


def test_explicit_row_is_taken_as_laid_out() -> None:
    game = ROYAL.build(ROYAL.settings())
    assert game.write_position(game.start(parse_cards("QH 2H 5C KH"))) == "row: QH 2H 5C KH"
    nizhni = NIZHNI.build(NIZHNI.settings())
    assert nizhni.write_position(nizhni.start(parse_cards("7H 2C 3C 4C 7S"))) == "row: 7H 2C 3C 4C | stock: 7S"


# --- notation ---------------------------------------------------------------------------------------------


def test_move_notation() -> None:
    game = ROYAL.build(ROYAL.settings())
    state = game.start(parse_cards("QH 7H 7C 9C 2H KH"))
    move = game.parse_move(state, "discard 7C 9C between 7H and 2H")
    assert game.describe_move(state, move) == "discard 7C 9C between 7H and 2H"
    assert move in game.moves(state)
    assert game.parse_move(state, "  Discard 9c 7♣ between 7♥ and 2h ") == move
    for bad, says in (
        ("discard 7C between 7H and 2H", "between 7H and 2H are 7C 9C"),
        ("discard 7C 9C between 2H and 7H", "left of"),
        ("discard 7C 9C between 7H and 3H", "3H is not in the row"),
        ("discard 7C 9C between 7H and ZZ", "unknown card"),
        ("deal", "nothing to deal"),
        ("slide 7C", "cannot read move 'slide 7C': write e.g. 'discard 7C 9C between 7H and 2H'$"),
    ):
        with pytest.raises(MoveError, match=says):
            game.parse_move(state, bad)


def test_deal_notation() -> None:
    game = NIZHNI.build(NIZHNI.settings())
    state = game.start(parse_cards("7H 2C 3C 4C 5D 7S"))
    assert game.moves(state) == [DEAL]
    assert game.describe_move(state, DEAL) == "deal 5D"
    assert game.parse_move(state, "deal 5D") is game.parse_move(state, "deal") is DEAL
    for bad, says in (
        ("deal 7S", "next card of the stock is not 7S .*5D"),
        ("deal 5D 7S", "cannot read"),
        ("7H", "or 'deal'"),
    ):
        with pytest.raises(MoveError, match=says):
            game.parse_move(state, bad)
    with pytest.raises(MoveError, match="stock is empty"):
        game.parse_move(game.read_position("row: 7H 2C 7S | stock: -"), "deal")


def test_compulsory_discard_blocks_the_deal_and_the_end() -> None:
    game = NIZHNI.build(NIZHNI.settings())
    state = game.start(parse_cards("7H 2C 3C 7C 5D 7S"))
    assert DEAL not in game.moves(state) and game.score(state) == NO_SCORE
    free = NIZHNI.build(NIZHNI.settings(overrides=["compulsory=no"]))
    assert isinstance(free, OpenMarriageRow) and isinstance(game, CompulsoryNizhni)


def test_describe_states_options_and_defaults() -> None:
    assert "all_same_suit (default no" in ROYAL.describe()
    assert "compulsory (default yes" in NIZHNI.describe()
    for family in (ROYAL, LAD, NIZHNI):
        assert family.score_field == "min_cards_left"
        assert all(len(line) <= 100 for line in family.rules.splitlines())
        assert "RULES" not in family.describe()
