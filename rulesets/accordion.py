"""Accordion and its historic variants: piles in a row merge onto a matching pile 1 or 3 to the left.

Only each pile's top card matters for the future, so a layout is the row of top-card codes
(see :attr:`rulesets.cards.Card.code`), leftmost first. The default variant lets the player deal
or move at any time; moves only look left, so that is the same as dealing the whole deck first
(:class:`OpenAccordion`, shown equal to :class:`DealtAccordion` in the tests). The stricter
variants deal one card at a time (:class:`DealtAccordion`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rulesets.cards import MATCH, NAME, Card, CardError
from rulesets.family import Costs, Family, Option, Variant
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
from solver.protocol import NO_SCORE

SLIDE, LEAP = 1, 3
_MAX_PILES = 52
#: Piles drawn on one line of a picture: a full deck makes four lines.
_PILES_PER_LINE = 13


class PileMove(NamedTuple):
    """Pile ``pile`` (0-based, left to right) goes onto the pile ``distance`` (SLIDE or LEAP)
    to its left."""

    pile: int
    distance: int


_SLIDES = tuple(PileMove(i, SLIDE) for i in range(_MAX_PILES))
_LEAPS = tuple(PileMove(i, LEAP) for i in range(_MAX_PILES))


#: The compiled kernels' states (rulesets/_accordion.pyx): their sizes in bytes, and the code of
#: a deal; a pile move is ``2 * pile + 1`` for a leap and ``2 * pile`` for a slide.
_OPEN_STATE, _DEALT_STATE, _DEAL_CODE = 144, 64, 127


def _pile_move(code: int) -> PileMove:
    """The pile move a kernel numbers ``code``."""
    return (_LEAPS if code & 1 else _SLIDES)[code >> 1]


def _describe(row: bytes, move: PileMove) -> str:
    kind = "slide" if move.distance == SLIDE else "leap"
    return f"{NAME[row[move.pile]]} -> {NAME[row[move.pile - move.distance]]} ({kind})"


_MOVE_TEXT = re.compile(r"^\s*(\S+)\s*->\s*(\S+)\s*(?:\((slide|leap)\))?\s*$", re.IGNORECASE)


def _parse_pile_move(row: bytes, text: str, examples: str) -> PileMove:
    """The pile move written as ``text`` (``4D -> 4S (leap)``; the kind in brackets may be left out)."""
    found = _MOVE_TEXT.match(text)
    if not found:
        raise cannot_read(text, examples)
    moving, target = read_card(found.group(1), text), read_card(found.group(2), text)
    for code in (moving, target):
        if code not in row:
            raise MoveError(f"move {quoted_move(text)}: {NAME[code]} is not the top of a pile")
    pile, onto = row.index(moving), row.index(target)
    kind = found.group(3)
    if kind and {"slide": SLIDE, "leap": LEAP}[kind.lower()] != pile - onto:
        raise MoveError(f"move {quoted_move(text)}: {NAME[target]} is not a {kind.lower()} away from {NAME[moving]}")
    return PileMove(pile, pile - onto)


def _row_places(row: bytes) -> list[tuple[Place, ...]]:
    """The piles as places labelled 1, 2, ... (each shows its top card), 13 to a line."""
    places = [Place(str(pile), (code,)) for pile, code in enumerate(row, 1)]
    return [tuple(places[start : start + _PILES_PER_LINE]) for start in range(0, len(places), _PILES_PER_LINE)]


def _pile_touched(move: PileMove) -> frozenset[str]:
    """A pile move changes the pile it lands on; the piles right of the moving one only shift left."""
    return frozenset({str(move.pile - move.distance + 1)})


def _read_row_and_stock(text: str, stock_required: bool) -> tuple[list[int], list[int]]:
    """The row (at least one card) and the stock of a position, all cards distinct."""
    required, optional = (["row", "stock"], []) if stock_required else (["row"], ["stock"])
    found = read_sections(text, "Accordion", required, optional)
    row = read_card_list(found["row"], "row")
    if not row:
        raise PositionError("the Accordion position's row is empty: write at least one pile's top card")
    stock = read_card_list(found.get("stock", ""), "stock")
    check_distinct(row + stock, "Accordion")
    return row, stock


#: Card code -> its bit in a set of cards laid out rank-major: rank r's four suits (CDHS) are the
#: nibble at bit 4r, so any 16 bits hold the suits of four whole ranks.
_CARD_BIT = tuple(1 << (4 * (code % 13) + code // 13) for code in range(52))
_SUIT_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _components(links: int) -> tuple[int, ...]:
    """The groups (as masks of suits) that the suit pairs ``links`` (6 bits) join the four suits into."""
    group = [1 << suit for suit in range(4)]
    for pair, (a, b) in enumerate(_SUIT_PAIRS):
        if links >> pair & 1 and group[a] != group[b]:
            joined = group[a] | group[b]
            group = [joined if mask & joined else mask for mask in group]
    return tuple(set(group))


def _groups() -> tuple[int, ...]:
    """The _GROUPS table: for each 4 bits of suits present and 6 bits of suit pairs sharing a
    rank, how many groups the present suits form (a pair links only if both its suits are present)."""
    parts = [_components(links) for links in range(64)]
    within = [
        sum(1 << pair for pair, (a, b) in enumerate(_SUIT_PAIRS) if present >> a & present >> b & 1)
        for present in range(16)
    ]
    return tuple(
        sum(1 for part in parts[links & within[present]] if part & present)
        for links in range(64)
        for present in range(16)
    )


#: Indexed by 4 bits of suits present and 6 bits of suit pairs sharing a rank.
_GROUPS = _groups()


def _links(suits: int) -> int:
    """The suits present and the suit pairs sharing a rank (an index of _GROUPS) for one rank's suits."""
    return suits | sum(1 << (4 + pair) for pair, (a, b) in enumerate(_SUIT_PAIRS) if suits >> a & suits >> b & 1)


