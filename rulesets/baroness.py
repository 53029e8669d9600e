"""Baroness (Five Piles, Thirteen) and Thirteens: discard Kings alone and pairs totalling 13.

Values: A=1, 2..10 face value, J=11, Q=12, K=13. Cards are their codes (see
:mod:`rulesets.cards`); a state keeps the set of cards not yet discarded as a bit mask, so the
score (cards left) and the lower bound are bit counts.

Baroness (:class:`Baroness`): P piles dealt one card each, then one card per pile per deal from
the stock; when the stock holds fewer than P cards they are laid out as grace cards at once (with
the last full deal). Its options are stated in the family's rules text below.

Thirteens (:class:`Thirteens`, PySolFC 593): ten single-card places refilled at once from the
stock; after a pair the place of the card named first is refilled first.

The game ends when no discard is available and no deal is left; only there does a state have a
score (cards not discarded, stock and grace cards included). Space moves never change the count,
so they do not keep a game going.

Sound reductions (each can be switched off through the constructor, for the tests that show the
verdict and the minimal score unchanged on small decks; they are not user options):

``kings``
    An available King is discarded at once, before anything else. Discarding a King never
    hurts: it pairs with nothing, and removing it only uncovers the card beneath. Without
    ``compulsory`` any line from the layout with the King can be copied move for move from the
    layout without it (a layout holding a subset of the cards, in the same order, does at least
    as well when the removed cards pair only among themselves). Under ``compulsory`` an available
    King forbids dealing, so every line discards it before the next deal anyway; moving that
    discard to the front changes no other move's legality.
``balanced``
    For a pair of ranks r and 13-r: when every remaining card of those two ranks is available
    on top of a pile or as a grace card (Thirteens: in the places), and there are as many of
    each rank, one such pair is discarded at once (the rule fires again until all are gone).
    Those cards pair only with each other and all of them can go right now, so removing them
    all first does at least as well as any other line (same subset argument); under
    ``compulsory`` none of them can be covered before they are all discarded (a pair among
    them is available until then, which forbids dealing), and any other line's pairing of
    them can be re-matched to this one without making another move illegal. The case of one
    card of each rank is "the only partner each can ever have".
``idle``
    (Baroness with ``spaces``.) Grace cards exist only once the stock is empty, and after that
    nothing is ever dealt: a grace card moved onto an empty pile, or the only card of a pile
    moved onto another empty pile, gains nothing (the layout is the same or worse). With the
    stock empty a card moved onto an empty pile goes to the leftmost one only (the empty piles
    are interchangeable then).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rulesets.cards import NAME, RANK, RANKS, Card, card_set
from rulesets.family import Family, Option, Variant
from rulesets.moves import DEAL, StockMove
from rulesets.notation import (
    MoveError,
    PositionError,
    cannot_read,
    check_distinct,
    describe_deal,
    is_deal,
    read_card,
    read_card_list,
    read_piles,
    read_sections,
    write_card_list,
    write_piles,
    write_sections,
)
from rulesets.picture import Picture, Place, changed_places
from solver.protocol import NO_SCORE

KING = 13
FULL_DECK = card_set(range(52))
#: RANK_CARDS[r]: the set (bit mask) of the four cards of rank r.
RANK_CARDS: tuple[int, ...] = (0,) + tuple(card_set(c for c in range(52) if RANK[c] == r) for r in range(1, 14))
_ALL_REDUCTIONS = frozenset({"kings", "balanced", "idle"})


# Moves are frozen dataclasses rather than NamedTuples: a NamedTuple equals any tuple of the same
# values, so ``move 6C to pile 7`` would equal ``discard 6C+7C`` (codes 5 and 6) and pass the
# replay's legality check.
@dataclass(frozen=True, slots=True)
class Discard:
    """``card`` discarded alone (a King: ``partner`` is None) or with ``partner``, the two values
    totalling 13."""

    card: int
    partner: int | None = None


@dataclass(frozen=True, slots=True)
class ToSpace:
    """(Baroness with ``spaces``) ``card``, a pile's top card or a grace card, moved onto the
    empty pile ``pile`` (0-based)."""

    card: int
    pile: int


BaronessMove = Discard | ToSpace | StockMove

#: ALONE[code]: the discard of that card alone (used for Kings only).
_ALONE = tuple(Discard(code) for code in range(52))


def _pair_move(a: int, b: int) -> Discard:
    """Baroness pairs are unordered: the lower value is named first."""
    return Discard(a, b) if RANK[a] < RANK[b] else Discard(b, a)


#: PAIRS[a][b]: the (unordered) discard of a and b if their values total 13, else None.
PAIRS: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(_pair_move(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)
#: ORDERED[a][b]: Discard(a, b) if a and b total 13 (Thirteens keeps the order), else None.
ORDERED: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(Discard(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)


def _unbalanced(left: int) -> int:
    """Cards that can never be discarded whatever happens: for each pair of ranks r, 13-r, the
    surplus of one rank over the other (each discard removes one of each)."""
    total = 0
    for rank in range(1, 7):
        total += abs((left & RANK_CARDS[rank]).bit_count() - (left & RANK_CARDS[13 - rank]).bit_count())
    return total


def _balanced_pair(found: Sequence[Discard], available: Sequence[int], left: int) -> Discard | None:
    """The first pair among ``found`` whose two ranks are wholly available and equally many."""
    counts = [0] * 14
    for code in available:
        counts[RANK[code]] += 1
    for move in found:
        if move.partner is None:
            continue
        low = RANK[move.card]
        high = 13 - low
        n = counts[low]
        if (
            n == counts[high]
            and (left & RANK_CARDS[low]).bit_count() == n
            and (left & RANK_CARDS[high]).bit_count() == n
        ):
            return move
    return None


_DISCARD = re.compile(r"^\s*discard\s+(\S+?)\s*(?:\+\s*(\S+))?\s*$", re.IGNORECASE)
_SPACE = re.compile(r"^\s*move\s+(\S+)\s+(?:to|onto)\s+pile\s+(\d+)\s*$", re.IGNORECASE)


def _read_discard(text: str, found: re.Match[str], pairs: Sequence[Sequence[Discard | None]]) -> Discard:
    """The discard written as ``text`` (matched by ``_DISCARD``): a King alone, or a pair from ``pairs``."""
    card = read_card(found.group(1), text)
    if found.group(2) is None:
        if RANK[card] != KING:
            raise MoveError(f"move {text.strip()!r}: only a King is discarded alone")
        return _ALONE[card]
    partner = read_card(found.group(2), text)
    move = pairs[card][partner]
    if move is None:
        raise MoveError(f"move {text.strip()!r}: {NAME[card]} and {NAME[partner]} do not total 13")
    return move


def _describe_discard(move: Discard) -> str:
    if move.partner is None:
        return f"discard {NAME[move.card]}"
    return f"discard {NAME[move.card]}+{NAME[move.partner]}"


def _check_discarded(present: Iterable[int], game: str) -> None:
    """Refuse a position whose missing cards no sequence of discards removes: Kings go alone,
    every other card with one of the rank that totals 13 with it, so as many of each are gone."""
    gone = FULL_DECK & ~card_set(present)
    for rank in range(1, 7):
        low, high = (gone & RANK_CARDS[rank]).bit_count(), (gone & RANK_CARDS[13 - rank]).bit_count()
        if low != high:
            raise PositionError(
                f"the {game} position lacks {low} card(s) of rank {RANKS[rank - 1]} but {high} of rank "
                f"{RANKS[12 - rank]}: cards are discarded in pairs totalling 13, so as many of each must be missing"
            )


# ---------------------------------------------------------------------------------------------
# Baroness


class BaronessLayout(NamedTuple):
    """Piles left to right (each bottom card first), grace cards (sorted), the undealt stock
    (next card first) and the set (bit mask) of cards not yet discarded."""

    piles: tuple[tuple[int, ...], ...]
    grace: tuple[int, ...]
    stock: tuple[int, ...]
    left: int


class Baroness:
    """Baroness with its options fixed. ``piles`` may be any positive number here (the tests
    use small decks and few piles); the command line offers 5, 6 or 7."""

    def __init__(
        self,
        piles: int = 5,
        compulsory: bool = True,
        kings_first: bool = False,
        spaces: bool = False,
        beneath: bool = False,
        reductions: frozenset[str] | set[str] = _ALL_REDUCTIONS,
    ) -> None:
        if piles < 1:
            raise ValueError(f"Baroness needs at least one pile, not {piles}")
        unknown = set(reductions) - _ALL_REDUCTIONS
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
        self._space_moves = tuple(tuple(ToSpace(code, pile) for pile in range(piles)) for code in range(52))

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
        found = [_ALONE[code] for code in available if RANK[code] == KING]
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
            forced = _balanced_pair(discards, self._available(state), state.left)
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
        key with stock, 0xFD one without, 0xFF separates piles; card codes are below 52.)

        The stock is keyed by its length: every state a search meets descends from its one start,
        whose stock it holds a suffix of, so the length says which (two positions written by hand
        may hold the same cards in another order, but they never share a table). Writing the stock
        out would change every key's digest, and with it the move order of the search's restarts."""
        piles, grace, stock, _ = state
        if stock:
            return b"\xff".join(map(bytes, piles)) + bytes((0xFE, len(stock)))
        if self.spaces:
            return b"\xff".join(map(bytes, sorted(piles))) + b"\xfd" + bytes(grace)
        singles = sorted(grace + tuple(pile[0] for pile in piles if len(pile) == 1))
        deep = sorted(pile for pile in piles if len(pile) > 1)
        return b"\xff".join(map(bytes, deep)) + b"\xfd" + bytes(singles)

    def score(self, state: BaronessLayout) -> int:
        if state.stock or (state.left and self.discards(state)):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: BaronessLayout) -> int:
        return _unbalanced(state.left)

    # -- notation ------------------------------------------------------------------------------

    def describe_move(self, state: BaronessLayout, move: BaronessMove) -> str:
        if move is DEAL:
            return describe_deal()
        if isinstance(move, ToSpace):
            return f"move {NAME[move.card]} to pile {move.pile + 1}"
        assert isinstance(move, Discard)
        return _describe_discard(move)

    def parse_move(self, state: BaronessLayout, text: str) -> BaronessMove:
        if is_deal(text) and len(text.split()) == 1:
            return DEAL
        found = _SPACE.match(text)
        if found:
            card = read_card(found.group(1), text)
            pile = int(found.group(2))
            if not 1 <= pile <= self.piles:
                raise MoveError(f"move {text.strip()!r}: piles are numbered 1 to {self.piles}")
            return self._space_moves[card][pile - 1]
        found = _DISCARD.match(text)
        if not found:
            raise cannot_read(text, "'discard KH', 'discard 6C+7D', 'deal' or 'move 9S to pile 3'")
        return _read_discard(text, found, PAIRS)

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
        _check_discarded(present, "Baroness")
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


