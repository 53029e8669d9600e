"""Royal Marriage, Queen and her Lad, Nizhni Novgorod: the 1890s relatives of Accordion.

All three lay the deck out in a row between two fixed end cards and discard the cards lying
between two cards that share suit or rank; gaps close. They differ only in *which* cards between
a matching pair may go (a :class:`Removal`):

- Royal Marriage (:class:`OneOrTwo`): one or two cards; with ``all_same_suit`` also any number
  of cards that all share one suit.
- Queen and her Lad (:class:`LadPairs`): one card, or adjacent pairs (from the left) that each
  share suit or rank.
- Nizhni Novgorod (:class:`InnerTwo`): exactly the two inner cards of four.

Moves are optional in Royal Marriage, Queen and her Lad and in Nizhni Novgorod with
``compulsory=no``. A move only involves the cards from one matching card to the other, so
dealing one card at a time with optional moves reaches the same layouts as laying the whole row
out first; these games are played on the open row (:class:`OpenMarriageRow`; the tests show the
equivalence on small decks against a brute force that deals one card at a time). Nizhni Novgorod
with ``compulsory=yes`` deals one card at a time and must discard whenever it can
(:class:`~rulesets.compulsory_nizhni.CompulsoryNizhni`).

The open row is solved exactly by an interval analysis (:mod:`rulesets.marriage_analysis`, the
``guided`` reduction of :class:`OpenMarriageRow`); the row's end cards and the notation and picture
of a discard are in :mod:`rulesets.marriage_row`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets.cards import MATCH, Card, parse_card
from rulesets.compulsory_nizhni import NIZHNI_ENDS, CompulsoryNizhni
from rulesets.family import Costs, Family, Option, Variant
from rulesets.marriage_analysis import (
    DISCARDS,
    DiscardBetween,
    InnerTwo,
    LadPairs,
    OneOrTwo,
    Removal,
    analyse,
    best_move,
)
from rulesets.marriage_row import (
    FixedEnds,
    RowEnds,
    checked_deal,
    closed_gap,
    describe_discard,
    discard_of,
    encoded,
    parse_discard,
    read_cards,
    row_places,
)
from rulesets.notation import MoveError, is_deal, read_sections, write_card_list, write_sections
from rulesets.picture import Picture

QUEEN_OF_HEARTS = parse_card("QH").code
KING_OF_HEARTS = parse_card("KH").code
JACK_OF_HEARTS = parse_card("JH").code


# --- the open row ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MarriageLayout:
    """An open row of card codes, first card first, and ``floor``: the fewest cards its game's
    start can reach (or a weaker lower bound), which every layout of one game carries along.

    ``floor`` is search bookkeeping, not part of the position: layouts with the same cards are
    equal (and hash alike) whatever their floors, so a position read back equals the layout that
    play reached, though reading computes the floor afresh from the row it reads.
    """

    cards: tuple[int, ...]
    floor: int = field(compare=False)


class OpenMarriageRow:
    """A row laid out in full between its end cards; the player discards cards lying between
    matching cards as ``removal`` allows, at will, and may stop at any time.

    Reduction ``guided`` (default on): the floor is the start's exact fewest-cards-left from
    :func:`analyse`, and moves() puts first a move that keeps it reachable. Off: floor 2 and moves
    in row order (plain exhaustive search); the tests show both give the same verdicts and scores.
    """

    def __init__(self, removal: Removal, ends: RowEnds, guided: bool = True) -> None:
        self.removal = removal
        self.ends = ends
        self.guided = guided

    def start(self, deal: Sequence[Card]) -> MarriageLayout:
        return self._layout(checked_deal(deal, self.ends))

    def _layout(self, cards: tuple[int, ...]) -> MarriageLayout:
        """The layout of a row where play starts (a deal or a position read)."""
        floor = analyse(cards, self.removal).fewest[0] if self.guided else min(2, len(cards))
        return MarriageLayout(cards, floor)

    def discards(self, row: tuple[int, ...]) -> list[DiscardBetween]:
        """Every legal discard, leftmost matching card first, then nearest partner first."""
        found = []
        spans = self.removal.spans
        for i in range(len(row) - 2):
            matches = MATCH[row[i]]
            for j in spans(row, i):
                if matches[row[j]]:
                    found.append(DISCARDS[i][j])
        return found

    def moves(self, state: MarriageLayout) -> list[DiscardBetween]:
        found = self.discards(state.cards)
        if self.guided and found:
            best = best_move(state.cards, self.removal, analyse(state.cards, self.removal))
            if best is not None:
                found.remove(best)
                found.insert(0, best)
        return found

    def apply(self, state: MarriageLayout, move: DiscardBetween) -> MarriageLayout:
        cards = state.cards
        return MarriageLayout(cards[: move.left + 1] + cards[move.right :], state.floor)

    def is_won(self, state: MarriageLayout) -> bool:
        return len(state.cards) == 2

    def key(self, state: MarriageLayout) -> bytes:
        return bytes(state.cards)

    def score(self, state: MarriageLayout) -> int:
        return len(state.cards)

    def lower_bound(self, state: MarriageLayout) -> int:
        return state.floor

    def kernel(self) -> Any:
        """The compiled kernel, or None for a removal rule it does not know (a subclass, say)."""
        kind = {OneOrTwo: 0, LadPairs: 1, InnerTwo: 2}.get(type(self.removal))
        if kind is None:
            return None
        from rulesets._royal_marriage import OpenMarriageKernel

        same_suit = isinstance(self.removal, OneOrTwo) and self.removal.all_same_suit
        return OpenMarriageKernel(kind, same_suit, self.guided)

    def encode(self, state: MarriageLayout) -> bytes:
        """The kernel's state: the number of cards, the floor, the row."""
        return encoded(len(state.cards), state.floor, state.cards)

    def decode(self, code: int) -> DiscardBetween:
        return discard_of(code)

    def describe_move(self, state: MarriageLayout, move: DiscardBetween) -> str:
        return describe_discard(state.cards, move)

    def parse_move(self, state: MarriageLayout, text: str) -> DiscardBetween:
        if is_deal(text):
            raise MoveError("this game lays the whole row out at the start: there is nothing to deal")
        return parse_discard(state.cards, text)

    def picture(self, state: MarriageLayout) -> Picture:
        return Picture(row_places(state.cards))

    def touched(self, state: MarriageLayout, move: DiscardBetween) -> frozenset[str]:
        return closed_gap(move)

    def write_position(self, state: MarriageLayout) -> str:
        return write_sections([("row", write_card_list(state.cards))])

    def read_position(self, text: str) -> MarriageLayout:
        (row,) = read_cards(read_sections(text, self.ends.game, ("row",)), ("row",), self.ends)
        return self._layout(row)


