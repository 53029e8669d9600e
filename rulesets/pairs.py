"""Discarding Kings alone and pairs totalling 13, shared by Baroness and Thirteens: the move, its
tables, its notation, and the facts about the cards left that both games' searches use.

Values: A=1, 2..10 face value, J=11, Q=12, K=13. Cards are their codes (see
:mod:`rulesets.cards`); a state keeps the set of cards not yet discarded as a bit mask, so the
score (cards left) and the lower bound are bit counts.

Two sound reductions both games apply (each can be switched off through the game's constructor,
for the tests that show the verdict and the minimal score unchanged on small decks; they are not
user options):

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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulesets.cards import NAME, RANK, RANKS, card_set
from rulesets.notation import MoveError, PositionError, quoted_move, read_card

KING = 13
FULL_DECK = card_set(range(52))
#: RANK_CARDS[r]: the set (bit mask) of the four cards of rank r.
RANK_CARDS: tuple[int, ...] = (0,) + tuple(card_set(c for c in range(52) if RANK[c] == r) for r in range(1, 14))


# Moves are frozen dataclasses rather than NamedTuples: a NamedTuple equals any tuple of the same
# values, so ``move 6C to pile 7`` would equal ``discard 6C+7C`` (codes 5 and 6) and pass the
# replay's legality check.
@dataclass(frozen=True, slots=True)
class Discard:
    """``card`` discarded alone (a King: ``partner`` is None) or with ``partner``, the two values
    totalling 13."""

    card: int
    partner: int | None = None


#: ALONE[code]: the discard of that card alone (used for Kings only).
ALONE = tuple(Discard(code) for code in range(52))


def pair_move(a: int, b: int) -> Discard:
    """Baroness pairs are unordered: the lower value is named first."""
    return Discard(a, b) if RANK[a] < RANK[b] else Discard(b, a)


#: PAIRS[a][b]: the (unordered) discard of a and b if their values total 13, else None.
PAIRS: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(pair_move(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)
#: ORDERED[a][b]: Discard(a, b) if a and b total 13 (Thirteens keeps the order), else None.
ORDERED: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(Discard(a, b) if RANK[a] + RANK[b] == 13 else None for b in range(52)) for a in range(52)
)


def unbalanced(left: int) -> int:
    """Cards that can never be discarded whatever happens: for each pair of ranks r, 13-r, the
    surplus of one rank over the other (each discard removes one of each)."""
    total = 0
    for rank in range(1, 7):
        total += abs((left & RANK_CARDS[rank]).bit_count() - (left & RANK_CARDS[13 - rank]).bit_count())
    return total


def balanced_pair(found: Sequence[Discard], available: Sequence[int], left: int) -> Discard | None:
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


DISCARD_TEXT = re.compile(r"^\s*discard\s+(\S+?)\s*(?:\+\s*(\S+))?\s*$", re.IGNORECASE)


def read_discard(text: str, found: re.Match[str], pairs: Sequence[Sequence[Discard | None]]) -> Discard:
    """The discard written as ``text`` (matched by ``DISCARD_TEXT``): a King alone, or a pair from ``pairs``."""
    card = read_card(found.group(1), text)
    if found.group(2) is None:
        if RANK[card] != KING:
            raise MoveError(f"move {quoted_move(text)}: only a King is discarded alone")
        return ALONE[card]
    partner = read_card(found.group(2), text)
    move = pairs[card][partner]
    if move is None:
        raise MoveError(f"move {quoted_move(text)}: {NAME[card]} and {NAME[partner]} do not total 13")
    return move


def describe_discard(move: Discard) -> str:
    if move.partner is None:
        return f"discard {NAME[move.card]}"
    return f"discard {NAME[move.card]}+{NAME[move.partner]}"


def check_discarded(present: Iterable[int], game: str) -> None:
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