# ---------------------------------------------------------------------------------------------
# Thirteens


class ThirteensLayout(NamedTuple):
    """The places' cards (None for an empty place), the stock (next card first), and the set
    (bit mask) of cards not yet discarded."""

    places: tuple[int | None, ...]
    stock: tuple[int, ...]
    left: int


class Thirteens:
    """Thirteens (PySolFC 593): every card in the places is available; a discarded card's place
    is refilled at once from the stock. ``places`` may be changed for tests on small decks."""

    def __init__(self, places: int = 10, reductions: frozenset[str] | set[str] = _ALL_REDUCTIONS) -> None:
        if places < 1:
            raise ValueError(f"Thirteens needs at least one place, not {places}")
        unknown = set(reductions) - _ALL_REDUCTIONS
        if unknown:
            raise ValueError(f"unknown reduction(s): {', '.join(sorted(unknown))}")
        self.places = places
        self.reduce_kings = "kings" in reductions
        self.reduce_balanced = "balanced" in reductions

    def start(self, deal: Sequence[Card]) -> ThirteensLayout:
        codes = tuple(card.code for card in deal)
        count = min(self.places, len(codes))
        layout: tuple[int | None, ...] = codes[:count] + (None,) * (self.places - count)
        return ThirteensLayout(layout, codes[count:], card_set(codes))

    def discards(self, state: ThirteensLayout) -> list[Discard]:
        """Every legal discard: each King, and each pair totalling 13 in both orders (the order
        decides which place is refilled first)."""
        cards = [code for code in state.places if code is not None]
        found = [_ALONE[code] for code in cards if RANK[code] == KING]
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
            pairs = [_pair_move(m.card, m.partner) for m in found if m.partner is not None]
            forced = _balanced_pair(pairs, cards, state.left)
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
        one search holds a suffix of its start's stock)."""
        return state.left.to_bytes(7, "little") + bytes((len(state.stock),))

    def score(self, state: ThirteensLayout) -> int:
        if state.left and self.discards(state):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: ThirteensLayout) -> int:
        return _unbalanced(state.left)

    def describe_move(self, state: ThirteensLayout, move: Discard) -> str:
        return _describe_discard(move)

    def parse_move(self, state: ThirteensLayout, text: str) -> Discard:
        found = _DISCARD.match(text)
        if not found:
            raise cannot_read(text, "'discard KH' or 'discard 6C+7D'")
        return _read_discard(text, found, ORDERED)

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
        _check_discarded(present, "Thirteens")
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


