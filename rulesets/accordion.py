"""Accordion and its historic variants: piles in a row merge onto a matching pile 1 or 3 to the left.

Only each pile's top card matters for the future, so a layout is the tuple of top-card codes
(see :attr:`rulesets.cards.Card.code`), leftmost first. The default variant lets the player deal
or move at any time; moves only look left, so that is the same as dealing the whole deck first
(:class:`OpenRow`, shown equal to :class:`DealtRow` in the tests). The stricter variants deal one
card at a time (:class:`DealtRow`).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple, Sequence

from rulesets.cards import CARDS, Card, CardError, parse_card
from rulesets.family import Family, Option, Variant
from rulesets.notation import MoveError
from solver.protocol import NO_SCORE

SLIDE, LEAP = 1, 3
_MAX_PILES = 52


class Move(NamedTuple):
    """Pile ``pile`` (0-based, left to right) goes onto the pile ``distance`` to its left;
    distance 0 is dealing the next card of the stock."""

    pile: int
    distance: int


DEAL = Move(-1, 0)
_SLIDES = tuple(Move(i, SLIDE) for i in range(_MAX_PILES))
_LEAPS = tuple(Move(i, LEAP) for i in range(_MAX_PILES))
#: MATCH[a][b]: cards with codes a and b share suit or rank.
MATCH: tuple[tuple[bool, ...], ...] = tuple(
    tuple(a.suit == b.suit or a.rank == b.rank for b in CARDS) for a in CARDS
)


def _name(code: int) -> str:
    return str(CARDS[code])


def _render_row(row: Sequence[int]) -> str:
    return " ".join(_name(code) for code in row)


def _describe(row: Sequence[int], move: Move) -> str:
    kind = "slide" if move.distance == SLIDE else "leap"
    return f"{_name(row[move.pile])} -> {_name(row[move.pile - move.distance])} ({kind})"


_MOVE_TEXT = re.compile(r"^\s*(\S+)\s*->\s*(\S+)\s*(?:\((slide|leap)\))?\s*$", re.IGNORECASE)


def _parse_pile_move(row: Sequence[int], text: str) -> Move:
    found = _MOVE_TEXT.match(text)
    if not found:
        raise MoveError(f"cannot read move {text.strip()!r}: write e.g. '4D -> 4S (leap)' or 'deal'")
    moving, target = parse_card(found.group(1)).code, parse_card(found.group(2)).code
    for code in (moving, target):
        if code not in row:
            raise MoveError(f"move {text.strip()!r}: {_name(code)} is not the top of a pile")
    pile, onto = row.index(moving), row.index(target)
    kind = found.group(3)
    if kind and {"slide": SLIDE, "leap": LEAP}[kind.lower()] != pile - onto:
        raise MoveError(f"move {text.strip()!r}: {_name(target)} is not a {kind.lower()} away from {_name(moving)}")
    return Move(pile, pile - onto)


#: Card code -> its bit in a set of cards laid out rank-major: rank r's four suits (CDHS) are the
#: nibble at bit 4r, so any 16 bits hold the suits of four whole ranks.
_CARD_BIT = tuple(1 << (4 * (code % 13) + code // 13) for code in range(52))
_SUIT_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _count_groups(present: Sequence[bool], linked: Sequence[bool]) -> int:
    """Groups among the present suits, where ``linked`` says which of the six suit pairs share a rank."""
    group = list(range(4))
    for (a, b), link in zip(_SUIT_PAIRS, linked):
        if link and present[a] and present[b]:
            old, new = group[b], group[a]
            group = [new if g == old else g for g in group]
    return len({group[suit] for suit in range(4) if present[suit]})


#: Indexed by 4 bits of suits present and 6 bits of suit pairs sharing a rank.
_GROUPS = tuple(
    _count_groups([index >> suit & 1 == 1 for suit in range(4)], [index >> (4 + pair) & 1 == 1 for pair in range(6)])
    for index in range(1024)
)


def _links(suits: int) -> int:
    """The suits present and the suit pairs sharing a rank (an index of _GROUPS) for one rank's suits."""
    return suits | sum(1 << (4 + pair) for pair, (a, b) in enumerate(_SUIT_PAIRS) if suits >> a & suits >> b & 1)


