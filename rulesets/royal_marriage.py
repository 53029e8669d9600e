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
(:class:`CompulsoryNizhni`).

The open row is solved exactly by an interval analysis (:func:`analyse`, the ``guided``
reduction of :class:`OpenMarriageRow`). Call a pair of row positions ``i < j`` *clearable* when
every card strictly between them can be discarded while both stay. While ``i`` and ``j`` stay, a move
that discards a card between them has both its matching cards in ``i..j`` (else ``i`` or ``j``
would lie between them and go too), so clearing ``i..j`` depends only on those cards. Its last
move discards everything left between ``i`` and ``j``, so ``i`` and ``j`` match, and the cards it
discards, the *survivors* ``p1 < ... < pk``, form a group the rules let go; before that, each gap
``i..p1, p1..p2, ..., pk..j`` was cleared on its own. Conversely clearing those gaps in any order
and then discarding the survivors is legal. So ``j`` is clearable from ``i`` iff ``j == i + 1`` or
``i`` and ``j`` match and such a chain of clearable gaps exists; the cards left at the end of any
play are a chain of clearable gaps from the first card to the last, and the fewest cards left is
the shortest such chain. :func:`analyse` computes all of this with bit sets in O(n^2) big-integer
steps (about a millisecond for 52 cards). The search then needs no guessing: the start's exact
minimum is a lower bound for every state reached from it (carried in the layout as ``floor``),
and :meth:`OpenMarriageRow.moves` puts first a move that keeps that minimum reachable, so the
depth-first search walks straight to an optimal layout and every other branch is cut by the bound.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from rulesets.cards import (
    CARDS,
    MATCH,
    NAME,
    RANK,
    SUIT,
    Card,
    codes_in,
    parse_card,
)
from rulesets.family import Family, Option, Variant
from rulesets.moves import DEAL, StockMove
from rulesets.notation import (
    MoveError,
    PositionError,
    cannot_read,
    check_deal,
    check_distinct,
    describe_deal,
    is_deal,
    quoted_move,
    read_card,
    read_card_list,
    read_sections,
    write_card_list,
    write_sections,
)
from rulesets.picture import Picture, Place
from rulesets.stock import StockInField
from solver.errors import DealError
from solver.protocol import NO_SCORE

_MAX_ROW = 52
QUEEN_OF_HEARTS = parse_card("QH").code
KING_OF_HEARTS = parse_card("KH").code
JACK_OF_HEARTS = parse_card("JH").code


class Discard(NamedTuple):
    """Discard the cards strictly between the matching cards at row positions ``left`` and
    ``right`` (0-based, in the row as it is now)."""

    left: int
    right: int


#: A move of compulsory Nizhni Novgorod: a discard, or DEAL (the stock's next card).
NizhniMove = Discard | StockMove
#: _DISCARDS[i][j] is Discard(i, j), made once so move generation allocates nothing.
_DISCARDS = tuple(tuple(Discard(i, j) for j in range(_MAX_ROW)) for i in range(_MAX_ROW))
#: The positions in a set of row positions, lowest first: such sets are bit masks read exactly
#: like sets of cards.
_positions_in = codes_in
#: The compiled kernels' states (rulesets/_royal_marriage.pyx): their size in bytes, and the code
#: of a deal; a discard is ``left << 6 | right``.
_STATE_SIZE, _DEAL_CODE = 56, 4096


def _discard_of(code: int) -> Discard:
    """The discard a kernel numbers ``code``."""
    return _DISCARDS[code >> 6][code & 63]


def _encoded(first: int, second: int, cards: tuple[int, ...]) -> bytes:
    """A kernel's state: its two header bytes, then the cards, zero padded."""
    return bytes((first, second, *cards)).ljust(_STATE_SIZE, b"\0")


# --- which cards between a matching pair may go ------------------------------------------------