# ---------------------------------------------------------------------------------------------
# Families

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


def build_baroness(settings: Mapping[str, Any]) -> Baroness:
    return Baroness(
        piles=int(settings["piles"]),
        compulsory=bool(settings["compulsory"]),
        kings_first=bool(settings["kings_first"]),
        spaces=bool(settings["spaces"]),
        beneath=bool(settings["beneath"]),
    )


def build_thirteens(settings: Mapping[str, Any]) -> Thirteens:
    return Thirteens()


_BARONESS_RULES = """\
Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal one card face up onto each of P piles
(default 5); the rest is the stock. The top card of each pile is available. Discard an available
King alone, or two available cards from two different places (two piles, a pile and a grace
card, or two grace cards) whose values total 13. A deal puts one card from the stock onto each
pile, left to right, covering or filling it. When the stock holds fewer than P cards, those cards
become grace cards at once (with the last full deal): laid face up beside the piles, each
available, never dealt upon (5 piles: the last 2 cards). Won when every card is discarded.
Score: cards not discarded (stock and grace cards included). The game ends when the stock is
empty and no discard is available; only such ends are scored, so a reported line always runs
to one, and the solver reports the fewest cards left that any line reaches.
Choices made where the rules leave a point open:
- Under compulsory, any available discard forbids dealing, a King alone included.
- Under spaces, a move onto an empty pile is not a discard: it neither allows nor forbids
  dealing, and it does not count as play left at the end. While cards remain to deal, a pile's
  only card may move onto another empty pile (it changes which cards land on it).
- Under beneath, a top card pairs only with the card directly under it in its own pile; such a
  pair is an available discard, so under compulsory it forbids dealing.
- Under kings_first the four Kings leave before the deal; the other 48 cards keep their order.
Moves are written 'discard KH', 'discard 6C+7D' (lower value first), 'deal', 'move 9S to pile 3'
(piles numbered from 1 at the left). A position is written
'piles: 7H 2C / 8C / - / QD / 5S | grace: - | stock: 4C 9D ...' (each pile bottom card first,
'-' for an empty pile, the stock next card first)."""

