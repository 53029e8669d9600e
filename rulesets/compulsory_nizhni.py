"""Nizhni Novgorod with ``compulsory=yes``: the row dealt one card at a time, a discard made
whenever one can be (the player picks which four), the next card dealt only when none can. Its
family is declared with its relatives' in :mod:`rulesets.royal_marriage`; with ``compulsory=no``
it is played on the open row there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from rulesets.cards import MATCH, Card
from rulesets.marriage_analysis import DISCARDS, DiscardBetween
from rulesets.marriage_row import (
    SameRankEnds,
    checked_deal,
    closed_gap,
    describe_discard,
    discard_of,
    encoded,
    parse_discard,
    read_cards,
    row_places,
)
from rulesets.moves import DEAL, StockMove
from rulesets.notation import (
    MoveError,
    PositionError,
    check_deal,
    describe_deal,
    is_deal,
    quoted_move,
    read_sections,
    write_card_list,
    write_sections,
)
from rulesets.picture import Picture, Place
from rulesets.stock import StockInField
from solver.protocol import NO_SCORE

#: A move of compulsory Nizhni Novgorod: a discard, or DEAL (the stock's next card).
NizhniMove = DiscardBetween | StockMove
#: The code of a deal in the compiled kernel (rulesets/_royal_marriage.pyx).
DEAL_CODE = 4096


class NizhniLayout(NamedTuple):
    """Compulsory Nizhni Novgorod's layout: the row dealt so far (card codes, first card first)
    and the undealt stock, next card first."""

    row: tuple[int, ...]
    stock: tuple[int, ...]


NIZHNI_ENDS = SameRankEnds()


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
        codes = checked_deal(deal, NIZHNI_ENDS)
        return NizhniLayout(codes[:4], codes[4:])

    @staticmethod
    def discards(row: tuple[int, ...]) -> list[DiscardBetween]:
        return [DISCARDS[i][i + 3] for i in range(len(row) - 3) if MATCH[row[i]][row[i + 3]]]

    def moves(self, state: NizhniLayout) -> Sequence[NizhniMove]:
        found = self.discards(state.row)
        if not found and state.stock:
            return [DEAL]
        return found

    def apply(self, state: NizhniLayout, move: NizhniMove) -> NizhniLayout:
        row, stock = state.row, state.stock
        if move is DEAL:
            return NizhniLayout(row + stock[:1], stock[1:])
        assert isinstance(move, DiscardBetween)
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
        return encoded(len(state.row), len(state.row) + len(state.stock), state.row + state.stock)

    def decode(self, code: int) -> NizhniMove:
        return DEAL if code == DEAL_CODE else discard_of(code)

    def describe_move(self, state: NizhniLayout, move: NizhniMove) -> str:
        if move is DEAL:
            return describe_deal(state.stock[0])
        assert isinstance(move, DiscardBetween)
        return describe_discard(state.row, move)

    def parse_move(self, state: NizhniLayout, text: str) -> NizhniMove:
        if is_deal(text):
            if not state.stock:
                raise MoveError(f"move {quoted_move(text)}: the stock is empty")
            check_deal(text, state.stock[0])
            return DEAL
        return parse_discard(state.row, text, " or 'deal'")

    def picture(self, state: NizhniLayout) -> Picture:
        stock = Place("stock", face_down=len(state.stock))
        return Picture((*row_places(state.row), (stock,)))

    def touched(self, state: NizhniLayout, move: NizhniMove) -> frozenset[str]:
        if move is DEAL:
            return frozenset((str(len(state.row) + 1), "stock"))
        assert isinstance(move, DiscardBetween)
        return closed_gap(move)

    def write_position(self, state: NizhniLayout) -> str:
        return write_sections([("row", write_card_list(state.row)), ("stock", write_card_list(state.stock))])

    def read_position(self, text: str) -> NizhniLayout:
        sections = read_sections(text, NIZHNI_ENDS.game, ("row", "stock"))
        row, stock = read_cards(sections, ("row", "stock"), NIZHNI_ENDS)
        if stock and len(row) < 2:
            raise PositionError(
                f"{NIZHNI_ENDS.game}: the row holds {len(row)} card(s) while cards remain to deal, but "
                "play always keeps at least two there (the first card and the last one dealt)"
            )
        return NizhniLayout(row, stock)