# --- the families -----------------------------------------------------------------------------------

_ROYAL_ENDS = FixedEnds("royal-marriage", QUEEN_OF_HEARTS, KING_OF_HEARTS)
_LAD_ENDS = FixedEnds("queen-and-her-lad", QUEEN_OF_HEARTS, JACK_OF_HEARTS)

_ROYAL_OPTIONS = (
    Option(
        "all_same_suit",
        False,
        "more than two cards between a matching pair may also go, if they all share one suit",
    ),
)
_NIZHNI_OPTIONS = (
    Option(
        "compulsory",
        True,
        "yes: a discard must be made whenever one is available (the player picks which four), the "
        "next card is dealt only when none is; no: the player may deal instead of discarding",
    ),
)


def build_royal(settings: Mapping[str, Any]) -> OpenMarriageRow:
    return OpenMarriageRow(OneOrTwo(settings["all_same_suit"]), _ROYAL_ENDS)


def build_lad(settings: Mapping[str, Any]) -> OpenMarriageRow:
    return OpenMarriageRow(LadPairs(), _LAD_ENDS)


def build_nizhni(settings: Mapping[str, Any]) -> OpenMarriageRow | CompulsoryNizhni:
    if settings["compulsory"]:
        return CompulsoryNizhni()
    return OpenMarriageRow(InnerTwo(), NIZHNI_ENDS)


_OPTIONAL_MOVES = "Moves are optional and may be made in any order, and the player may stop at\nany time.\n"
_WHOLE_ROW = (
    "Dealing one card at a time with optional moves reaches the same rows as\n"
    "laying the whole row out first, so the solver plays on the whole row. It\n"
    "computes the fewest cards that can be left exactly (which stretches of the\n"
    "row can be cleared while their two end cards stay) and is guided by it.\n"
)
_SCORE_RULE = (
    "Score: cards not discarded, the two end cards (and any undealt cards)\n"
    "included; 2 is a win. The solver reports the fewest cards reachable.\n"
)
_EXPLICIT_ROW = (
    "A deal given with --deal or --file is the row as laid out, first card first,\n"
    "and must already carry the end cards in place; --seed N is PySolFC's deal N\n"
    "with the end cards moved.\n"
)
_DISCARD_NOTATION = "Moves are written 'discard 7C 9C between 7H and 2H'"
_OPEN_POSITION = "Positions are written as the row, e.g. 'row: {first} 7H 7C 9C 2H {last}'."

