"""Deals written with the cards they take from the stock (``deal 7H 8C 9D 2S 3H``), as a game
played without seeing the stock records them: each card named as it left the stock. Where a
game's own notation writes a deal as ``deal`` alone (Baroness, Amazons), these names are what the
player saw. One notation, written here (:func:`named_deal`) and read here (:func:`split_named`,
:func:`read_move`) for ``play``, ``verify`` and ``solver.Game``: a deal names every card it takes,
next first, known or turned up; read back, they must be those cards, in that order.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rulesets.cards import NAME
from rulesets.notation import MoveError, UnreadableMove, is_deal, read_card


def taken(game: Any, state: Any, move: Hashable) -> tuple[int, ...]:
    """The cards ``move`` takes from the stock in ``state``, next first (none in a game without
    a stock)."""
    if not hasattr(game, "stock"):
        return ()
    before = tuple(game.stock(state))
    return before[: max(0, len(before) - len(game.stock(game.apply(state, move))))]


def named_deal(game: Any, state: Any, move: Hashable) -> str:
    """``move`` as the rules write it in ``state``, a deal that names no card followed by the
    cards it takes from the stock."""
    text: str = game.describe_move(state, move)
    cards = taken(game, state, move)
    if not is_deal(text) or len(text.split()) > 1 or not cards:
        return text
    return " ".join(["deal", *(NAME[code] for code in cards)])


def split_named(game: Any, state: Any, text: str) -> tuple[Any, tuple[int, ...] | None]:
    """A deal naming cards split into the move (as the rules read ``deal``) and the cards it
    names, or any other move as the rules read it with None: for a stock whose cards may lie
    face down, which the rules must not hold a name to. UnreadableMove where a name is no card."""
    words = text.split()
    if is_deal(text) and len(words) > 1 and hasattr(game, "stock"):
        return game.parse_move(state, words[0]), tuple(read_card(word, text) for word in words[1:])
    return game.parse_move(state, text), None


def check_named(game: Any, state: Any, move: Hashable, named: tuple[int, ...] | None) -> None:
    """A MoveError (the move is illegal) where ``move`` names cards (``named``; None: it names
    none) that are not those it takes from the stock in ``state``, in that order."""
    cards = taken(game, state, move)
    if named is not None and named != cards:
        turned = " ".join(NAME[code] for code in cards) or "no card"
        raise MoveError(f"the deal turns up {turned}, not {' '.join(NAME[code] for code in named)}")


def read_move(game: Any, state: Any, text: str) -> Any:
    """The move written ``text`` in ``state`` (every card of the stock known): as the rules read
    it (a one-card deal they write ``deal 7H`` included), or a deal naming the cards it takes (a
    MoveError, an illegal move, where they are not those cards in that order)."""
    try:
        return game.parse_move(state, text)
    except UnreadableMove:
        if not is_deal(text) or len(text.split()) < 2 or not hasattr(game, "stock"):
            raise
    move, named = split_named(game, state, text)
    check_named(game, state, move, named)
    return move
