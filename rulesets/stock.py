"""The stock as the search over unseen cards (:mod:`solver.chance`) reads and rearranges it.

Every game with a stock keeps it in a ``stock`` field of its state, next card first; that is all
:class:`solver.protocol.Concealable` asks of a game, so one mixin serves them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class StockInField:
    """``stock`` and ``with_stock`` for a ruleset whose states are NamedTuples with a ``stock``
    field (a tuple or bytes of card codes, next card first)."""

    def stock(self, state: Any) -> Sequence[int]:
        stock: Sequence[int] = state.stock
        return stock

    def with_stock(self, state: Any, stock: Sequence[int]) -> Any:
        return state._replace(stock=type(state.stock)(stock))