class Masks:
    """Bit masks over the positions of one row: cards of each suit, cards matching each card."""

    def __init__(self, row: Sequence[int]) -> None:
        suits = [0] * 4
        ranks = [0] * 14
        for position, code in enumerate(row):
            suits[SUIT[code]] |= 1 << position
            ranks[RANK[code]] |= 1 << position
        self.suit = [suits[SUIT[code]] for code in row]
        self.match = [suits[SUIT[code]] | ranks[RANK[code]] for code in row]


class Removal:
    """A rule for which cards lying between two matching cards may be discarded together.

    ``spans(row, i)`` lists every ``j`` such that the cards ``row[i+1:j]`` may go if ``row[i]``
    and ``row[j]`` match (the caller checks that match).

    For :func:`analyse`: ``reach(p, ...)`` is called for ``p`` from right to left, once
    ``clear[p]`` and everything to the right of ``p`` are known; it returns the positions ``j``
    on which a group of survivors starting at ``p`` can close (``p`` the first survivor, each
    gap clearable, the group one the rule lets go), keeping what it needs in ``tables`` (made by
    ``tables(size)``, one per analysis). ``survivors(i, j, ...)`` names one such group.
    """

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        raise NotImplementedError

    def tables(self, size: int) -> Any:
        return None

    def reach(self, p: int, clear: list[int], masks: Masks, tables: Any) -> int:
        raise NotImplementedError

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, tables: Any) -> list[int]:
        raise NotImplementedError


def _two_survivors(i: int, j: int, clear: list[int]) -> list[int] | None:
    """Two survivors ``p, q`` with gaps ``i..p, p..q, q..j`` all clearable, if there are."""
    for p in _positions_in(clear[i]):
        for q in _positions_in(clear[p]):
            if clear[q] >> j & 1:
                return [p, q]
    return None


class OneOrTwo(Removal):
    """Royal Marriage: one or two cards between a matching pair go; with ``all_same_suit``, also
    more than two if they all share one suit."""

    def __init__(self, all_same_suit: bool = False) -> None:
        self.all_same_suit = all_same_suit

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        end = len(row)
        for j in (i + 2, i + 3):
            if j < end:
                yield j
        if self.all_same_suit and i + 4 < end:
            suit = SUIT[row[i + 1]]
            if SUIT[row[i + 2]] == suit:
                j = i + 3
                while j < end - 1 and SUIT[row[j]] == suit:
                    j += 1
                    yield j

    def tables(self, size: int) -> list[int]:
        # runs[p]: where a run of survivors all of p's suit, starting at p, can close.
        return [0] * size

    def reach(self, p: int, clear: list[int], masks: Masks, runs: list[int]) -> int:
        found = clear[p]
        for q in _positions_in(clear[p]):
            found |= clear[q]
        if self.all_same_suit:
            run = clear[p]
            for q in _positions_in(clear[p] & masks.suit[p]):
                run |= runs[q]
            runs[p] = run
            found |= run
        return found

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, runs: list[int]) -> list[int]:
        for p in _positions_in(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        two = _two_survivors(i, j, clear)
        if two is not None:
            return two
        first = next(p for p in _positions_in(clear[i]) if runs[p] >> j & 1)
        group = [first]
        while not clear[group[-1]] >> j & 1:
            group.append(next(q for q in _positions_in(clear[group[-1]] & masks.suit[first]) if runs[q] >> j & 1))
        return group


_PairTables = tuple[list[int], list[int]]


class LadPairs(Removal):
    """Queen and her Lad: one card between a matching pair goes; or cards that split, from the
    left, into adjacent pairs each sharing suit or rank (one pair or more) all go."""

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        end = len(row)
        if i + 2 < end:
            yield i + 2
        first = i + 1
        while first + 2 < end and MATCH[row[first]][row[first + 1]]:
            yield first + 2
            first += 2

    def tables(self, size: int) -> _PairTables:
        # pairs[p]: where a run of pairs whose first card is p can close;
        # after[q]: where survivors can close once a pair has ended with q.
        return [0] * size, [0] * size

    def reach(self, p: int, clear: list[int], masks: Masks, tables: _PairTables) -> int:
        pairs, after = tables
        closing = clear[p]
        for r in _positions_in(clear[p]):
            closing |= pairs[r]
        after[p] = closing
        run = 0
        for q in _positions_in(clear[p] & masks.match[p]):
            run |= after[q]
        pairs[p] = run
        return clear[p] | run

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, tables: _PairTables) -> list[int]:
        pairs, after = tables
        for p in _positions_in(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        first = next(p for p in _positions_in(clear[i]) if pairs[p] >> j & 1)
        group = []
        while True:
            second = next(q for q in _positions_in(clear[first] & masks.match[first]) if after[q] >> j & 1)
            group += [first, second]
            if clear[second] >> j & 1:
                return group
            first = next(r for r in _positions_in(clear[second]) if pairs[r] >> j & 1)


class InnerTwo(Removal):
    """Nizhni Novgorod: the two inner cards of four consecutive cards whose outer cards match."""

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        if i + 3 < len(row):
            yield i + 3

    def reach(self, p: int, clear: list[int], masks: Masks, tables: Any) -> int:
        found = 0
        for q in _positions_in(clear[p]):
            found |= clear[q]
        return found

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, tables: Any) -> list[int]:
        two = _two_survivors(i, j, clear)
        if two is None:
            raise AssertionError(f"no survivors close {i}..{j}")
        return two


