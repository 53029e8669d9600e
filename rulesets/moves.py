"""The moves every ruleset shares: dealing from the stock and gathering a new stock.

Each game's other moves are small immutable values of its own (a pile moved onto another, a
discard, a play to a foundation); dealing is spelt the same way everywhere, as :data:`DEAL`,
written ``deal`` (``deal 7H`` where one known card is dealt).
"""

from __future__ import annotations

from enum import Enum


class StockMove(Enum):
    """A move of the stock: deal its next card (or round of cards), or gather a new stock."""

    DEAL = "deal"
    REDEAL = "redeal"

    def __repr__(self) -> str:
        return self.value.upper()


DEAL = StockMove.DEAL
REDEAL = StockMove.REDEAL
