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
out first; these games are played on the open row (:class:`OpenRow`, a tuple of card codes; the
tests show the equivalence on small decks against a brute force that deals one card at a time).
Nizhni Novgorod with ``compulsory=yes`` deals one card at a time and must discard whenever it can
(:class:`CompulsoryDeal`).

The open row is solved exactly by an interval analysis (:func:`analyse`, the ``guided``
reduction of :class:`OpenRow`). Call a pair of row positions ``i < j`` *clearable* when every
card strictly between them can be discarded while both stay. While ``i`` and ``j`` stay, a move
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
minimum is a lower bound for every state reached from it (carried in the state as ``floor``),
and :meth:`OpenRow.moves` puts first a move that keeps that minimum reachable, so the depth-first
search walks straight to an optimal layout and every other branch is cut by the bound.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Mapping, NamedTuple, Sequence

from rulesets.accordion import MATCH
from rulesets.cards import CARDS, Card, CardError, parse_card
from rulesets.family import Family, Option, Variant
from rulesets.notation import MoveError
from solver.protocol import NO_SCORE

_MAX_ROW = 52
QUEEN_OF_HEARTS = parse_card("QH")
KING_OF_HEARTS = parse_card("KH")
JACK_OF_HEARTS = parse_card("JH")
#: SUIT[code], RANK[code]: a card's suit index (0..3) and rank (1..13) by code.
SUIT: tuple[int, ...] = tuple(code // 13 for code in range(52))
RANK: tuple[int, ...] = tuple(code % 13 + 1 for code in range(52))


class DealError(CardError):
    """A deal that does not carry this game's fixed end cards where the layout needs them."""


class Move(NamedTuple):
    """Discard the cards strictly between row positions ``left`` and ``right`` (0-based, in the
    row as it is now); ``left == -1`` is dealing the next card (compulsory Nizhni Novgorod)."""

    left: int
    right: int


DEAL = Move(-1, -1)
#: _MOVES[i][j] is Move(i, j), made once so move generation allocates nothing.
_MOVES = tuple(tuple(Move(i, j) for j in range(_MAX_ROW)) for i in range(_MAX_ROW))


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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
    for p in _bits(clear[i]):
        for q in _bits(clear[p]):
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
        for q in _bits(clear[p]):
            found |= clear[q]
        if self.all_same_suit:
            run = clear[p]
            for q in _bits(clear[p] & masks.suit[p]):
                run |= runs[q]
            runs[p] = run
            found |= run
        return found

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, runs: list[int]) -> list[int]:
        for p in _bits(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        two = _two_survivors(i, j, clear)
        if two is not None:
            return two
        first = next(p for p in _bits(clear[i]) if runs[p] >> j & 1)
        group = [first]
        while not clear[group[-1]] >> j & 1:
            group.append(next(q for q in _bits(clear[group[-1]] & masks.suit[first]) if runs[q] >> j & 1))
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
        for r in _bits(clear[p]):
            closing |= pairs[r]
        after[p] = closing
        run = 0
        for q in _bits(clear[p] & masks.match[p]):
            run |= after[q]
        pairs[p] = run
        return clear[p] | run

    def survivors(self, i: int, j: int, clear: list[int], masks: Masks, tables: _PairTables) -> list[int]:
        pairs, after = tables
        for p in _bits(clear[i]):
            if clear[p] >> j & 1:
                return [p]
        first = next(p for p in _bits(clear[i]) if pairs[p] >> j & 1)
        group = []
        while True:
            second = next(q for q in _bits(clear[first] & masks.match[first]) if after[q] >> j & 1)
            group += [first, second]
            if clear[second] >> j & 1:
                return group
            first = next(r for r in _bits(clear[second]) if pairs[r] >> j & 1)


class InnerTwo(Removal):
    """Nizhni Novgorod: the two inner cards of four consecutive cards whose outer cards match."""

    def spans(self, row: Sequence[int], i: int) -> Iterator[int]:
        if i + 3 < len(row):
            yield i + 3

    def reach(self, p: int, clear: list[int], masks: Masks, tables: Any) -> int:
        found = 0
        for q in _bits(clear[p]):
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
        fewest[i] = 1 + min(fewest[j] for j in _bits(found))
    return Analysis(clear, fewest, masks, tables)


def best_move(row: Sequence[int], removal: Removal, analysis: Analysis) -> Move | None:
    """A move after which the fewest cards reachable is unchanged (None if no move is needed)."""
    clear, fewest, masks, tables = analysis
    i = 0
    while i < len(row) - 1:
        j = next(j for j in _bits(clear[i]) if fewest[j] == fewest[i] - 1)
        if j > i + 1:
            while True:
                points = [i, *removal.survivors(i, j, clear, masks, tables), j]
                gap = next(((a, b) for a, b in zip(points, points[1:]) if b > a + 1), None)
                if gap is None:
                    return _MOVES[i][j]
                i, j = gap
        i = j
    return None


# --- fixed end cards ------------------------------------------------------------------------------


Check = Callable[[Sequence[Card]], None]
Arrange = Callable[[list[Card]], list[Card]]


def fixed_ends(game: str, first: Card, last: Card) -> tuple[Check, Arrange]:
    """The check of an explicit row and the arrangement of a seeded deal for a game whose row
    runs from ``first`` to ``last``: a seeded deal moves ``first`` to the front and ``last`` to
    the end, the other cards keeping their deal order (PySolFC's Royal Marriage)."""

    def check(row: Sequence[Card]) -> None:
        for card, place, wanted in ((first, "first", 0), (last, "last", len(row) - 1)):
            if card not in row:
                raise DealError(f"{game}: the row must hold {card}, its {place} card")
            position = list(row).index(card)
            if position != wanted:
                raise DealError(
                    f"{game}: {card} must be the {place} card of the row, but it is card {position + 1} "
                    f"of {len(row)} ({row[wanted]} is {place})"
                )

    def arrange(deal: list[Card]) -> list[Card]:
        return [first] + [card for card in deal if card not in (first, last)] + [last]

    return check, arrange


def check_same_rank_ends(row: Sequence[Card]) -> None:
    """Nizhni Novgorod's row must end with a card of the first card's rank."""
    if len(row) < 2:
        raise DealError("nizhni-novgorod: the row needs at least its two end cards")
    if row[-1].rank != row[0].rank:
        raise DealError(
            f"nizhni-novgorod: the last card must share the rank of the first card {row[0]}, "
            f"but it is {row[-1]}"
        )


def nizhni_arrange(deal: list[Card]) -> list[Card]:
    """The first card stays first; the next card of the same rank is moved to the very end."""
    later = next(i for i in range(1, len(deal)) if deal[i].rank == deal[0].rank)
    return deal[:later] + deal[later + 1 :] + [deal[later]]


# --- notation -----------------------------------------------------------------------------------


def _name(code: int) -> str:
    return str(CARDS[code])


def _describe_discard(row: Sequence[int], move: Move) -> str:
    between = " ".join(_name(code) for code in row[move.left + 1 : move.right])
    return f"discard {between} between {_name(row[move.left])} and {_name(row[move.right])}"


_DISCARD = re.compile(r"^\s*discard\s+(.+?)\s+between\s+(\S+)\s+and\s+(\S+)\s*$", re.IGNORECASE)


def _card_code(text: str, move_text: str) -> int:
    try:
        return parse_card(text).code
    except CardError as error:
        raise MoveError(f"move {move_text!r}: {error}") from None


def _parse_discard(row: Sequence[int], text: str, other: str = "") -> Move:
    """The discard written as ``text``; ``other`` names the game's other moves for the hint."""
    found = _DISCARD.match(text)
    shown = text.strip()
    if not found:
        raise MoveError(f"cannot read move {shown!r}: write e.g. 'discard 7C 9C between 7H and 2H'{other}")
    between = [_card_code(word, shown) for word in found.group(1).split()]
    left, right = (_card_code(found.group(k), shown) for k in (2, 3))
    for code in (left, right, *between):
        if code not in row:
            raise MoveError(f"move {shown!r}: {_name(code)} is not in the row")
    i, j = row.index(left), row.index(right)
    if i >= j:
        raise MoveError(f"move {shown!r}: {_name(left)} does not lie left of {_name(right)}")
    if sorted(between) != sorted(row[i + 1 : j]):
        lying = " ".join(_name(code) for code in row[i + 1 : j]) or "no cards"
        raise MoveError(f"move {shown!r}: the cards between {_name(left)} and {_name(right)} are {lying}")
    return _MOVES[i][j]


def _render(row: Sequence[int]) -> str:
    return " ".join(_name(code) for code in row)


# --- the open row ---------------------------------------------------------------------------------


class Row(NamedTuple):
    """An open row of card codes, first card first, and the fewest cards the start can reach
    (or a weaker lower bound): every state of one game carries its start's ``floor``."""

    cards: tuple[int, ...]
    floor: int


class OpenRow:
    """A row laid out in full between two fixed end cards; the player discards cards lying
    between matching cards as ``removal`` allows, at will, and may stop at any time.

    Reduction ``guided`` (default on): the floor is the start's exact fewest-cards-left from
    :func:`analyse`, and moves() puts first a move that keeps it reachable. Off: floor 2 and moves
    in row order (plain exhaustive search); the tests show both give the same verdicts and scores.
    """

    def __init__(self, removal: Removal, check: Check, guided: bool = True) -> None:
        self.removal = removal
        self.check = check
        self.guided = guided

    def start(self, deal: Sequence[Card]) -> Row:
        self.check(deal)
        cards = tuple(card.code for card in deal)
        floor = analyse(cards, self.removal).fewest[0] if self.guided else min(2, len(cards))
        return Row(cards, floor)

    def discards(self, row: tuple[int, ...]) -> list[Move]:
        """Every legal discard, leftmost matching card first, then nearest partner first."""
        found = []
        spans = self.removal.spans
        for i in range(len(row) - 2):
            matches = MATCH[row[i]]
            for j in spans(row, i):
                if matches[row[j]]:
                    found.append(_MOVES[i][j])
        return found

    def moves(self, state: Row) -> list[Move]:
        found = self.discards(state.cards)
        if self.guided and found:
            best = best_move(state.cards, self.removal, analyse(state.cards, self.removal))
            if best is not None:
                found.remove(best)
                found.insert(0, best)
        return found

    def apply(self, state: Row, move: Move) -> Row:
        cards = state.cards
        return Row(cards[: move.left + 1] + cards[move.right :], state.floor)

    def is_won(self, state: Row) -> bool:
        return len(state.cards) == 2

    def key(self, state: Row) -> bytes:
        return bytes(state.cards)

    def score(self, state: Row) -> int:
        return len(state.cards)

    def lower_bound(self, state: Row) -> int:
        return state.floor

    def describe_move(self, state: Row, move: Move) -> str:
        return _describe_discard(state.cards, move)

    def parse_move(self, state: Row, text: str) -> Move:
        if text.lower().split()[:1] == ["deal"]:
            raise MoveError("this game lays the whole row out at the start: there is nothing to deal")
        return _parse_discard(state.cards, text)

    def render(self, state: Row) -> str:
        return _render(state.cards)


# --- Nizhni Novgorod dealt one card at a time, discards compulsory ---------------------------------


class Dealt(NamedTuple):
    """The row dealt so far (card codes, first card first) and the undealt stock, next card first."""

    row: tuple[int, ...]
    stock: tuple[int, ...]


class CompulsoryDeal:
    """Nizhni Novgorod with ``compulsory=yes``: deal four cards, then one at a time; whenever
    four consecutive cards have matching outer cards, one such pair of inner cards must go (the
    player chooses which four); only when none can go is the next card dealt. The game ends with
    the stock dealt and no discard left."""

    def start(self, deal: Sequence[Card]) -> Dealt:
        check_same_rank_ends(deal)
        codes = tuple(card.code for card in deal)
        return Dealt(codes[:4], codes[4:])

    @staticmethod
    def discards(row: tuple[int, ...]) -> list[Move]:
        return [_MOVES[i][i + 3] for i in range(len(row) - 3) if MATCH[row[i]][row[i + 3]]]

    def moves(self, state: Dealt) -> list[Move]:
        found = self.discards(state.row)
        if not found and state.stock:
            return [DEAL]
        return found

    def apply(self, state: Dealt, move: Move) -> Dealt:
        row, stock = state
        if move.left < 0:
            return Dealt(row + stock[:1], stock[1:])
        return Dealt(row[: move.left + 1] + row[move.right :], stock)

    def is_won(self, state: Dealt) -> bool:
        return len(state.row) == 2 and not state.stock

    def key(self, state: Dealt) -> bytes:
        # The stock is always the rest of the deal in order, so its size says which it is.
        return bytes(state.row) + bytes((len(state.stock),))

    def score(self, state: Dealt) -> int:
        if state.stock or self.discards(state.row):
            return NO_SCORE
        return len(state.row)

    def lower_bound(self, state: Dealt) -> int:
        return 2

    def describe_move(self, state: Dealt, move: Move) -> str:
        if move.left < 0:
            return f"deal {_name(state.stock[0])}"
        return _describe_discard(state.row, move)

    def parse_move(self, state: Dealt, text: str) -> Move:
        words = text.split()
        if words[:1] and words[0].lower() == "deal":
            if not state.stock:
                raise MoveError(f"move {text.strip()!r}: the stock is empty")
            if len(words) > 2 or (len(words) == 2 and _card_code(words[1], text.strip()) != state.stock[0]):
                raise MoveError(f"move {text.strip()!r}: the next card of the stock is {_name(state.stock[0])}")
            return DEAL
        return _parse_discard(state.row, text, " or 'deal'")

    def render(self, state: Dealt) -> str:
        return _render(state.row) + f"   [stock: {len(state.stock)}]"


# --- the families -----------------------------------------------------------------------------------

_check_royal, _arrange_royal = fixed_ends("royal-marriage", QUEEN_OF_HEARTS, KING_OF_HEARTS)
_check_lad, _arrange_lad = fixed_ends("queen-and-her-lad", QUEEN_OF_HEARTS, JACK_OF_HEARTS)

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


def build_royal(settings: Mapping[str, Any]) -> OpenRow:
    return OpenRow(OneOrTwo(settings["all_same_suit"]), _check_royal)


def build_lad(settings: Mapping[str, Any]) -> OpenRow:
    return OpenRow(LadPairs(), _check_lad)


def build_nizhni(settings: Mapping[str, Any]) -> OpenRow | CompulsoryDeal:
    if settings["compulsory"]:
        return CompulsoryDeal()
    return OpenRow(InnerTwo(), check_same_rank_ends)


_SCORE_RULE = (
    "Score: cards not discarded, the two end cards (and any undealt cards) included; 2 is a win.\n"
    "The solver reports the fewest cards reachable."
)
_EXPLICIT_ROW = (
    "A deal given with --deal or --file is the row as laid out, first card first, and must\n"
    "already carry the end cards in place; --seed N is PySolFC's deal N with the end cards moved."
)

FAMILIES = (
    Family(
        name="royal-marriage",
        summary="discard one or two cards between matching cards until only QH and KH remain",
        rules=(
            "Lay out a row: QH first, then the other 50 cards in deal order, KH last. When one or\n"
            "two cards lie between two cards that share suit or rank, those cards may be discarded;\n"
            "gaps close. Won when only QH and KH remain. Moves are optional and may be made in any\n"
            "order (dealing one card at a time with optional moves comes to the same).\n"
            + _SCORE_RULE + "\n" + _EXPLICIT_ROW + "\n"
            "Moves are written 'discard 7C 9C between 7H and 2H'."
        ),
        options=_ROYAL_OPTIONS,
        variants=(
            Variant("royal-marriage", "one or two cards between a matching pair (also Betrothal, Coquette)"),
        ),
        build=build_royal,
        arrange=_arrange_royal,
    ),
    Family(
        name="queen-and-her-lad",
        summary="Royal Marriage ending with JH, discarding single cards or matching pairs",
        rules=(
            "Lay out a row: QH first, then the other 50 cards in deal order, JH (the Lad) last.\n"
            "Between two cards that share suit or rank, a single card may be discarded; or cards\n"
            "that split, from the left, into adjacent pairs that each share suit or rank may all\n"
            "be discarded (one pair or more). Gaps close. Won when only QH and JH remain. Moves are\n"
            "optional and may be made in any order.\n"
            + _SCORE_RULE + "\n" + _EXPLICIT_ROW + "\n"
            "Moves are written 'discard 7C 9C between 7H and 2H'."
        ),
        options=(),
        variants=(Variant("queen-and-her-lad", "Mary Whitmore Jones (1892)"),),
        build=build_lad,
        arrange=_arrange_lad,
    ),
    Family(
        name="nizhni-novgorod",
        summary="deal a row; discard the two inner cards of four whose outer cards match",
        rules=(
            "Setup: the first card of the deal stays first; the next card of the same rank is\n"
            "moved to the very end. Deal four cards into a row, then one at a time. Whenever four\n"
            "consecutive cards have outer cards of the same suit or rank, the two inner cards may\n"
            "be discarded (gaps close); otherwise deal the next card. Won when the last discard\n"
            "leaves only the two end cards.\n"
            + _SCORE_RULE + "\n"
            "A deal given with --deal or --file is the deck as dealt after the setup, first card\n"
            "first: its last card must share the first card's rank (it is not rearranged again);\n"
            "--seed N is PySolFC's deal N with the setup applied. With compulsory=no dealing is free,\n"
            "which comes to the same as laying the whole row out first, and the solver plays so.\n"
            "Moves are written 'discard 7C 9C between 7H and 2H' and 'deal 5C'."
        ),
        options=_NIZHNI_OPTIONS,
        variants=(Variant("nizhni-novgorod", "discards compulsory, no skill required (Standard Hoyle 1904)"),),
        build=build_nizhni,
        arrange=nizhni_arrange,
    ),
)