# --- exact analysis of an open row --------------------------------------------------------------


class Analysis(NamedTuple):
    """``clear[i]``: bit mask of the positions ``j > i`` clearable from ``i``; ``fewest[i]``: the
    fewest cards that can be left from position ``i`` to the end of the row, both included."""

    clear: list[int]
    fewest: list[int]
    masks: Masks
    tables: Any


def analyse(row: Sequence[int], removal: Removal) -> Analysis:
    """The clearable pairs of ``row`` and the fewest cards reachable (see the module docstring)."""
    size = len(row)
    masks = Masks(row)
    clear = [0] * size
    reach = [0] * size
    fewest = [1] * size
    tables = removal.tables(size)
    last = size - 1
    reach[last] = removal.reach(last, clear, masks, tables)
    for i in range(last - 1, -1, -1):
        matching = masks.match[i]
        found = 1 << (i + 1)
        # Candidates close a chain of clearable gaps starting at i; reach only holds positions to
        # the right of its start, so taking candidates lowest first sees every chain.
        candidates = reach[i + 1] & matching
        while candidates:
            low = candidates & -candidates
            found |= low
            candidates = (candidates ^ low) | (reach[low.bit_length() - 1] & matching)
        clear[i] = found
        reach[i] = removal.reach(i, clear, masks, tables)
        fewest[i] = 1 + min(fewest[j] for j in _positions_in(found))
    return Analysis(clear, fewest, masks, tables)


def best_move(row: Sequence[int], removal: Removal, analysis: Analysis) -> Discard | None:
    """A move after which the fewest cards reachable is unchanged (None if no move is needed)."""
    clear, fewest = analysis.clear, analysis.fewest
    i = 0
    while i < len(row) - 1:
        j = next(j for j in _positions_in(clear[i]) if fewest[j] == fewest[i] - 1)
        if j > i + 1:
            while True:
                points = [i, *removal.survivors(i, j, clear, analysis.masks, analysis.tables), j]
                gap = next(((a, b) for a, b in itertools.pairwise(points) if b > a + 1), None)
                if gap is None:
                    return _DISCARDS[i][j]
                i, j = gap
        i = j
    return None


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


def _checked_deal(deal: Sequence[Card], ends: RowEnds) -> tuple[int, ...]:
    """The deal's card codes, once its end cards are found in place (else a DealError)."""
    codes = tuple(card.code for card in deal)
    problem = ends.problem(codes)
    if problem is not None:
        raise DealError(problem)
    return codes


def _read_cards(sections: Mapping[str, str], names: Sequence[str], ends: RowEnds) -> list[tuple[int, ...]]:
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


def _describe_discard(row: Sequence[int], move: Discard) -> str:
    between = " ".join(NAME[code] for code in row[move.left + 1 : move.right])
    return f"discard {between} between {NAME[row[move.left]]} and {NAME[row[move.right]]}"