def _chunk_links() -> tuple[int, ...]:
    """16 bits of the card set (four ranks) -> the _GROUPS index they contribute (OR-ed together)."""
    small = list(range(1024))  # one int object per value, shared by every entry
    table = nibble = [_links(suits) for suits in range(16)]
    for _ in range(3):
        table = [nibble[bits & 15] | table[bits >> 4] for bits in range(16 * len(table))]
    return tuple(small[links] for links in table)


_CHUNK_LINKS = _chunk_links()


def connected_groups(cards: int) -> int:
    """How many groups the cards form when cards sharing suit or rank are linked (transitively).

    Groups never join again: a move only covers a card, and covered cards never return. So this
    is a lower bound on the piles left, and a proof of loss once it exceeds one. Four table
    look-ups, one per four ranks, give which suits are present and which pairs share a rank.
    """
    return _GROUPS[
        _CHUNK_LINKS[cards & 0xFFFF] | _CHUNK_LINKS[cards >> 16 & 0xFFFF]
        | _CHUNK_LINKS[cards >> 32 & 0xFFFF] | _CHUNK_LINKS[cards >> 48]
    ]


#: Card code -> a byte of suit (high nibble) and rank (low nibble), neither zero.
_NIBBLES = bytes((code // 13 + 1) << 4 | (code % 13 + 1) for code in range(52)) + bytes(256 - 52)
#: For a row of n cards, twice over (leaps above slides): 0x0F in each of 2n bytes, and 0x10 (the
#: carry out of a nibble) in each.
_LOW_NIBBLES = tuple(int.from_bytes(b"\x0f" * 2 * size, "big") for size in range(_MAX_PILES + 1))
_MARKS = tuple(int.from_bytes(b"\x10" * 2 * size, "big") for size in range(_MAX_PILES + 1))
#: For a row of n cards, the move each of the 2n bytes stands for, counted from the lowest byte:
#: slides from the rightmost pile to the leftmost, then leaps likewise.
_BYTE_MOVES = tuple(
    tuple(_SLIDES[size - 1 - byte] for byte in range(size)) + tuple(_LEAPS[size - 1 - byte] for byte in range(size))
    for size in range(_MAX_PILES + 1)
)


def _cover(covered: int, moving: int) -> bytes:
    """The byte map (for bytes.translate) that puts the moving card in the covered card's place."""
    table = bytearray(range(256))
    table[covered] = moving
    return bytes(table)


_COVER = tuple(tuple(_cover(covered, moving) for moving in range(52)) for covered in range(52))
_ALONE = tuple(bytes((code,)) for code in range(52))

#: A layout of the open row: the top-card codes left to right (bytes: compact, and already the
#: layout key), and the same cards as a bit set for the connectivity bound.
OpenLayout = tuple[bytes, int]


class OpenRow:
    """Default Accordion with the whole deck dealt: the player moves at will, any legal move.

    The bound on piles left is :func:`connected_groups`.
    """

    def start(self, deal: Sequence[Card]) -> OpenLayout:
        row = bytes(card.code for card in deal)
        if len(set(row)) != len(row):
            raise CardError("an Accordion deal holds each card at most once")
        return row, sum(_CARD_BIT[code] for code in row)

    def moves(self, layout: OpenLayout) -> list[Move]:
        """Leaps first, then slides, each leftmost first: the order that found wins soonest on
        the reference deals (see benchmarks/accordion_reference.py).

        The row is compared with itself shifted by one and by three cards all at once: each card
        becomes a byte (suit and rank nibbles) of one big integer, and a nibble that XORs to zero
        marks a shared suit or rank. Both comparisons sit side by side in one integer (leaps in
        the upper half), so they share the nibble tests and one loop reads the moves off from
        the top. Rows with few moves, the common case deep in a search, cost a handful of
        integer operations instead of a loop over every pile.
        """
        row = layout[0]
        size = len(row)
        cards = int.from_bytes(row.translate(_NIBBLES), "big")
        low, marks = _LOW_NIBBLES[size], _MARKS[size]
        differ = (cards ^ cards >> 24) << 8 * size | cards ^ cards >> 8
        same = marks ^ (((differ & low) + low) & ((differ >> 4 & low) + low) & marks)
        found = []
        if same:
            byte_moves = _BYTE_MOVES[size]
            while same:
                top = same.bit_length() - 1
                found.append(byte_moves[top >> 3])
                same ^= 1 << top
        return found

    def apply(self, layout: OpenLayout, move: Move) -> OpenLayout:
        """One C call for slides and leaps alike: the row's cards are distinct, so deleting the
        moving card and mapping the covered card to it is the move."""
        row, cards = layout
        pile, distance = move
        covered, moving = row[pile - distance], row[pile]
        return row.translate(_COVER[covered][moving], _ALONE[moving]), cards ^ _CARD_BIT[covered]

    def is_won(self, layout: OpenLayout) -> bool:
        return len(layout[0]) == 1

    def key(self, layout: OpenLayout) -> bytes:
        return layout[0]

    def score(self, layout: OpenLayout) -> int:
        return len(layout[0])

    @staticmethod
    def lower_bound(layout: OpenLayout) -> int:
        """:func:`connected_groups`, inlined: it is computed for nearly every state the search meets."""
        cards = layout[1]
        return _GROUPS[
            _CHUNK_LINKS[cards & 0xFFFF] | _CHUNK_LINKS[cards >> 16 & 0xFFFF]
            | _CHUNK_LINKS[cards >> 32 & 0xFFFF] | _CHUNK_LINKS[cards >> 48]
        ]

    def describe_move(self, layout: OpenLayout, move: Move) -> str:
        return _describe(layout[0], move)

    def parse_move(self, layout: OpenLayout, text: str) -> Move:
        return _parse_pile_move(layout[0], text)

    def render(self, layout: OpenLayout) -> str:
        return _render_row(layout[0])


class Dealt(NamedTuple):
    """A layout dealt one card at a time: the row of top-card codes and the undealt stock."""

    row: bytes
    stock: bytes


class DealtRow:
    """Accordion dealt one card at a time, under any combination of the historic rule options."""

    def __init__(
        self,
        compulsory: bool = False,
        nearest: bool = False,
        leap_only_without_slide: bool = False,
        order: str = "choice",
    ) -> None:
        self.compulsory = compulsory
        self.nearest = nearest
        self.leap_only_without_slide = leap_only_without_slide
        self.leftmost = order == "leftmost"

    def start(self, deal: Sequence[Card]) -> Dealt:
        codes = bytes(card.code for card in deal)
        return Dealt(codes[:1], codes[1:])

    def pile_moves(self, row: bytes) -> list[Move]:
        """The pile moves the options allow, before compulsion decides whether dealing is open."""
        slides, leaps = [], []
        for pile in range(1, len(row)):
            matches = MATCH[row[pile]]
            slides.append(matches[row[pile - 1]])
            leaps.append(pile >= 3 and matches[row[pile - 3]])
        if self.leap_only_without_slide and any(slides):
            leaps = [False] * len(leaps)
        found = []
        for pile, (slide, leap) in enumerate(zip(slides, leaps), 1):
            if slide:
                found.append(_SLIDES[pile])
            if leap and not (slide and self.nearest):
                found.append(_LEAPS[pile])
            if found and self.leftmost:
                return found[:1]
        return found

    def moves(self, state: Dealt) -> list[Move]:
        found = self.pile_moves(state.row)
        if state.stock and not (found and self.compulsory):
            found.append(DEAL)
        return found

    def apply(self, state: Dealt, move: Move) -> Dealt:
        row, stock = state
        if move.distance == 0:
            return Dealt(row + stock[:1], stock[1:])
        pile, onto = move.pile, move.pile - move.distance
        return Dealt(row[:onto] + row[pile : pile + 1] + row[onto + 1 : pile] + row[pile + 1 :], stock)

    def is_won(self, state: Dealt) -> bool:
        return len(state.row) == 1 and not state.stock

    def key(self, state: Dealt) -> bytes:
        return state.row + b"|" + state.stock

    def score(self, state: Dealt) -> int:
        """Piles at the end of the game, or NO_SCORE where it cannot end: every variant ends only
        with the whole deck dealt (so a reported line always deals the last card), and under
        ``compulsory`` only when no move is left either."""
        if state.stock or (self.compulsory and self.pile_moves(state.row)):
            return NO_SCORE
        return len(state.row)

    def lower_bound(self, state: Dealt) -> int:
        return 1

    def describe_move(self, state: Dealt, move: Move) -> str:
        if move.distance == 0:
            return f"deal {_name(state.stock[0])}"
        return _describe(state.row, move)

    def parse_move(self, state: Dealt, text: str) -> Move:
        words = text.split()
        if words and words[0].lower() == "deal":
            if len(words) > 2:
                raise MoveError(f"cannot read move {text.strip()!r}: write 'deal' or e.g. 'deal 7H'")
            if len(words) == 2 and state.stock and parse_card(words[1]).code != state.stock[0]:
                raise MoveError(f"move {text.strip()!r}: the next card of the stock is not {words[1]}")
            return DEAL
        return _parse_pile_move(state.row, text)

    def render(self, state: Dealt) -> str:
        return _render_row(state.row) + f"   [stock: {len(state.stock)}]"


_OPTIONS = (
    Option("compulsory", False, "deal the next card only when no move is available; otherwise a move must be made"),
    Option("nearest", False, "a pile that can both slide and leap must slide"),
    Option("leap_only_without_slide", False, "a leap is legal only when no slide is available anywhere in the row"),
    Option(
        "order",
        "choice",
        "choice: the player picks among legal moves; leftmost: the leftmost pile that can move "
        "moves, by a slide if it can, else by a leap",
        ("choice", "leftmost"),
    ),
)


def build(settings: Mapping[str, Any]) -> OpenRow | DealtRow:
    """The default rules play on the open row; any stricter option deals one card at a time."""
    if not any(settings[o.name] != o.default for o in _OPTIONS):
        return OpenRow()
    return DealtRow(**settings)


FAMILIES = (
    Family(
        name="accordion",
        summary="merge piles onto a matching pile one or three to the left until one pile is left",
        rules=(
            "Deal the 52 cards left to right, each starting a new pile. A pile (whole) may go onto\n"
            "the pile immediately to its left (slide) or three to its left (leap) when their top\n"
            "cards share suit or rank; gaps close. Won when the whole deck is in one pile. Score:\n"
            "piles left (lower is better; Sheinwold counts 5 or fewer as a win). The solver reports\n"
            "the minimal pile count reachable (1 when solvable)."
        ),
        options=_OPTIONS,
        variants=(
            Variant("accordion", "moves optional, player deals or moves at will (rule card; Tarbart 1905)"),
            Variant("idle-year", "compulsory, nearest (Dick 1883)", {"compulsory": True, "nearest": True}),
            Variant("parlett", "compulsory (Parlett 1979)", {"compulsory": True}),
            Variant(
                "self-working",
                "compulsory, nearest, leaps only without slides, leftmost first: no choices at all",
                {"compulsory": True, "nearest": True, "leap_only_without_slide": True, "order": "leftmost"},
            ),
        ),
        build=build,
        score_field="min_piles",
        score_label="piles",
        threshold=("sheinwold", 5),
    ),
)
