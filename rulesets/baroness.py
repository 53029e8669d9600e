"""Baroness (Five Piles, Thirteen) and Thirteens: discard Kings alone and pairs totalling 13.

Values: A=1, 2..10 face value, J=11, Q=12, K=13. Cards are handled as their compact codes
(:attr:`rulesets.cards.Card.code`); a state keeps a bitmask of the cards not yet discarded, so
the score (cards left) and the lower bound are bit counts.

Baroness (:class:`Baroness`): P piles dealt one card each, then one card per pile per deal from
the stock; when the stock holds fewer than P cards they are laid out as grace cards at once (with
the last full deal). The options follow RULES.md: ``compulsory`` (deal only when no discard is
available), ``kings_first`` (the four Kings are removed before the deal), ``spaces`` (a pile's
top card or a grace card may move onto an empty pile) and ``beneath`` (an available card may pair
with the card directly beneath it in its own pile).

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
from typing import Any, Mapping, NamedTuple, Sequence

from rulesets.cards import CARDS, Card, CardError, parse_card
from rulesets.family import Family, Option, Variant
from rulesets.notation import MoveError
from solver.protocol import NO_SCORE

KING = 13
#: Value (rank) of each card code.
RANK: tuple[int, ...] = tuple(code % 13 + 1 for code in range(52))
#: RANK_BITS[r]: the bitmask of the four cards of rank r.
RANK_BITS: tuple[int, ...] = (0,) + tuple(sum(1 << (suit * 13 + r - 1) for suit in range(4)) for r in range(1, 14))
_ALL_REDUCTIONS = frozenset({"kings", "balanced", "idle"})


class Move(NamedTuple):
    """``card`` discarded alone (a King), or with ``partner`` (a pair), or moved onto the empty
    pile ``pile`` (0-based); ``card == -1`` is a deal. Unused fields are -1."""

    card: int
    partner: int = -1
    pile: int = -1


DEAL = Move(-1)
_KING_MOVES = tuple(Move(code) if RANK[code] == KING else None for code in range(52))


def _pair_move(a: int, b: int) -> Move:
    """Baroness pairs are unordered: the lower value is named first."""
    return Move(a, b) if RANK[a] < RANK[b] else Move(b, a)


#: PAIRS[a][b]: the (unordered) discard of a and b if their values total 13, else None.
PAIRS: tuple[tuple[Move | None, ...], ...] = tuple(
    tuple(_pair_move(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)
#: ORDERED[a][b]: Move(a, b) if a and b total 13 (Thirteens keeps the order), else None.
ORDERED: tuple[tuple[Move | None, ...], ...] = tuple(
    tuple(Move(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)


def _name(code: int) -> str:
    return str(CARDS[code])


def _bits(codes: Sequence[int]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << code
    return mask


def _unbalanced(left: int) -> int:
    """Cards that can never be discarded whatever happens: for each pair of ranks r, 13-r, the
    surplus of one rank over the other (each discard removes one of each)."""
    total = 0
    for rank in range(1, 7):
        total += abs((left & RANK_BITS[rank]).bit_count() - (left & RANK_BITS[13 - rank]).bit_count())
    return total


def _balanced_pair(found: Sequence[Move], available: Sequence[int], left: int) -> Move | None:
    """The first pair among ``found`` whose two ranks are wholly available and equally many."""
    counts = [0] * 14
    for code in available:
        counts[RANK[code]] += 1
    for move in found:
        if move.partner < 0:
            continue
        low = RANK[move.card]
        high = 13 - low
        n = counts[low]
        if (
            n == counts[high]
            and (left & RANK_BITS[low]).bit_count() == n
            and (left & RANK_BITS[high]).bit_count() == n
        ):
            return move
    return None


_DISCARD = re.compile(r"^\s*discard\s+(\S+?)\s*(?:\+\s*(\S+))?\s*$", re.IGNORECASE)
_SPACE = re.compile(r"^\s*move\s+(\S+)\s+(?:to|onto)\s+pile\s+(\d+)\s*$", re.IGNORECASE)
_DEAL = re.compile(r"^\s*deal\s*$", re.IGNORECASE)


def _read_card(text: str, word: str) -> int:
    try:
        return parse_card(word).code
    except CardError:
        raise MoveError(f"cannot read move {text.strip()!r}: {word!r} is not a card") from None


def _read_discard(text: str, found: re.Match[str], pairs: Sequence[Sequence[Move | None]]) -> Move:
    """The discard written as ``text`` (matched by ``_DISCARD``): a King alone, or a pair from ``pairs``."""
    card = _read_card(text, found.group(1))
    if found.group(2) is None:
        if RANK[card] != KING:
            raise MoveError(f"move {text.strip()!r}: only a King is discarded alone")
        return Move(card)
    partner = _read_card(text, found.group(2))
    move = pairs[card][partner]
    if move is None:
        raise MoveError(f"move {text.strip()!r}: {_name(card)} and {_name(partner)} do not total 13")
    return move


def _describe_discard(move: Move) -> str:
    if move.partner < 0:
        return f"discard {_name(move.card)}"
    return f"discard {_name(move.card)}+{_name(move.partner)}"


# ---------------------------------------------------------------------------------------------
# Baroness


class Layout(NamedTuple):
    """Piles left to right (each bottom card first), grace cards (sorted), the undealt stock
    (next card first) and the bitmask of cards not yet discarded."""

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
        self._space_moves = tuple(tuple(Move(code, -1, pile) for pile in range(piles)) for code in range(52))

    # -- setup and dealing ---------------------------------------------------------------------

    def start(self, deal: Sequence[Card]) -> Layout:
        codes = tuple(card.code for card in deal if not (self.kings_first and card.rank == KING))
        empty = ((),) * self.piles
        return self._deal(Layout(empty, (), codes, _bits(codes)))

    def _deal(self, state: Layout) -> Layout:
        """One card onto each pile, left to right; fewer than P left become grace cards."""
        piles, grace, stock, left = state
        count = self.piles
        if len(stock) < count:
            return Layout(piles, tuple(sorted(grace + stock)), (), left)
        piles = tuple(pile + (card,) for pile, card in zip(piles, stock))
        stock = stock[count:]
        if 0 < len(stock) < count:
            grace, stock = tuple(sorted(grace + stock)), ()
        return Layout(piles, grace, stock, left)

    # -- the rules -----------------------------------------------------------------------------

    def _available(self, state: Layout) -> list[int]:
        available = [pile[-1] for pile in state.piles if pile]
        available.extend(state.grace)
        return available

    def discards(self, state: Layout) -> list[Move]:
        """Every legal discard, Kings first: Kings, pairs of available cards from two different
        places, and (with ``beneath``) a top card with the card directly beneath it."""
        available = self._available(state)
        found = [_KING_MOVES[code] for code in available if RANK[code] == KING]
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

    def moves(self, state: Layout) -> list[Move]:
        found = self.discards(state)
        if found and self.reduce_kings and RANK[found[0].card] == KING:
            return found[:1]
        if found and self.reduce_balanced:
            forced = _balanced_pair(found, self._available(state), state.left)
            if forced is not None:
                return [forced]
        if state.stock and not (found and self.compulsory):
            found.append(DEAL)
        if self.spaces and () in state.piles:
            found.extend(self._moves_to_spaces(state.piles, state.grace, state.stock))
        return found

    def _moves_to_spaces(
        self, piles: tuple[tuple[int, ...], ...], grace: tuple[int, ...], stock: tuple[int, ...]
    ) -> list[Move]:
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

    def apply(self, state: Layout, move: Move) -> Layout:
        card, partner, target = move
        if card < 0:
            return self._deal(state)
        piles, grace, stock, left = state
        if target >= 0:
            piles, grace = self._take(piles, grace, card)
            return Layout(piles[:target] + ((card,),) + piles[target + 1 :], grace, stock, left)
        piles, grace = self._take(piles, grace, card)
        left &= ~(1 << card)
        if partner >= 0:
            piles, grace = self._take(piles, grace, partner)
            left &= ~(1 << partner)
        return Layout(piles, grace, stock, left)

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
        raise ValueError(f"{_name(card)} is not available")

    def is_won(self, state: Layout) -> bool:
        return state.left == 0

    def key(self, state: Layout) -> bytes:
        """While cards remain in the stock, each pile's place matters (it decides which cards
        land on it); once the stock is empty the piles are interchangeable and are sorted, and
        without ``spaces`` a lone card on a pile is the same as a grace card. (Byte 0xFE marks a
        key with stock, 0xFD one without, 0xFF separates piles; card codes are below 52.)"""
        piles, grace, stock, _ = state
        if stock:
            return b"\xff".join(map(bytes, piles)) + bytes((0xFE, len(stock)))
        if self.spaces:
            return b"\xff".join(map(bytes, sorted(piles))) + b"\xfd" + bytes(grace)
        singles = sorted(grace + tuple(pile[0] for pile in piles if len(pile) == 1))
        deep = sorted(pile for pile in piles if len(pile) > 1)
        return b"\xff".join(map(bytes, deep)) + b"\xfd" + bytes(singles)

    def score(self, state: Layout) -> int:
        if state.stock or (state.left and self.discards(state)):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: Layout) -> int:
        return _unbalanced(state.left)

    # -- notation ------------------------------------------------------------------------------

    def describe_move(self, state: Layout, move: Move) -> str:
        if move.card < 0:
            return "deal"
        if move.pile >= 0:
            return f"move {_name(move.card)} to pile {move.pile + 1}"
        return _describe_discard(move)

    def parse_move(self, state: Layout, text: str) -> Move:
        if _DEAL.match(text):
            return DEAL
        found = _SPACE.match(text)
        if found:
            card = _read_card(text, found.group(1))
            pile = int(found.group(2))
            if not 1 <= pile <= self.piles:
                raise MoveError(f"move {text.strip()!r}: piles are numbered 1 to {self.piles}")
            return Move(card, -1, pile - 1)
        found = _DISCARD.match(text)
        if not found:
            raise MoveError(
                f"cannot read move {text.strip()!r}: write e.g. 'discard KH', 'discard 6C+7D', "
                "'deal' or 'move 9S to pile 3'"
            )
        return _read_discard(text, found, PAIRS)

    def render(self, state: Layout) -> str:
        lines = [
            f"pile {i}: " + (" ".join(_name(code) for code in pile) if pile else "(empty)")
            for i, pile in enumerate(state.piles, 1)
        ]
        if state.grace:
            lines.append("grace: " + " ".join(_name(code) for code in state.grace))
        lines.append(f"stock: {len(state.stock)} cards; cards left: {state.left.bit_count()}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Thirteens


class Places(NamedTuple):
    """The places' cards (-1 for an empty place), the stock (next card first), and the bitmask
    of cards not yet discarded."""

    places: tuple[int, ...]
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

    def start(self, deal: Sequence[Card]) -> Places:
        codes = tuple(card.code for card in deal)
        count = min(self.places, len(codes))
        layout = codes[:count] + (-1,) * (self.places - count)
        return Places(layout, codes[count:], _bits(codes))

    def discards(self, state: Places) -> list[Move]:
        """Every legal discard: each King, and each pair totalling 13 in both orders (the order
        decides which place is refilled first)."""
        cards = [code for code in state.places if code >= 0]
        found: list[Move] = [_KING_MOVES[code] for code in cards if RANK[code] == KING]  # type: ignore[misc]
        for a in cards:
            row = ORDERED[a]
            for b in cards:
                move = row[b]
                if move is not None:
                    found.append(move)
        return found

    def moves(self, state: Places) -> list[Move]:
        found = self.discards(state)
        if found and self.reduce_kings and RANK[found[0].card] == KING:
            return found[:1]
        if found and self.reduce_balanced:
            cards = [code for code in state.places if code >= 0]
            pairs = [PAIRS[m.card][m.partner] for m in found if m.partner >= 0]
            forced = _balanced_pair(pairs, cards, state.left)  # type: ignore[arg-type]
            if forced is not None:
                return [forced]
        return found

    def apply(self, state: Places, move: Move) -> Places:
        places, stock, left = state
        layout = list(places)
        for code in (move.card, move.partner):
            if code < 0:
                continue
            place = layout.index(code)
            left &= ~(1 << code)
            if stock:
                layout[place], stock = stock[0], stock[1:]
            else:
                layout[place] = -1
        return Places(tuple(layout), stock, left)

    def is_won(self, state: Places) -> bool:
        return state.left == 0

    def key(self, state: Places) -> bytes:
        """The places are interchangeable and the stock is a suffix of the deal, so the cards
        not yet discarded and the stock's length say everything."""
        return state.left.to_bytes(7, "little") + bytes((len(state.stock),))

    def score(self, state: Places) -> int:
        if state.left and self.discards(state):
            return NO_SCORE
        return state.left.bit_count()

    def lower_bound(self, state: Places) -> int:
        return _unbalanced(state.left)

    def describe_move(self, state: Places, move: Move) -> str:
        return _describe_discard(move)

    def parse_move(self, state: Places, text: str) -> Move:
        found = _DISCARD.match(text)
        if not found:
            raise MoveError(f"cannot read move {text.strip()!r}: write e.g. 'discard KH' or 'discard 6C+7D'")
        return _read_discard(text, found, ORDERED)

    def render(self, state: Places) -> str:
        cells = ["--" if code < 0 else _name(code) for code in state.places]
        half = (len(cells) + 1) // 2
        rows = [" ".join(cells[:half]), " ".join(cells[half:])]
        return "\n".join(rows) + f"\nstock: {len(state.stock)} cards; cards left: {state.left.bit_count()}"