def _chunk_links() -> tuple[int, ...]:
    """16 bits of the card set (four ranks) -> the _GROUPS index they contribute (OR-ed together):
    the OR of two bytes' entries, each the OR of its two nibbles' (ranks'). Only 71 of the 256
    bytes' entries differ, so each row of 256 (one high byte, every low byte) is built once."""
    small = list(range(1024))  # one int object per value, shared by every entry
    nibble = [_links(suits) for suits in range(16)]
    byte = [nibble[bits & 15] | nibble[bits >> 4] for bits in range(256)]
    rows = {high: tuple(map(small.__getitem__, map(high.__or__, byte))) for high in set(byte)}
    return tuple(itertools.chain.from_iterable(rows[high] for high in byte))


_CHUNK_LINKS = _chunk_links()


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


_ALONE = tuple(bytes((code,)) for code in range(52))
_IDENTITY = bytes(range(256))
#: _COVER[covered][moving]: the byte map (for bytes.translate) that puts the moving card in the
#: covered card's place.
_COVER = tuple(
    tuple(_IDENTITY[:covered] + _ALONE[moving] + _IDENTITY[covered + 1 :] for moving in range(52))
    for covered in range(52)
)

#: A state of the open row: the top-card codes left to right (bytes: compact, and already the
#: layout key), and the same cards as a rank-major bit set (see _CARD_BIT) for the connectivity
#: bound. The bit set follows from the row, so reading a position recomputes it.
OpenAccordionState = tuple[bytes, int]