def _parse_discard(row: Sequence[int], text: str, other: str = "") -> Discard:
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
    return _DISCARDS[i][j]


def _row_places(row: Sequence[int]) -> tuple[tuple[Place, ...], ...]:
    """The row as places numbered from 1, one card each, wrapped :data:`_ROW_WIDTH` to a line."""
    places = [Place(str(number), (code,)) for number, code in enumerate(row, 1)]
    return tuple(tuple(places[k : k + _ROW_WIDTH]) for k in range(0, len(places), _ROW_WIDTH))


def _closed_gap(move: Discard) -> frozenset[str]:
    """The place a discard changes: where the gap closed, now holding the right matching card."""
    return frozenset((str(move.left + 2),))


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
        return self._layout(_checked_deal(deal, self.ends))

    def _layout(self, cards: tuple[int, ...]) -> MarriageLayout:
        """The layout of a row where play starts (a deal or a position read)."""
        floor = analyse(cards, self.removal).fewest[0] if self.guided else min(2, len(cards))
        return MarriageLayout(cards, floor)

    def discards(self, row: tuple[int, ...]) -> list[Discard]:
        """Every legal discard, leftmost matching card first, then nearest partner first."""
        found = []
        spans = self.removal.spans
        for i in range(len(row) - 2):
            matches = MATCH[row[i]]
            for j in spans(row, i):
                if matches[row[j]]:
                    found.append(_DISCARDS[i][j])
        return found

    def moves(self, state: MarriageLayout) -> list[Discard]:
        found = self.discards(state.cards)
        if self.guided and found:
            best = best_move(state.cards, self.removal, analyse(state.cards, self.removal))
            if best is not None:
                found.remove(best)
                found.insert(0, best)
        return found

    def apply(self, state: MarriageLayout, move: Discard) -> MarriageLayout:
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
        return _encoded(len(state.cards), state.floor, state.cards)

    def decode(self, code: int) -> Discard:
        return _discard_of(code)

    def describe_move(self, state: MarriageLayout, move: Discard) -> str:
        return _describe_discard(state.cards, move)

    def parse_move(self, state: MarriageLayout, text: str) -> Discard:
        if is_deal(text):
            raise MoveError("this game lays the whole row out at the start: there is nothing to deal")
        return _parse_discard(state.cards, text)

    def picture(self, state: MarriageLayout) -> Picture:
        return Picture(_row_places(state.cards))

    def touched(self, state: MarriageLayout, move: Discard) -> frozenset[str]:
        return _closed_gap(move)

    def write_position(self, state: MarriageLayout) -> str:
        return write_sections([("row", write_card_list(state.cards))])

    def read_position(self, text: str) -> MarriageLayout:
        (row,) = _read_cards(read_sections(text, self.ends.game, ("row",)), ("row",), self.ends)
        return self._layout(row)


# --- Nizhni Novgorod dealt one card at a time, discards compulsory ---------------------------------


class NizhniLayout(NamedTuple):
    """Compulsory Nizhni Novgorod's layout: the row dealt so far (card codes, first card first)
    and the undealt stock, next card first."""

    row: tuple[int, ...]
    stock: tuple[int, ...]


_NIZHNI_ENDS = SameRankEnds()


