"""The row that Royal Marriage, Queen and her Lad and Nizhni Novgorod share: the end cards a row
must hold in place (:class:`RowEnds`), checked in a deal and a position, how a discard is
written, read and drawn, and how a row is written for the compiled kernels.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

from rulesets.cards import CARDS, NAME, RANK, Card
from rulesets.marriage_analysis import DISCARDS, DiscardBetween
from rulesets.notation import MoveError, PositionError, cannot_read, check_distinct, read_card, read_card_list
from rulesets.picture import Place
from solver.errors import DealError

# --- the end cards of the row -------------------------------------------------------------------


class RowEnds(Protocol):
    """Where a game's row must start and end: what a deal or a position is checked against, and
    how a seeded deal is laid out to fit."""

    @property
    def game(self) -> str: ...

    def problem(self, row: Sequence[int]) -> str | None:
        """What is wrong with the end cards of ``row`` (card codes, first card first), or None."""
        ...

    def arrange(self, deal: list[Card]) -> list[Card]:
        """A seeded deal rearranged so that its end cards are in place."""
        ...


class FixedEnds(NamedTuple):
    """A row from one fixed card to another (Royal Marriage: QH ... KH). A seeded deal moves
    ``first`` to the front and ``last`` to the end, the other cards keeping their deal order
    (PySolFC's Royal Marriage)."""

    game: str
    first: int
    last: int

    def problem(self, row: Sequence[int]) -> str | None:
        for card, place, wanted in ((self.first, "first", 0), (self.last, "last", len(row) - 1)):
            if card not in row:
                return f"{self.game}: the row must hold {NAME[card]}, its {place} card"
            position = list(row).index(card)
            if position != wanted:
                return (
                    f"{self.game}: {NAME[card]} must be the {place} card of the row, but it is card "
                    f"{position + 1} of {len(row)} ({NAME[row[wanted]]} is {place})"
                )
        return None

    def arrange(self, deal: list[Card]) -> list[Card]:
        ends = (self.first, self.last)
        return [CARDS[self.first]] + [card for card in deal if card.code not in ends] + [CARDS[self.last]]


class SameRankEnds(NamedTuple):
    """Nizhni Novgorod's row: its last card shares the first card's rank. A seeded deal keeps its
    first card first and moves the next card of the same rank to the very end."""

    game: str = "nizhni-novgorod"

    def problem(self, row: Sequence[int]) -> str | None:
        if len(row) < 2:
            return f"{self.game}: the row needs at least its two end cards"
        if RANK[row[-1]] != RANK[row[0]]:
            return (
                f"{self.game}: the last card must share the rank of the first card {NAME[row[0]]}, "
                f"but it is {NAME[row[-1]]}"
            )
        return None

    def arrange(self, deal: list[Card]) -> list[Card]:
        later = next(i for i in range(1, len(deal)) if deal[i].rank == deal[0].rank)
        return deal[:later] + deal[later + 1 :] + [deal[later]]


def checked_deal(deal: Sequence[Card], ends: RowEnds) -> tuple[int, ...]:
    """The deal's card codes, once its end cards are found in place (else a DealError)."""
    codes = tuple(card.code for card in deal)
    problem = ends.problem(codes)
    if problem is not None:
        raise DealError(problem)
    return codes


def read_cards(sections: Mapping[str, str], names: Sequence[str], ends: RowEnds) -> list[tuple[int, ...]]:
    """The cards of the named sections of a position, each card once and the end cards (of
    the sections one after another) in place; else a PositionError."""
    found = [tuple(read_card_list(sections[name], name)) for name in names]
    every = [code for cards in found for code in cards]
    check_distinct(every, ends.game)
    problem = ends.problem(every)
    if problem is not None:
        raise PositionError(problem)
    return found


# --- notation and picture ----------------------------------------------------------------------

_DISCARD_TEXT = re.compile(r"^\s*discard\s+(.+?)\s+between\s+(\S+)\s+and\s+(\S+)\s*$", re.IGNORECASE)
_DISCARD_EXAMPLE = "'discard 7C 9C between 7H and 2H'"
#: Places shown on one line of a picture, as in Accordion.
_ROW_WIDTH = 13


def describe_discard(row: Sequence[int], move: DiscardBetween) -> str:
    between = " ".join(NAME[code] for code in row[move.left + 1 : move.right])
    return f"discard {between} between {NAME[row[move.left]]} and {NAME[row[move.right]]}"


def parse_discard(row: Sequence[int], text: str, other: str = "") -> DiscardBetween:
    """The discard written as ``text``; ``other`` names the game's other moves for the hint."""
    found = _DISCARD_TEXT.match(text)
    if not found:
        raise cannot_read(text, _DISCARD_EXAMPLE + other)
    shown = text.strip()
    between = [read_card(word, text) for word in found.group(1).split()]
    left, right = (read_card(found.group(k), text) for k in (2, 3))
    for code in (left, right, *between):
        if code not in row:
            raise MoveError(f"move {shown!r}: {NAME[code]} is not in the row")
    i, j = row.index(left), row.index(right)
    if i >= j:
        raise MoveError(f"move {shown!r}: {NAME[left]} does not lie left of {NAME[right]}")
    if sorted(between) != sorted(row[i + 1 : j]):
        lying = " ".join(NAME[code] for code in row[i + 1 : j]) or "no cards"
        raise MoveError(f"move {shown!r}: the cards between {NAME[left]} and {NAME[right]} are {lying}")
    return DISCARDS[i][j]


def row_places(row: Sequence[int]) -> tuple[tuple[Place, ...], ...]:
    """The row as places numbered from 1, one card each, wrapped :data:`_ROW_WIDTH` to a line."""
    places = [Place(str(number), (code,)) for number, code in enumerate(row, 1)]
    return tuple(tuple(places[k : k + _ROW_WIDTH]) for k in range(0, len(places), _ROW_WIDTH))


def closed_gap(move: DiscardBetween) -> frozenset[str]:
    """The place a discard changes: where the gap closed, now holding the right matching card."""
    return frozenset((str(move.left + 2),))


# --- the compiled kernels' states (rulesets/_royal_marriage.pyx) --------------------------------

#: A kernel's state size in bytes; a discard's code is ``left << 6 | right``.
_STATE_SIZE = 56


def discard_of(code: int) -> DiscardBetween:
    """The discard a kernel numbers ``code``."""
    return DISCARDS[code >> 6][code & 63]


def encoded(first: int, second: int, cards: tuple[int, ...]) -> bytes:
    """A kernel's state: its two header bytes, then the cards, zero padded."""
    return bytes((first, second, *cards)).ljust(_STATE_SIZE, b"\0")
