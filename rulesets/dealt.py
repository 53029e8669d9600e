"""Deals written with the cards they turn up (``deal 7H 8C 9D 2S 3H``), as a game played without
seeing the stock records them: each card named as it was revealed. Where a game's own notation
writes a deal as ``deal`` alone (Baroness, Amazons), these names are what the player saw; read
back, they must be the cards the deal takes from the stock, in the order they leave it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rulesets.cards import NAME
from rulesets.notation import is_deal, read_card
from solver.errors import UnreadableMove


def _taken(game: Any, state: Any, move: Hashable) -> list[int]:
    """The cards ``move`` takes from the stock, next first (none in a game without a stock)."""
    if not hasattr(game, "stock"):
        return []
    before = list(game.stock(state))
    return before[: max(0, len(before) - len(game.stock(game.apply(state, move))))]


def named_deal(game: Any, state: Any, move: Hashable) -> str:
    """``move`` as the rules write it in ``state``, a deal that names no card followed by the
    cards it turns up."""
    text: str = game.describe_move(state, move)
    taken = _taken(game, state, move)
    if not is_deal(text) or len(text.split()) > 1 or not taken:
        return text
    return " ".join(["deal", *(NAME[code] for code in taken)])


def read_move(game: Any, state: Any, text: str) -> Any:
    """The move written ``text`` in ``state``: as the rules read it, or a deal naming the cards it
    turns up (ValueError, an illegal move, where they are not those cards)."""
    try:
        return game.parse_move(state, text)
    except UnreadableMove:
        words = text.split()
        if not is_deal(text) or len(words) < 2 or not hasattr(game, "stock"):
            raise
    move = game.parse_move(state, words[0])
    named = [read_card(word, text) for word in words[1:]]
    taken = _taken(game, state, move)
    if named != taken:
        turned = " ".join(NAME[code] for code in taken) or "no card"
        raise ValueError(f"the deal turns up {turned}, not {' '.join(words[1:])}")
    return move