class CompulsoryNizhni(StockInField):
    """Nizhni Novgorod with ``compulsory=yes``: deal four cards, then one at a time; whenever
    four consecutive cards have matching outer cards, one such pair of inner cards must go (the
    player chooses which four); only when none can go is the next card dealt. The game ends with
    the stock dealt and no discard left."""

    #: The rules fix the stock's last card (it shares the first card's rank), so the player knows
    #: it: it never lies face down (:mod:`rulesets.concealed`), and the face-down cards are those
    #: before it.
    fixed_stock_end = 1

    def stock(self, state: NizhniLayout) -> Sequence[int]:
        return state.stock[:-1]

    def with_stock(self, state: NizhniLayout, stock: Sequence[int]) -> NizhniLayout:
        return state._replace(stock=tuple(stock) + state.stock[-1:])

    def start(self, deal: Sequence[Card]) -> NizhniLayout:
        codes = _checked_deal(deal, _NIZHNI_ENDS)
        return NizhniLayout(codes[:4], codes[4:])

    @staticmethod
    def discards(row: tuple[int, ...]) -> list[Discard]:
        return [_DISCARDS[i][i + 3] for i in range(len(row) - 3) if MATCH[row[i]][row[i + 3]]]

    def moves(self, state: NizhniLayout) -> Sequence[NizhniMove]:
        found = self.discards(state.row)
        if not found and state.stock:
            return [DEAL]
        return found

    def apply(self, state: NizhniLayout, move: NizhniMove) -> NizhniLayout:
        row, stock = state.row, state.stock
        if move is DEAL:
            return NizhniLayout(row + stock[:1], stock[1:])
        assert isinstance(move, Discard)
        return NizhniLayout(row[: move.left + 1] + row[move.right :], stock)

    def is_won(self, state: NizhniLayout) -> bool:
        return len(state.row) == 2 and not state.stock

    def key(self, state: NizhniLayout) -> bytes:
        # The stock is always the rest of the deal in order, so its size says which it is.
        return bytes(state.row) + bytes((len(state.stock),))

    def score(self, state: NizhniLayout) -> int:
        if state.stock or self.discards(state.row):
            return NO_SCORE
        return len(state.row)

    def lower_bound(self, state: NizhniLayout) -> int:
        return 2

    def kernel(self) -> Any:
        from rulesets._royal_marriage import CompulsoryNizhniKernel

        return CompulsoryNizhniKernel()

    def encode(self, state: NizhniLayout) -> bytes:
        """The kernel's state: the cards in the row, the cards left, then the row and the stock."""
        return _encoded(len(state.row), len(state.row) + len(state.stock), state.row + state.stock)

    def decode(self, code: int) -> NizhniMove:
        return DEAL if code == _DEAL_CODE else _discard_of(code)

    def describe_move(self, state: NizhniLayout, move: NizhniMove) -> str:
        if move is DEAL:
            return describe_deal(state.stock[0])
        assert isinstance(move, Discard)
        return _describe_discard(state.row, move)

    def parse_move(self, state: NizhniLayout, text: str) -> NizhniMove:
        if is_deal(text):
            if not state.stock:
                raise MoveError(f"move {quoted_move(text)}: the stock is empty")
            check_deal(text, state.stock[0])
            return DEAL
        return _parse_discard(state.row, text, " or 'deal'")

    def picture(self, state: NizhniLayout) -> Picture:
        stock = Place("stock", face_down=len(state.stock))
        return Picture((*_row_places(state.row), (stock,)))

    def touched(self, state: NizhniLayout, move: NizhniMove) -> frozenset[str]:
        if move is DEAL:
            return frozenset((str(len(state.row) + 1), "stock"))
        assert isinstance(move, Discard)
        return _closed_gap(move)

    def write_position(self, state: NizhniLayout) -> str:
        return write_sections([("row", write_card_list(state.row)), ("stock", write_card_list(state.stock))])

    def read_position(self, text: str) -> NizhniLayout:
        sections = read_sections(text, _NIZHNI_ENDS.game, ("row", "stock"))
        row, stock = _read_cards(sections, ("row", "stock"), _NIZHNI_ENDS)
        if stock and len(row) < 2:
            raise PositionError(
                f"{_NIZHNI_ENDS.game}: the row holds {len(row)} card(s) while cards remain to deal, but "
                "play always keeps at least two there (the first card and the last one dealt)"
            )
        return NizhniLayout(row, stock)


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
    return OpenMarriageRow(InnerTwo(), _NIZHNI_ENDS)


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
        variants=(Variant("nizhni-novgorod", "discards compulsory, no skill required (Standard Hoyle 1904)", {}),),
        build=build_nizhni,
        arrange=_NIZHNI_ENDS.arrange,
    ),
)
