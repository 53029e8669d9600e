"""The exact analysis of an open row of Royal Marriage and its relatives: which cards lying
between a matching pair may go (a :class:`Removal`), and the fewest cards any play can leave.

The open row is solved exactly by an interval analysis (:func:`analyse`, the ``guided``
reduction of :class:`~rulesets.royal_marriage.OpenMarriageRow`). Call a pair of row positions ``i < j`` *clearable* when
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
and :meth:`~rulesets.royal_marriage.OpenMarriageRow.moves` puts first a move that keeps that
minimum reachable, so the depth-first search walks straight to an optimal layout and every other
branch is cut by the bound.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from rulesets.cards import MATCH, RANK, SUIT, codes_in

_MAX_ROW = 52


class DiscardBetween(NamedTuple):
    """Discard the cards strictly between the matching cards at row positions ``left`` and
    ``right`` (0-based, in the row as it is now)."""

    left: int
    right: int


#: DISCARDS[i][j] is DiscardBetween(i, j), made once so move generation allocates nothing.
DISCARDS = tuple(tuple(DiscardBetween(i, j) for j in range(_MAX_ROW)) for i in range(_MAX_ROW))
#: The positions in a set of row positions, lowest first: such sets are bit masks read exactly
#: like sets of cards.
positions_in = codes_in


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
    for p in positions_in(clear[i]):
        for q in positions_in(clear[p]):
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
        for q in positions_in(clear[p]):
            found |= clear[q]
        if self.all_same_suit:
            run = clear[p]
            for q in positions_in(clear[p] & masks.suit[p]):
                run |= runs[q]
            runs[p] = run
            found |= run
        return found

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, runs: list[int]) -> list[int]:
        for p in positions_in(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        two = _two_survivors(i, j, clear)
        if two is not None:
            return two
        first = next(p for p in positions_in(clear[i]) if runs[p] >> j & 1)
        group = [first]
        while not clear[group[-1]] >> j & 1:
            group.append(next(q for q in positions_in(clear[group[-1]] & masks.suit[first]) if runs[q] >> j & 1))
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
        for r in positions_in(clear[p]):
            closing |= pairs[r]
        after[p] = closing
        run = 0
        for q in positions_in(clear[p] & masks.match[p]):
            run |= after[q]
        pairs[p] = run
        return clear[p] | run

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, tables: _PairTables) -> list[int]:
        pairs, after = tables
        for p in positions_in(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        first = next(p for p in positions_in(clear[i]) if pairs[p] >> j & 1)
        group = []
        while True:
            second = next(q for q in positions_in(clear[first] & masks.match[first]) if after[q] >> j & 1)
            group += [first, second]
            if clear[second] >> j & 1:
                return group
            first = next(r for r in positions_in(clear[second]) if pairs[r] >> j & 1)


class InnerTwo(Removal):
    """Nizhni Novgorod: the two inner cards of four consecutive cards whose outer cards match."""

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        if i + 3 < len(row):
            yield i + 3

    def reach(self, p: int, clear: list[int], masks: Masks, tables: Any) -> int:
        found = 0
        for q in positions_in(clear[p]):
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
        fewest[i] = 1 + min(fewest[j] for j in positions_in(found))
    return Analysis(clear, fewest, masks, tables)


def best_move(row: Sequence[int], removal: Removal, analysis: Analysis) -> DiscardBetween | None:
    """A move after which the fewest cards reachable is unchanged (None if no move is needed)."""
    clear, fewest = analysis.clear, analysis.fewest
    i = 0
    while i < len(row) - 1:
        j = next(j for j in positions_in(clear[i]) if fewest[j] == fewest[i] - 1)
        if j > i + 1:
            while True:
                points = [i, *removal.survivors(i, j, clear, analysis.masks, analysis.tables), j]
                gap = next(((a, b) for a, b in itertools.pairwise(points) if b > a + 1), None)
                if gap is None:
                    return DISCARDS[i][j]
                i, j = gap
        i = j
    return None