class OpenAccordion:
    """Default Accordion with the whole deck dealt: the player moves at will, any legal move.

    The bound on piles left is the number of groups the row's cards form (see :meth:`lower_bound`).
    """

    def start(self, deal: Sequence[Card]) -> OpenAccordionState:
        row = bytes(card.code for card in deal)
        if len(set(row)) != len(row):
            raise CardError("an Accordion deal holds each card at most once")
        return self._state(row)

    @staticmethod
    def _state(row: bytes) -> OpenAccordionState:
        return row, sum(_CARD_BIT[code] for code in row)

    def moves(self, state: OpenAccordionState) -> list[PileMove]:
        """Leaps first, then slides, each leftmost first: the order that found wins soonest on
        the reference deals (see benchmarks/accordion_reference.py).

        The row is compared with itself shifted by one and by three cards all at once: each card
        becomes a byte (suit and rank nibbles) of one big integer, and a nibble that XORs to zero
        marks a shared suit or rank. Both comparisons sit side by side in one integer (leaps in
        the upper half), so they share the nibble tests and one loop reads the moves off from
        the top. Rows with few moves, the common case deep in a search, cost a handful of
        integer operations instead of a loop over every pile.
        """
        row = state[0]
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

    def apply(self, state: OpenAccordionState, move: PileMove) -> OpenAccordionState:
        """One C call for slides and leaps alike: the row's cards are distinct, so deleting the
        moving card and mapping the covered card to it is the move."""
        row, cards = state
        pile, distance = move
        covered, moving = row[pile - distance], row[pile]
        return row.translate(_COVER[covered][moving], _ALONE[moving]), cards ^ _CARD_BIT[covered]

    def is_won(self, state: OpenAccordionState) -> bool:
        return len(state[0]) == 1

    def key(self, state: OpenAccordionState) -> bytes:
        return state[0]

    def score(self, state: OpenAccordionState) -> int:
        return len(state[0])

    @staticmethod
    def lower_bound(state: OpenAccordionState) -> int:
        """How many groups the row's cards form when cards sharing suit or rank are linked
        (transitively).

        Groups never join again: a move only covers a card, and covered cards never return. So
        this is a lower bound on the piles left, and a proof of loss once it exceeds one. Four
        table look-ups, one per four ranks, give which suits are present and which pairs share a
        rank. Written out here rather than called: it runs for nearly every state the search meets.
        """
        cards = state[1]
        return _GROUPS[
            _CHUNK_LINKS[cards & 0xFFFF]
            | _CHUNK_LINKS[cards >> 16 & 0xFFFF]
            | _CHUNK_LINKS[cards >> 32 & 0xFFFF]
            | _CHUNK_LINKS[cards >> 48]
        ]

    def kernel(self) -> Any:
        from rulesets._accordion import OpenAccordionKernel

        return OpenAccordionKernel()

    def encode(self, state: OpenAccordionState) -> bytes:
        """The kernel's state: the card set (8 bytes), the number of piles, from byte 16 their top
        cards and from byte 80 the same cards as nibble bytes (suit + 1, rank + 1)."""
        row, cards = state
        head = (cards.to_bytes(8, "little") + bytes((len(row),))).ljust(16, b"\0") + row
        return head.ljust(80, b"\0") + row.translate(_NIBBLES).ljust(_OPEN_STATE - 80, b"\0")

    def decode(self, code: int) -> PileMove:
        return _pile_move(code)

    def describe_move(self, state: OpenAccordionState, move: PileMove) -> str:
        return _describe(state[0], move)

    def parse_move(self, state: OpenAccordionState, text: str) -> PileMove:
        return _parse_pile_move(state[0], text, "'4D -> 4S (leap)'")

    def picture(self, state: OpenAccordionState) -> Picture:
        return Picture(tuple(_row_places(state[0])))

    def touched(self, state: OpenAccordionState, move: PileMove) -> frozenset[str]:
        return _pile_touched(move)

    def write_position(self, state: OpenAccordionState) -> str:
        """``row: 8C 7H ...``: the piles' top cards, left to right."""
        return write_sections([("row", write_card_list(state[0]))])

    def read_position(self, text: str) -> OpenAccordionState:
        """A row of distinct top cards; a ``stock`` section, if given, is dealt onto its end
        (dealing at will is the same as dealing everything first)."""
        row, stock = _read_row_and_stock(text, stock_required=False)
        return self._state(bytes(row + stock))


class DealtAccordionState(NamedTuple):
    """Accordion dealt one card at a time: the row of top-card codes and the undealt stock
    (next card first)."""

    row: bytes
    stock: bytes


class DealtAccordion(StockInField):
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

    def start(self, deal: Sequence[Card]) -> DealtAccordionState:
        codes = bytes(card.code for card in deal)
        return DealtAccordionState(codes[:1], codes[1:])

    def pile_moves(self, row: bytes) -> list[PileMove]:
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

    def moves(self, state: DealtAccordionState) -> list[PileMove | StockMove]:
        found: list[PileMove | StockMove] = list(self.pile_moves(state.row))
        if state.stock and not (found and self.compulsory):
            found.append(DEAL)
        return found

    def apply(self, state: DealtAccordionState, move: PileMove | StockMove) -> DealtAccordionState:
        row, stock = state
        if move is DEAL:
            return DealtAccordionState(row + stock[:1], stock[1:])
        assert isinstance(move, PileMove), move
        pile, onto = move.pile, move.pile - move.distance
        return DealtAccordionState(row[:onto] + row[pile : pile + 1] + row[onto + 1 : pile] + row[pile + 1 :], stock)

    def is_won(self, state: DealtAccordionState) -> bool:
        return len(state.row) == 1 and not state.stock

    def key(self, state: DealtAccordionState) -> bytes:
        return state.row + b"|" + state.stock

    def score(self, state: DealtAccordionState) -> int:
        """Piles at the end of the game, or NO_SCORE where it cannot end: every variant ends only
        with the whole deck dealt (so a reported line always deals the last card), and under
        ``compulsory`` only when no move is left either."""
        if state.stock or (self.compulsory and self.pile_moves(state.row)):
            return NO_SCORE
        return len(state.row)

    def lower_bound(self, state: DealtAccordionState) -> int:
        return 1

    def kernel(self) -> Any:
        from rulesets._accordion import DealtAccordionKernel

        return DealtAccordionKernel(self.compulsory, self.nearest, self.leap_only_without_slide, self.leftmost)

    def encode(self, state: DealtAccordionState) -> bytes:
        """The kernel's state: the number of piles, of cards left, then the key (row, "|", stock)."""
        cards = len(state.row) + len(state.stock)
        return bytes((len(state.row), cards)) + self.key(state).ljust(_DEALT_STATE - 2, b"\0")

    def decode(self, code: int) -> PileMove | StockMove:
        return DEAL if code == _DEAL_CODE else _pile_move(code)

    def describe_move(self, state: DealtAccordionState, move: PileMove | StockMove) -> str:
        if move is DEAL:
            return describe_deal(state.stock[0])
        assert isinstance(move, PileMove), move
        return _describe(state.row, move)

    def parse_move(self, state: DealtAccordionState, text: str) -> PileMove | StockMove:
        if is_deal(text):
            check_deal(text, state.stock[0] if state.stock else None)
            return DEAL
        return _parse_pile_move(state.row, text, "'4D -> 4S (leap)' or 'deal'")

    def picture(self, state: DealtAccordionState) -> Picture:
        return Picture((*_row_places(state.row), (Place("stock", face_down=len(state.stock)),)))

    def touched(self, state: DealtAccordionState, move: PileMove | StockMove) -> frozenset[str]:
        if move is DEAL:
            return frozenset({str(len(state.row) + 1), "stock"})
        assert isinstance(move, PileMove), move
        return _pile_touched(move)

    def write_position(self, state: DealtAccordionState) -> str:
        """``row: 8C 7H | stock: 2D 9S ...``: the piles' top cards, then the cards still to deal."""
        return write_sections([("row", write_card_list(state.row)), ("stock", write_card_list(state.stock))])

    def read_position(self, text: str) -> DealtAccordionState:
        row, stock = _read_row_and_stock(text, stock_required=True)
        return DealtAccordionState(bytes(row), bytes(stock))


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