# ---------------------------------------------------------------------------------------------
# Families

_OPTIONS = (
    Option("piles", 5, "number of piles (the last 52 mod piles cards become grace cards)", (5, 6, 7)),
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


FAMILIES = (
    Family(
        name="baroness",
        summary="discard Kings alone and pairs totalling 13 from the tops of five piles (Five Piles, Thirteen)",
        rules=(
            "Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal one card face up onto each of P\n"
            "piles (default 5); the rest is the stock. The top card of each pile is available.\n"
            "Discard an available King alone, or two available cards from two different places\n"
            "(two piles, a pile and a grace card, or two grace cards) whose values total 13. A deal\n"
            "puts one card from the stock onto each pile, left to right, covering or filling it.\n"
            "When the stock holds fewer than P cards, those cards become grace cards at once (with\n"
            "the last full deal): laid face up beside the piles, each available, never dealt upon\n"
            "(5 piles: the last 2 cards). Won when every card is discarded. Score: cards not\n"
            "discarded (stock and grace cards included); the game ends when no discard is available\n"
            "and no deal is left, and the solver reports the fewest cards left that any line reaches.\n"
            "Moves are written 'discard KH', 'discard 6C+7D', 'deal', 'move 9S to pile 3' (piles\n"
            "numbered from 1 at the left)."
        ),
        options=_OPTIONS,
        variants=(
            Variant("baroness", "the rules as above: 5 piles, compulsory discards, Kings discarded in play"),
            Variant("baroness-classic", "the four Kings removed before the deal (Whitmore Jones 1890)", {"kings_first": True}),
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
        rules=(
            "Values: A=1, 2-10 face value, J=11, Q=12, K=13. Deal ten cards face up into ten places\n"
            "(two rows of five); every card in the places is available. Discard a King alone or two\n"
            "cards whose values total 13. Each emptied place is refilled at once from the stock;\n"
            "after a pair, the place of the card named first is refilled first, then its partner's.\n"
            "Won when every card is discarded. Score: cards not discarded (stock included); the game\n"
            "ends when no discard is available. Moves are written 'discard KH', 'discard 6C+7D'."
        ),
        options=(),
        variants=(Variant("thirteens", "PySolFC game 593 (Helsinki)"),),
        build=build_thirteens,
        score_field="min_cards_left",
        score_label="cards left",
    ),
)