FAMILIES = (
    Family(
        name="royal-marriage",
        summary="discard one or two cards between matching cards until only QH and KH remain",
        rules=(
            "Lay out a row: QH first, then the other 50 cards in deal order, KH last. When\n"
            "one or two cards lie between two cards that share suit or rank, those cards\n"
            "may be discarded; gaps close. Won when only QH and KH remain.\n"
            + _OPTIONAL_MOVES
            + _WHOLE_ROW
            + _SCORE_RULE
            + _EXPLICIT_ROW
            + _DISCARD_NOTATION
            + ".\n"
            + _OPEN_POSITION.format(first="QH", last="KH")
        ),
        options=_ROYAL_OPTIONS,
        variants=(
            Variant("royal-marriage", "one or two cards between a matching pair (also Betrothal, Coquette)", {}),
        ),
        build=build_royal,
        win_score=2,
        arrange=_ROYAL_ENDS.arrange,
    ),
    Family(
        name="queen-and-her-lad",
        summary="Royal Marriage ending with JH, discarding single cards or matching pairs",
        rules=(
            "Lay out a row: QH first, then the other 50 cards in deal order, JH (the Lad)\n"
            "last. Between two cards that share suit or rank, a single card may be\n"
            "discarded; or cards that split, from the left, into adjacent pairs that each\n"
            "share suit or rank may all be discarded (one pair or more). Gaps close. Won\n"
            "when only QH and JH remain.\n"
            + _OPTIONAL_MOVES
            + _WHOLE_ROW
            + _SCORE_RULE
            + _EXPLICIT_ROW
            + _DISCARD_NOTATION
            + ".\n"
            + _OPEN_POSITION.format(first="QH", last="JH")
        ),
        options=(),
        variants=(Variant("queen-and-her-lad", "Mary Whitmore Jones (1892)", {}),),
        build=build_lad,
        win_score=2,
        arrange=_LAD_ENDS.arrange,
    ),
    Family(
        name="nizhni-novgorod",
        summary="deal a row; discard the two inner cards of four whose outer cards match",
        rules=(
            "Setup: the first card of the deal stays first; the next card of the same rank\n"
            "is moved to the very end. Deal four cards into a row, then one at a time.\n"
            "Whenever four consecutive cards have outer cards of the same suit or rank, the\n"
            "two inner cards may be discarded (gaps close); otherwise deal the next card.\n"
            "Won when the last discard leaves only the two end cards.\n"
            "With compulsory=yes (the default) a discard must be made whenever one is\n"
            "available (the player picks which four), and the next card is dealt only when\n"
            "none is; the game ends with the stock dealt out and no discard left.\n"
            "With compulsory=no the player may deal instead of discarding, and may stop at\n"
            "any time.\n"
            + _WHOLE_ROW
            + _SCORE_RULE
            + "A deal given with --deal or --file is the deck as dealt after the setup, first\n"
            "card first: its last card must share the first card's rank (it is not\n"
            "rearranged again); --seed N is PySolFC's deal N with the setup applied.\n"
            + _DISCARD_NOTATION
            + " and 'deal 5C'.\n"
            "Positions are written as the row dealt so far and the stock, next card first,\n"
            "e.g. 'row: 7H 2C 3C 4C | stock: 5D 7S'; with compulsory=no, as the whole row,\n"
            "e.g. 'row: 7H 2C 3C 5H 7S'."
        ),
        options=_NIZHNI_OPTIONS,
        variants=(
            Variant(
                "nizhni-novgorod",
                "discards compulsory, no skill required (Standard Hoyle 1904)",
                {},
                costs=Costs(search_rate=5_400_000, move_us=14, exact_reach=9, walk_rate=3_500_000),
            ),
        ),
        build=build_nizhni,
        win_score=2,
        arrange=NIZHNI_ENDS.arrange,
    ),
)
