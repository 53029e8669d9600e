"""Card notation, deal checking, and PySolFC-compatible seeded deals (test vectors from PySolFC itself)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.cards import CARDS, CardError, format_cards, parse_card, parse_cards
from rulesets.deals import STRIPPED_RANKS, check_deal, deck, read_deal, read_deal_lines, seeded_deal

VECTORS_52 = {
    1: "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H",
    32000: "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC 4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS",
    123456789: "8H 2H JD 3D KH 6S 5D 6H 5S 3S 4S TS 9C JS AC 2D QH 9S KS JC 9H 8D 7S 3C AD 5H 2C TH 4D KC QS 7H QD 8C AS 9D 5C 4C TC 3H 2S AH QC 7C 6C KD 7D 6D JH 8S 4H TD",
}
VECTORS_28 = {
    1: "QS JD 8H AC 9H 7H TD 9D 8C TS 8D 9S 7C JS AS AD QD TH AH QH 8S JH QC 9C 7S 7D JC TC",
    32000: "9S 7D JS 8D JD AH JH 8H TC 7C AC AS 9D 9H 8C JC 8S TD QD TS 7S AD 9C 7H QH QC TH QS",
}


@pytest.mark.parametrize("seed, expected", VECTORS_52.items())
def test_seeded_52_card_deals_match_pysolfc(seed, expected):
    assert format_cards(seeded_deal(seed)) == expected


@pytest.mark.parametrize("seed, expected", VECTORS_28.items())
def test_seeded_28_card_deals_match_pysolfc(seed, expected):
    assert format_cards(seeded_deal(seed, STRIPPED_RANKS)) == expected


@pytest.mark.parametrize("seed", [0, -3, 10**20 + 1])
def test_seed_out_of_range_is_an_error(seed):
    with pytest.raises(CardError, match="out of range"):
        seeded_deal(seed)


@given(st.integers(min_value=1, max_value=10**20))
def test_every_seed_deals_the_whole_deck_once(seed):
    assert sorted(seeded_deal(seed)) == sorted(deck())


@pytest.mark.parametrize(
    "text, expected",
    [("AS", "AS"), ("10h", "TH"), ("t♦", "TD"), ("Q♠", "QS"), ("kc", "KC"), ("2♥", "2H")],
)
def test_card_spellings(text, expected):
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ZZ", "10"])
def test_unknown_cards_are_named(text):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(text)


def test_codes_round_trip():
    assert [card.code for card in CARDS] == list(range(52))
    assert all(parse_card(str(card)) is card for card in CARDS)


def test_bad_deal_names_duplicated_missing_and_unknown_cards():
    cards = parse_cards(" ".join(str(c) for c in deck()[:-1]))
    cards[0] = cards[1]
    with pytest.raises(CardError) as error:
        check_deal(cards, deck())
    message = str(error.value)
    assert "duplicated " + str(cards[1]) in message
    assert "missing" in message and str(deck()[0]) in message and str(deck()[-1]) in message
    with pytest.raises(CardError, match="unknown card.*XX"):
        read_deal("AS XX", deck())
    with pytest.raises(CardError, match="not in this game's deck 2C"):
        check_deal(parse_cards("2C") + deck(STRIPPED_RANKS)[1:], deck(STRIPPED_RANKS))


def test_deal_files_hold_one_deal_a_line_or_one_card_a_line():
    one = format_cards(seeded_deal(1))
    two = format_cards(seeded_deal(2))
    found = list(read_deal_lines(f"# two deals\n{one}\n\n{two}  # second\n".splitlines(), deck()))
    assert [(line.line, line.cards) for line in found] == [(2, seeded_deal(1)), (4, seeded_deal(2))]
    assert [line.cards for line in read_deal_lines(one.split(), deck())] == [seeded_deal(1)]
    bad, good = read_deal_lines(["AS 2S 3S", one], deck())
    assert bad.line == 1 and bad.cards is None and "bad deal of 3 cards" in str(bad.error)
    assert good.line == 2 and good.cards == seeded_deal(1)
    with pytest.raises(CardError, match="no deal"):
        list(read_deal_lines(["# nothing"], deck()))
    endless = read_deal_lines(itertools.repeat("AS"), deck())
    assert "at most 52 cards" in str(next(endless).error)
