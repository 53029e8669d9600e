"""Thirteens (PySolFC 593): discard Kings alone and pairs totalling 13 from ten places refilled at
once from the stock; after a pair the place of the card named first is refilled first.

The game ends when no discard is available; only there does a state have a score (cards not
discarded, stock included). It uses the reductions ``kings`` and ``balanced`` of
:mod:`rulesets.pairs`, and offers one more, not used by default:

``suits``
    (A key.) The rules look at values only, never at suits (as in Baroness): keys count the
    cards left of each rank rather than name them. The search over unseen cards keys by it
    (:meth:`Thirteens.class_keyed`); the full-information search does not, so that its keys'
    digests, and with them the move order of its restarts, stay as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rulesets.cards import RANK, Card, card_set
from rulesets.family import Costs, Family, Variant
from rulesets.notation import (
    PositionError,
    cannot_read,
    check_distinct,
    read_card_list,
    read_piles,
    read_sections,
    write_card_list,
    write_piles,
    write_sections,
)
from rulesets.pairs import (
    ALONE,
    DISCARD_TEXT,
    KING,
    ORDERED,
    Discard,
    balanced_pair,
    check_discarded,
    describe_discard,
    pair_move,
    read_discard,
    unbalanced,
)
from rulesets.picture import Picture, Place, changed_places
from rulesets.stock import StockInField
from solver.protocol import NO_SCORE

_ALL_REDUCTIONS = frozenset({"kings", "balanced"})
#: Every reduction a Thirteens accepts: those searched by default and ``suits``.
_KNOWN_REDUCTIONS = _ALL_REDUCTIONS | {"suits"}
#: Maps a card code's byte to its rank (1..13) and every other byte to itself (the card classes).
_RANK_BYTES = bytes(RANK) + bytes(range(52, 256))
#: The compiled kernel's layout (rulesets/_thirteens.pyx): its places' slots, the byte of an
#: empty place, the bit of a move code marking a pair.
_KERNEL_PLACES, _KERNEL_EMPTY, _KERNEL_PAIR = 16, 0xFF, 1 << 12


class ThirteensLayout(NamedTuple):
    """The places' cards (None for an empty place), the stock (next card first), and the set
    (bit mask) of cards not yet discarded."""

    places: tuple[int | None, ...]
    stock: tuple[int, ...]
    left: int


class Thirteens(StockInField):
    """Thirteens (PySolFC 593): every card in the places is available; a discarded card's place
    is refilled at once from the stock. ``places`` may be changed for tests on small decks."""

    #: The rules look at ranks only (solver.protocol.Classed): a card's class is its rank.
    card_classes = _RANK_BYTES

    def __init__(self, places: int = 10, reductions: frozenset[str] | set[str] = _ALL_REDUCTIONS) -> None:
        if places < 1:
            raise ValueError(f"Thirteens needs at least one place, not {places}")
        unknown = set(reductions) - _KNOWN_REDUCTIONS
        if unknown:
            raise ValueError(f"unknown reduction(s): {', '.join(sorted(unknown))}")
        self.places = places
        self.reduce_kings = "kings" in reductions
        self.reduce_balanced = "balanced" in reductions
        self.reduce_suits = "suits" in reductions

    def class_keyed(self) -> Thirteens:
        """These rules keyed by rank (``suits``), for the search over unseen cards
        (solver.protocol.Classed)."""
        return Thirteens(self.places, {"suits"})

    def start(self, deal: Sequence[Card]) -> ThirteensLayout:
        codes = tuple(card.code for card in deal)
        count = min(self.places, len(codes))
        layout: tuple[int | None, ...] = codes[:count] + (None,) * (self.places - count)
        return ThirteensLayout(layout, codes[count:], card_set(codes))

    def discards(self, state: ThirteensLayout) -> list[Discard]:
        """Every legal discard: each King, and each pair totalling 13 in both orders (the order
        decides which place is refilled first)."""
        cards = [code for code in state.places if code is not None]
        found = [ALONE[code] for code in cards if RANK[code] == KING]
        for a in cards:
            row = ORDERED[a]
            for b in cards:
                move = row[b]
                if move is not None:
                    found.append(move)
        return found

    def moves(self, state: ThirteensLayout) -> list[Discard]:
        found = self.discards(state)
        if found and self.reduce_kings and RANK[found[0].card] == KING:
            return found[:1]
        if found and self.reduce_balanced:
            cards = [code for code in state.places if code is not None]
            pairs = [pair_move(m.card, m.partner) for m in found if m.partner is not None]
            forced = balanced_pair(pairs, cards, state.left)
            if forced is not None:
                return [forced]
        return found

    def apply(self, state: ThirteensLayout, move: Discard) -> ThirteensLayout:
        places, stock, left = state
        layout = list(places)
        for code in (move.card, move.partner):
            if code is None:
                continue
            place = layout.index(code)
            left &= ~(1 << code)
            if stock:
                layout[place], stock = stock[0], stock[1:]
            else:
                layout[place] = None
        return ThirteensLayout(tuple(layout), stock, left)

    def is_won(self, state: ThirteensLayout) -> bool:
        return state.left == 0

    def key(self, state: ThirteensLayout) -> bytes:
        """The places are interchangeable, so the cards not yet discarded and the stock say
        everything; the stock is keyed by its length, as in :meth:`Baroness.key` (every state of
        one search holds a suffix of its start's stock). Under ``suits``, how many cards of each
        rank are left (13 bytes, Aces first) rather than which."""
        if self.reduce_suits:
            counts = [0] * 14
            left = state.left
            while left:
                low = left & -left
                counts[RANK[low.bit_length() - 1]] += 1
                left ^= low
            return bytes(counts[1:]) + bytes((len(state.stock),))
        return state.left.to_bytes(7, "little") + bytes((len(state.stock),))

    def score(self, state: ThirteensLayout) -> int:
        if state.left and self.discards(state):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: ThirteensLayout) -> int:
        return unbalanced(state.left)

    def kernel(self) -> Any:
        """The compiled twin of this ruleset (rulesets/_thirteens.pyx); ImportError where it was
        not built, or for more places than it holds."""
        from rulesets._thirteens import MAX_PLACES, ThirteensKernel

        if self.places > MAX_PLACES:
            raise ImportError(f"the compiled Thirteens kernel holds at most {MAX_PLACES} places, not {self.places}")
        return ThirteensKernel(self.places, self.reduce_kings, self.reduce_balanced, self.reduce_suits)

    def encode(self, state: ThirteensLayout) -> bytes:
        """The kernel's state: the cards left (8 bytes), the stock's count, the places (16
        slots, 0xFF empty) and the stock right-aligned in the last 52 bytes."""
        places, stock, left = state
        cells = bytes(_KERNEL_EMPTY if code is None else code for code in places)
        return (
            left.to_bytes(8, "little")
            + bytes((len(stock),))
            + cells.ljust(_KERNEL_PLACES, bytes((_KERNEL_EMPTY,)))
            + bytes(stock).rjust(52, b"\0")
        )

    def decode(self, code: int) -> Discard:
        """The discard of a kernel's code: bits 0-5 the card named first, 6-11 its partner, bit
        12 set for a pair."""
        if code & _KERNEL_PAIR:
            move = ORDERED[code & 63][code >> 6 & 63]
            assert move is not None, code
            return move
        return ALONE[code & 63]

    def describe_move(self, state: ThirteensLayout, move: Discard) -> str:
        return describe_discard(move)

    def parse_move(self, state: ThirteensLayout, text: str) -> Discard:
        found = DISCARD_TEXT.match(text)
        if not found:
            raise cannot_read(text, "'discard KH' or 'discard 6C+7D'")
        return read_discard(text, found, ORDERED)

    def write_position(self, state: ThirteensLayout) -> str:
        places = write_piles(() if code is None else (code,) for code in state.places)
        return write_sections((("places", places), ("stock", write_card_list(state.stock))))

    def read_position(self, text: str) -> ThirteensLayout:
        sections = read_sections(text, "Thirteens", ("places", "stock"))
        cells = read_piles(sections["places"], "places")
        stock = tuple(read_card_list(sections["stock"], "stock"))
        if len(cells) != self.places:
            raise PositionError(f"the Thirteens position has {len(cells)} places; the game has {self.places}")
        for number, cell in enumerate(cells, 1):
            if len(cell) > 1:
                raise PositionError(
                    f"place {number} of the Thirteens position holds {len(cell)} cards; a place holds one"
                )
        places = tuple(cell[0] if cell else None for cell in cells)
        if stock and None in places:
            raise PositionError(
                "the Thirteens position has an empty place and a stock: "
                "emptied places are refilled while the stock lasts"
            )
        present = [code for code in places if code is not None] + list(stock)
        check_distinct(present, "Thirteens")
        check_discarded(present, "Thirteens")
        return ThirteensLayout(places, stock, card_set(present))

    def picture(self, state: ThirteensLayout) -> Picture:
        cells = tuple(
            Place(str(number), () if code is None else (code,)) for number, code in enumerate(state.places, 1)
        )
        half = (len(cells) + 1) // 2
        rows = tuple(row for row in (cells[:half], cells[half:]) if row)
        return Picture(rows + ((Place("stock", face_down=len(state.stock)),),))

    def touched(self, state: ThirteensLayout, move: Discard) -> frozenset[str]:
        return changed_places(self.picture(state), self.picture(self.apply(state, move)))


def build_thirteens(settings: Mapping[str, Any], reductions: frozenset[str] = _ALL_REDUCTIONS) -> Thirteens:
    """The ruleset (Thirteens has no options); ``reductions`` names the sound reductions searched."""
    return Thirteens(reductions=reductions)


def build_legal_thirteens(settings: Mapping[str, Any]) -> Thirteens:
    """The ruleset listing every legal move (no reduction prunes them), for hints and verify."""
    return build_thirteens(settings, frozenset())


_THIRTEENS_RULES = """\
Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal ten cards face up into
ten places (two rows of five); every card in the places is available. Discard
a King alone or two cards whose values total 13. Each emptied place is
refilled at once from the stock: 'discard A+B' refills A's place first, then
B's, so both orders are legal moves (they may lead to different games). Once
the stock is empty an emptied place stays empty. Won when every card is
discarded. Score: cards not discarded (stock included); the game ends when no
discard is available. Moves are written 'discard KH', 'discard 6C+7D'. A
position is written 'places: 7H / 2C / QD / ... | stock: 4C ...' (ten places,
'-' for an empty one once the stock is out; the stock next card first)."""


FAMILIES = (
    Family(
        name="thirteens",
        summary="discard Kings and pairs totalling 13 from ten places refilled from the stock (PySolFC 593)",
        rules=_THIRTEENS_RULES,
        options=(),
        variants=(
            Variant(
                "thirteens",
                "PySolFC game 593 (Helsinki)",
                {},
                costs=Costs(search_rate=780_000, move_us=43, exact_reach=18, walk_rate=2_500_000),
            ),
        ),
        build=build_thirteens,
        build_legal=build_legal_thirteens,
        score_field="min_cards_left",
        score_label="cards left",
    ),
)
