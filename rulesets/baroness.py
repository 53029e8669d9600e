"""Baroness (Five Piles, Thirteen): discard Kings alone and pairs totalling 13 from the tops of piles.

P piles are dealt one card each, then one card per pile per deal from the stock; when the stock
holds fewer than P cards they are laid out as grace cards at once (with the last full deal). Its
options are stated in the family's rules text below; the move and the facts it shares with
Thirteens are in :mod:`rulesets.pairs`.

The game ends when no discard is available and no deal is left; only there does a state have a
score (cards not discarded, stock and grace cards included). Space moves never change the count,
so they do not keep a game going.

Sound reductions: ``kings`` and ``balanced`` (see :mod:`rulesets.pairs`; here "available" means
on top of a pile or a grace card), and

``idle``
    (Baroness with ``spaces``.) Grace cards exist only once the stock is empty, and after that
    nothing is ever dealt: a grace card moved onto an empty pile, or the only card of a pile
    moved onto another empty pile, gains nothing (the layout is the same or worse). With the
    stock empty a card moved onto an empty pile goes to the leftmost one only (the empty piles
    are interchangeable then).
``sealed``
    (Baroness with ``spaces``, without ``beneath``: a key, not a restriction of moves.) When no
    pile can ever be emptied, the cards beneath each pile's topmost card that no line can
    discard are never reached: layouts differing only there (in the cards, not their number)
    share a key. See :mod:`rulesets.baroness_sealed`.
``suits``
    (A key.) The rules look at values only, never at suits: layouts that differ only in which
    card of a rank lies where (in the piles and among the grace cards, the stock being the same)
    are one game, any line of one played on the other with each card renamed to the card of its
    rank in the same place (the renaming can fix the stock's cards and extends to a
    rank-preserving renaming of the deck, which keeps every move legal and every count). Keys
    write ranks instead of cards. It composes with ``sealed``: the floors depend on ranks only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rulesets.baroness_sealed import floors, ranks_of
from rulesets.cards import NAME, RANK, Card, card_set
from rulesets.family import Costs, Family, Option, Variant
from rulesets.moves import DEAL, StockMove
from rulesets.notation import (
    MoveError,
    PositionError,
    cannot_read,
    check_distinct,
    describe_deal,
    is_deal,
    quoted_move,
    read_card,
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
    PAIRS,
    Discard,
    balanced_pair,
    check_discarded,
    describe_discard,
    read_discard,
    unbalanced,
)
from rulesets.picture import Picture, Place, changed_places
from rulesets.stock import StockInField
from solver.protocol import NO_SCORE

#: Every reduction a Baroness search may use (all of them unless told otherwise; see above).
ALL_REDUCTIONS = frozenset({"kings", "balanced", "idle", "sealed", "suits"})
#: Maps a card code's byte to its rank (1..13) and every other byte to itself (the ``suits`` key).
_RANK_BYTES = bytes(RANK) + bytes(range(52, 256))
#: The compiled kernel's layout (rulesets/_baroness.pyx): a state's size, where the piles start
#: and where the stock ends; and the kinds of its move codes that are not a pair (a pair of
#: available cards, or one beneath the other).
_KERNEL_STATE, _KERNEL_PILES, _KERNEL_STOCK_END = 144, 26, 134
_KERNEL_ALONE, _KERNEL_TO_SPACE, _KERNEL_DEAL = 0, 3, 4
#: How many stocks' futures (see Baroness._futures) a game keeps: a search meets one deal's stocks.
_FUTURES_KEPT = 64


@dataclass(frozen=True, slots=True)
class ToSpace:
    """(Baroness with ``spaces``) ``card``, a pile's top card or a grace card, moved onto the
    empty pile ``pile`` (0-based)."""

    card: int
    pile: int


BaronessMove = Discard | ToSpace | StockMove


_SPACE = re.compile(r"^\s*move\s+(\S+)\s+(?:to|onto)\s+pile\s+(\d+)\s*$", re.IGNORECASE)


class BaronessLayout(NamedTuple):
    """Piles left to right (each bottom card first), grace cards (sorted), the undealt stock
    (next card first) and the set (bit mask) of cards not yet discarded."""

    piles: tuple[tuple[int, ...], ...]
    grace: tuple[int, ...]
    stock: tuple[int, ...]
    left: int


class Baroness(StockInField):
    """Baroness with its options fixed. ``piles`` may be any positive number here (the tests
    use small decks and few piles); the command line offers 5, 6 or 7."""

    #: The rules look at ranks only (solver.protocol.Classed): a card's class is its rank.
    card_classes = _RANK_BYTES

    def __init__(
        self,
        piles: int = 5,
        compulsory: bool = True,
        kings_first: bool = False,
        spaces: bool = False,
        beneath: bool = False,
        reductions: frozenset[str] | set[str] = ALL_REDUCTIONS,
    ) -> None:
        if piles < 1:
            raise ValueError(f"Baroness needs at least one pile, not {piles}")
        unknown = set(reductions) - ALL_REDUCTIONS
        if unknown:
            raise ValueError(f"unknown reduction(s): {', '.join(sorted(unknown))}")
        self.piles = piles
        self.compulsory = compulsory
        self.kings_first = kings_first
        self.spaces = spaces
        self.beneath = beneath
        self.reduce_kings = "kings" in reductions
        self.reduce_balanced = "balanced" in reductions
        self.reduce_idle = "idle" in reductions
        self.reduce_sealed = "sealed" in reductions and spaces and not beneath
        # (``suits``) the byte table a key's cards go through: to their ranks, or kept as codes
        self.reduce_suits = "suits" in reductions
        self._cards_table = _RANK_BYTES if self.reduce_suits else bytes(range(256))
        self._futures_seen: dict[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = {}
        self._space_moves = tuple(tuple(ToSpace(code, pile) for pile in range(piles)) for code in range(52))

    def class_keyed(self) -> Baroness:
        """These rules keyed by rank (``suits`` alone: ``sealed`` reads the stock's order, which
        is unknown where it lies face down), for the search over unseen cards
        (solver.protocol.Classed)."""
        return Baroness(self.piles, self.compulsory, self.kings_first, self.spaces, self.beneath, {"suits"})

    # -- setup and dealing ---------------------------------------------------------------------

    def start(self, deal: Sequence[Card]) -> BaronessLayout:
        codes = tuple(card.code for card in deal if not (self.kings_first and card.rank == KING))
        empty = ((),) * self.piles
        return self._deal(BaronessLayout(empty, (), codes, card_set(codes)))

    def _deal(self, state: BaronessLayout) -> BaronessLayout:
        """One card onto each pile, left to right; fewer than P left become grace cards."""
        piles, grace, stock, left = state
        count = self.piles
        if len(stock) < count:
            return BaronessLayout(piles, tuple(sorted(grace + stock)), (), left)
        piles = tuple(pile + (card,) for pile, card in zip(piles, stock))
        stock = stock[count:]
        if 0 < len(stock) < count:
            grace, stock = tuple(sorted(grace + stock)), ()
        return BaronessLayout(piles, grace, stock, left)

    # -- the rules -----------------------------------------------------------------------------

    def _available(self, state: BaronessLayout) -> list[int]:
        available = [pile[-1] for pile in state.piles if pile]
        available.extend(state.grace)
        return available

    def discards(self, state: BaronessLayout) -> list[Discard]:
        """Every legal discard, Kings first: Kings, pairs of available cards from two different
        places, and (with ``beneath``) a top card with the card directly beneath it."""
        available = self._available(state)
        found = [ALONE[code] for code in available if RANK[code] == KING]
        for i, a in enumerate(available):
            row = PAIRS[a]
            for b in available[i + 1 :]:
                move = row[b]
                if move is not None:
                    found.append(move)
        if self.beneath:
            for pile in state.piles:
                if len(pile) > 1:
                    move = PAIRS[pile[-1]][pile[-2]]
                    if move is not None:
                        found.append(move)
        return found

    def moves(self, state: BaronessLayout) -> list[BaronessMove]:
        discards = self.discards(state)
        if discards and self.reduce_kings and RANK[discards[0].card] == KING:
            return [discards[0]]
        if discards and self.reduce_balanced:
            forced = balanced_pair(discards, self._available(state), state.left)
            if forced is not None:
                return [forced]
        found: list[BaronessMove] = list(discards)
        if state.stock and not (discards and self.compulsory):
            found.append(DEAL)
        if self.spaces and () in state.piles:
            found.extend(self._moves_to_spaces(state.piles, state.grace, state.stock))
        return found

    def _moves_to_spaces(
        self, piles: tuple[tuple[int, ...], ...], grace: tuple[int, ...], stock: tuple[int, ...]
    ) -> list[ToSpace]:
        empty = [i for i, pile in enumerate(piles) if not pile]
        found = []
        if self.reduce_idle and not stock:
            target = empty[0]
            for pile in piles:
                if len(pile) > 1:
                    found.append(self._space_moves[pile[-1]][target])
            return found
        for source, pile in enumerate(piles):
            if pile:
                row = self._space_moves[pile[-1]]
                found.extend(row[target] for target in empty if target != source)
        for code in grace:
            row = self._space_moves[code]
            found.extend(row[target] for target in empty)
        return found

    def apply(self, state: BaronessLayout, move: BaronessMove) -> BaronessLayout:
        if move is DEAL:
            return self._deal(state)
        piles, grace, stock, left = state
        if isinstance(move, ToSpace):
            piles, grace = self._take(piles, grace, move.card)
            target = move.pile
            return BaronessLayout(piles[:target] + ((move.card,),) + piles[target + 1 :], grace, stock, left)
        assert isinstance(move, Discard)
        piles, grace = self._take(piles, grace, move.card)
        left &= ~(1 << move.card)
        if move.partner is not None:
            piles, grace = self._take(piles, grace, move.partner)
            left &= ~(1 << move.partner)
        return BaronessLayout(piles, grace, stock, left)

    @staticmethod
    def _take(
        piles: tuple[tuple[int, ...], ...], grace: tuple[int, ...], card: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The layout without ``card`` (a top card, a grace card, or the card beneath a top)."""
        if card in grace:
            return piles, tuple(code for code in grace if code != card)
        for i, pile in enumerate(piles):
            if pile and pile[-1] == card:
                return piles[:i] + (pile[:-1],) + piles[i + 1 :], grace
        for i, pile in enumerate(piles):
            if len(pile) > 1 and pile[-2] == card:
                return piles[:i] + (pile[:-2] + pile[-1:],) + piles[i + 1 :], grace
        raise ValueError(f"{NAME[card]} is not available")

    def is_won(self, state: BaronessLayout) -> bool:
        return state.left == 0

    def key(self, state: BaronessLayout) -> bytes:
        """While cards remain in the stock, each pile's place matters (it decides which cards
        land on it); once the stock is empty the piles are interchangeable and are sorted, and
        without ``spaces`` a lone card on a pile is the same as a grace card. (Byte 0xFE marks a
        key with stock, 0xFD one without, 0xFF separates piles; card codes are below 52.) Under
        ``suits`` the cards are written as their ranks (1..13), grace cards sorted by rank.

        The stock is keyed by its length: every state a search meets descends from its one start,
        whose stock it holds a suffix of, so the length says which (two positions written by hand
        may hold the same cards in another order, but they never share a table). Writing the stock
        out would change every key's digest, and with it the move order of the search's restarts."""
        piles, grace, stock, _ = state
        if self.reduce_sealed:
            sealed = self._sealed_key(state)
            if sealed is not None:
                return sealed
        table = self._cards_table
        if stock:
            return b"\xff".join(map(bytes, piles)).translate(table) + bytes((0xFE, len(stock)))
        if self.spaces:
            sorted_piles = sorted(bytes(pile).translate(table) for pile in piles)
            return b"\xff".join(sorted_piles) + b"\xfd" + _sorted(grace, table)
        singles = _sorted(grace + tuple(pile[0] for pile in piles if len(pile) == 1), table)
        deep = sorted(bytes(pile).translate(table) for pile in piles if len(pile) > 1)
        return b"\xff".join(deep) + b"\xfd" + singles

    def floors(self, state: BaronessLayout) -> list[int] | None:
        """Per pile, the index of its floor, the topmost card no line can discard, or None when
        a pile is empty or may be emptied (see :mod:`rulesets.baroness_sealed`)."""
        futures, layer_grace = self._futures(state.stock)
        if state.grace:
            layer_grace = (ranks_of(state.grace),)  # grace cards come only once the stock is empty
        return floors(state.piles, futures, layer_grace)

    def _sealed_key(self, state: BaronessLayout) -> bytes | None:
        """(``sealed``) A sealed layout's key: the cards above each pile's floor (sorted once the
        stock is empty), 0xFC, the grace cards, 0xFC, the cards at or below the floors and the
        stock's length; None if the layout is not sealed. Plain keys never hold 0xFC."""
        depths = self.floors(state)
        if depths is None:
            return None
        piles, grace, stock, _ = state
        table = self._cards_table
        parts = [bytes(pile[depth + 1 :]).translate(table) for pile, depth in zip(piles, depths)]
        if not stock:
            parts.sort()
        buried = sum(depths) + len(piles)
        return b"\xff".join(parts) + b"\xfc" + _sorted(grace, table) + bytes((0xFC, buried, len(stock)))

    def _futures(self, stock: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """Per pile, the stock cards still to be dealt onto it; per layer (after 0, 1, ... of
        those deals), the ranks of the grace cards the stock leaves there (only in the last). Kept
        per stock, as a search asks again and again."""
        found = self._futures_seen.get(stock)
        if found is None:
            if len(self._futures_seen) >= _FUTURES_KEPT:
                self._futures_seen.clear()
            count = self.piles
            full = len(stock) - len(stock) % count
            futures = tuple(stock[i:full:count] for i in range(count))
            found = self._futures_seen[stock] = (futures, (0,) * (full // count) + (ranks_of(stock[full:]),))
        return found

    def score(self, state: BaronessLayout) -> int:
        if state.stock or (state.left and self.discards(state)):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: BaronessLayout) -> int:
        return unbalanced(state.left)

    # -- the compiled kernel (rulesets/_baroness.pyx) ------------------------------------------

    def kernel(self) -> Any:
        """The compiled twin of this ruleset, its options and reductions fixed; ImportError
        where it was not built, or for more piles than it holds."""
        from rulesets._baroness import MAX_PILES, BaronessKernel

        if self.piles > MAX_PILES:
            raise ImportError(f"the compiled Baroness kernel holds at most {MAX_PILES} piles, not {self.piles}")
        return BaronessKernel(
            self.piles,
            self.compulsory,
            self.spaces,
            self.beneath,
            self.reduce_kings,
            self.reduce_balanced,
            self.reduce_idle,
            self.reduce_sealed,
            self.reduce_suits,
        )

    def encode(self, state: BaronessLayout) -> bytes:
        """The kernel's state (144 bytes): the cards left (8 bytes), the stock's and the grace
        cards' counts, each pile's count (8 slots), the grace cards (8 slots), the piles from
        byte 26 (``52 // piles + 1`` bytes each), the stock right-aligned to byte 134."""
        piles, grace, stock, left = state
        height = 52 // self.piles + 1
        out = bytearray(_KERNEL_STATE)
        out[0:8] = left.to_bytes(8, "little")
        out[8], out[9] = len(stock), len(grace)
        for index, pile in enumerate(piles):
            out[10 + index] = len(pile)
            at = _KERNEL_PILES + index * height
            out[at : at + len(pile)] = bytes(pile)
        out[18 : 18 + len(grace)] = bytes(grace)
        out[_KERNEL_STOCK_END - len(stock) : _KERNEL_STOCK_END] = bytes(stock)
        return bytes(out)

    def decode(self, code: int) -> BaronessMove:
        """The move of a kernel's code: bits 0-5 a card, 6-11 its partner or a target pile,
        12-15 the kind (see rulesets/_baroness.pyx)."""
        kind, card, other = code >> 12 & 15, code & 63, code >> 6 & 63
        if kind == _KERNEL_ALONE:
            return ALONE[card]
        if kind == _KERNEL_TO_SPACE:
            return self._space_moves[card][other]
        if kind == _KERNEL_DEAL:
            return DEAL
        move = PAIRS[card][other]
        assert move is not None, code
        return move

    # -- notation ------------------------------------------------------------------------------

    def describe_move(self, state: BaronessLayout, move: BaronessMove) -> str:
        if move is DEAL:
            return describe_deal()
        if isinstance(move, ToSpace):
            return f"move {NAME[move.card]} to pile {move.pile + 1}"
        assert isinstance(move, Discard)
        return describe_discard(move)

    def parse_move(self, state: BaronessLayout, text: str) -> BaronessMove:
        if is_deal(text) and len(text.split()) == 1:
            return DEAL
        found = _SPACE.match(text)
        if found:
            card = read_card(found.group(1), text)
            pile = int(found.group(2))
            if not 1 <= pile <= self.piles:
                raise MoveError(f"move {quoted_move(text)}: piles are numbered 1 to {self.piles}")
            return self._space_moves[card][pile - 1]
        found = DISCARD_TEXT.match(text)
        if not found:
            raise cannot_read(text, "'discard KH', 'discard 6C+7D', 'deal' or 'move 9S to pile 3'")
        return read_discard(text, found, PAIRS)

    # -- positions and pictures ----------------------------------------------------------------

    def write_position(self, state: BaronessLayout) -> str:
        return write_sections(
            (
                ("piles", write_piles(state.piles)),
                ("grace", write_card_list(state.grace)),
                ("stock", write_card_list(state.stock)),
            )
        )

    def read_position(self, text: str) -> BaronessLayout:
        sections = read_sections(text, "Baroness", ("piles", "stock"), ("grace",))
        piles = tuple(tuple(pile) for pile in read_piles(sections["piles"], "piles"))
        grace = tuple(sorted(read_card_list(sections.get("grace", ""), "grace")))
        stock = tuple(read_card_list(sections["stock"], "stock"))
        present = [code for pile in piles for code in pile] + [*grace, *stock]
        if len(piles) != self.piles:
            raise PositionError(f"the Baroness position has {len(piles)} piles; this game has {self.piles}")
        check_distinct(present, "Baroness")
        kings = [NAME[code] for code in present if RANK[code] == KING]
        if self.kings_first and kings:
            raise PositionError(
                f"the Baroness position holds {' '.join(kings)}: under kings_first the Kings leave before the deal"
            )
        check_discarded(present, "Baroness")
        self._check_dealt(piles, grace, stock)
        return BaronessLayout(piles, grace, stock, card_set(present))

    def _check_dealt(self, piles: Sequence[Sequence[int]], grace: Sequence[int], stock: Sequence[int]) -> None:
        """Refuse a stock, grace cards or piles that the deals could not leave."""
        deck = 48 if self.kings_first else 52
        count = self.piles
        if stock and grace:
            raise PositionError(
                "the Baroness position has grace cards and a stock: grace cards come only with the last deal"
            )
        if stock and (len(stock) < count or len(stock) > deck - count or (deck - len(stock)) % count):
            raise PositionError(
                f"a Baroness stock cannot hold {len(stock)} cards: dealing {deck} cards onto {count} piles "
                f"leaves {deck} minus a multiple of {count}, at least {count}, or none"
            )
        if len(grace) > deck % count:
            raise PositionError(
                f"the Baroness position has {len(grace)} grace cards: dealing {deck} cards onto {count} piles "
                f"leaves at most {deck % count}"
            )
        rounds = (deck - len(stock)) // count
        for number, pile in enumerate(piles, 1):
            if len(pile) > rounds:
                raise PositionError(
                    f"pile {number} of the Baroness position holds {len(pile)} cards, more than the {rounds} "
                    "deals that leave this stock"
                )

    def picture(self, state: BaronessLayout) -> Picture:
        piles = tuple(Place(f"pile {number}", pile) for number, pile in enumerate(state.piles, 1))
        aside = (Place("grace", state.grace), Place("stock", face_down=len(state.stock)))
        return Picture((piles, aside), fanned=(True, True))

    def touched(self, state: BaronessLayout, move: BaronessMove) -> frozenset[str]:
        return changed_places(self.picture(state), self.picture(self.apply(state, move)))


def _sorted(cards: tuple[int, ...], table: bytes) -> bytes:
    """``cards`` through ``table`` (see Baroness.key), sorted."""
    return bytes(sorted(bytes(cards).translate(table)))


_OPTIONS = (
    Option("piles", 5, "number of piles (the cards left over after the last full deal become grace cards)", (5, 6, 7)),
    Option("compulsory", True, "deal only when no discard is available (an available King counts)"),
    Option(
        "kings_first",
        False,
        "remove the four Kings before the deal (Whitmore Jones 1890); the other 48 keep their order",
    ),
    Option(
        "spaces",
        False,
        "a pile's top card or a grace card may be moved onto an empty pile at any time "
        "(not a discard: it neither allows nor forbids dealing)",
    ),
    Option("beneath", False, "an available card may pair with the card directly beneath it in its pile"),
)


def build_baroness(settings: Mapping[str, Any], reductions: frozenset[str] = ALL_REDUCTIONS) -> Baroness:
    """The ruleset of these option values; ``reductions`` names the sound reductions the search
    uses (all of them, but for a benchmark or test comparing a search without some)."""
    return Baroness(
        piles=int(settings["piles"]),
        compulsory=bool(settings["compulsory"]),
        kings_first=bool(settings["kings_first"]),
        spaces=bool(settings["spaces"]),
        beneath=bool(settings["beneath"]),
        reductions=reductions,
    )


def build_legal_baroness(settings: Mapping[str, Any]) -> Baroness:
    """The ruleset listing every legal move (no reduction prunes them), for hints and verify."""
    return build_baroness(settings, frozenset())


_BARONESS_RULES = """\
Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal one card face up onto
each of P piles (default 5); the rest is the stock. The top card of each pile
is available. Discard an available King alone, or two available cards from two
different places (two piles, a pile and a grace card, or two grace cards)
whose values total 13. A deal puts one card from the stock onto each pile,
left to right, covering or filling it. When the stock holds fewer than P
cards, those cards become grace cards at once (with the last full deal): laid
face up beside the piles, each available, never dealt upon (5 piles: the last
2 cards). Won when every card is discarded. Score: cards not discarded (stock
and grace cards included). The game ends when the stock is empty and no
discard is available; only such ends are scored, so a reported line always
runs to one, and the solver reports the fewest cards left that any line
reaches.
Choices made where the rules leave a point open:
- Under compulsory, any available discard forbids dealing, a King alone
  included.
- Under spaces, a move onto an empty pile is not a discard: it neither allows
  nor forbids dealing, and it does not count as play left at the end. While
  cards remain to deal, a pile's only card may move onto another empty pile
  (it changes which cards land on it).
- Under beneath, a top card pairs only with the card directly under it in its
  own pile; such a pair is an available discard, so under compulsory it
  forbids dealing.
- Under kings_first the four Kings leave before the deal; the other 48 cards
  keep their order.
Moves are written 'discard KH', 'discard 6C+7D' (lower value first), 'deal',
'move 9S to pile 3' (piles numbered from 1 at the left). A position is written
'piles: 7H 2C / 8C / - / QD / 5S | grace: - | stock: 4C 9D ...' (each pile
bottom card first, '-' for an empty pile, the stock next card first)."""


FAMILIES = (
    Family(
        name="baroness",
        summary="discard Kings alone and pairs totalling 13 from the tops of five piles (Five Piles, Thirteen)",
        rules=_BARONESS_RULES,
        options=_OPTIONS,
        variants=(
            Variant(
                "baroness",
                "the rules as above: 5 piles, compulsory discards, Kings discarded in play",
                {},
                costs=Costs(search_rate=3_100_000, move_us=32, exact_reach=7, walk_rate=2_300_000),
            ),
            Variant(
                "baroness-classic",
                "the four Kings removed before the deal (Whitmore Jones 1890)",
                {"kings_first": True},
                costs=Costs(search_rate=2_700_000, move_us=33, exact_reach=8, walk_rate=2_300_000),
            ),
            Variant(
                "baroness-pysol",
                "PySolFC game 657: deal at will, cards may move onto empty piles",
                {"compulsory": False, "spaces": True},
                costs=Costs(search_rate=2_000_000, move_us=59, exact_reach=7, walk_rate=2_000_000),
            ),
        ),
        build=build_baroness,
        build_legal=build_legal_baroness,
        score_field="min_cards_left",
        score_label="cards left",
    ),
)