_THIRTEENS_RULES = """\
Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal ten cards face up into ten places (two rows
of five); every card in the places is available. Discard a King alone or two cards whose values
total 13. Each emptied place is refilled at once from the stock: 'discard A+B' refills A's place
first, then B's, so both orders are legal moves (they may lead to different games). Once the
stock is empty an emptied place stays empty. Won when every card is discarded. Score: cards not
discarded (stock included); the game ends when no discard is available. Moves are written
'discard KH', 'discard 6C+7D'. A position is written 'places: 7H / 2C / QD / ... | stock: 4C ...'
(ten places, '-' for an empty one once the stock is out; the stock next card first)."""

FAMILIES = (
    Family(
        name="baroness",
        summary="discard Kings alone and pairs totalling 13 from the tops of five piles (Five Piles, Thirteen)",
        rules=_BARONESS_RULES,
        options=_OPTIONS,
        variants=(
            Variant("baroness", "the rules as above: 5 piles, compulsory discards, Kings discarded in play"),
            Variant(
                "baroness-classic",
                "the four Kings removed before the deal (Whitmore Jones 1890)",
                {"kings_first": True},
            ),
            Variant(
                "baroness-pysol",
                "PySolFC game 657: deal at will, cards may move onto empty piles",
                {"compulsory": False, "spaces": True},
            ),
        ),
        build=build_baroness,
        score_field="min_cards_left",
        score_label="cards left",
    ),
    Family(
        name="thirteens",
        summary="discard Kings and pairs totalling 13 from ten places refilled from the stock (PySolFC 593)",
        rules=_THIRTEENS_RULES,
        options=(),
        variants=(Variant("thirteens", "PySolFC game 593 (Helsinki)"),),
        build=build_thirteens,
        score_field="min_cards_left",
        score_label="cards left",
    ),
)