def build(settings: Mapping[str, Any]) -> OpenAccordion | DealtAccordion:
    """The default rules play on the open row; any stricter option deals one card at a time."""
    if not any(settings[o.name] != o.default for o in _OPTIONS):
        return OpenAccordion()
    return DealtAccordion(**settings)


FAMILIES = (
    Family(
        name="accordion",
        summary="merge piles onto a matching pile one or three to the left until one pile is left",
        rules=(
            "Deal the 52 cards left to right, each starting a new pile. A pile (whole) may\n"
            "go onto the pile immediately to its left (a slide) or three to its left (a\n"
            "leap) when their top cards share suit or rank; gaps close. Won when the whole\n"
            "deck is in one pile. Score: piles left (lower is better; Sheinwold counts 5 or\n"
            "fewer as a win). The solver reports the minimal pile count reachable (1 when\n"
            "solvable).\n"
            "\n"
            "Moves are written '4D -> 4S (leap)': the pile topped by 4D goes onto the pile\n"
            "topped by 4S, three to its left ('slide': its neighbour). Where cards are\n"
            "dealt one at a time, 'deal 7H' deals the next card.\n"
            "\n"
            "Choices made where the rules leave a point open:\n"
            "- With every option at its default the player deals or moves at will. Moves\n"
            "  only look left, so that is the same as dealing the whole deck first: the\n"
            "  solver plays on the whole row. Only each pile's top card matters from then\n"
            "  on, so a position is the row of top cards.\n"
            "- With any option set, cards are dealt one at a time (a position also holds\n"
            "  the cards still to deal) and the options combine freely. Such a game ends\n"
            "  only with the whole deck dealt, so a reported line always deals the last\n"
            "  card; under compulsory it ends only when no move is left either, and the\n"
            "  minimal pile count is over those ends.\n"
            "- With compulsory=no but nearest or leap_only_without_slide on, the player may\n"
            "  still move after the last card is dealt, and may stop at any point once the\n"
            "  deck is out.\n"
            "- order=leftmost with compulsory=no: leftmost decides which pile move is\n"
            "  offered; dealing is still offered beside it.\n"
            "- 'A move is available' under compulsory means any move the other options\n"
            "  allow."
        ),
        options=_OPTIONS,
        variants=(
            Variant("accordion", "moves optional, player deals or moves at will (rule card; Tarbart 1905)", {}),
            Variant(
                "idle-year",
                "compulsory, nearest (Dick 1883)",
                {"compulsory": True, "nearest": True},
                costs=Costs(search_rate=8_000_000, move_us=15, exact_reach=9, walk_rate=2_100_000),
            ),
            Variant(
                "parlett",
                "compulsory (Parlett 1979)",
                {"compulsory": True},
                costs=Costs(search_rate=10_300_000, move_us=16, exact_reach=9, walk_rate=2_600_000),
            ),
            Variant(
                "self-working",
                "compulsory, nearest, leaps only without slides, leftmost first: no choices at all",
                {"compulsory": True, "nearest": True, "leap_only_without_slide": True, "order": "leftmost"},
                costs=Costs(search_rate=9_600_000, move_us=15, exact_reach=9, walk_rate=2_400_000),
            ),
        ),
        build=build,
        score_field="min_piles",
        score_label="piles",
        win_score=1,
        threshold=("sheinwold", 5),
    ),
)
