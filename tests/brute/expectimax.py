"""The referee of solver.chance.best_chance: the expectimax as it was before it pruned, walking
every legal move and every outcome of every chance node.

The pruned search must give the same chances (to rounding): its cuts only skip what cannot change
the answer. This walk keeps the same table keys, the same cuts of cycles and the same order of
sums, so the two differ only in what they leave out. It answers only unlimited searches (tests
give it small positions).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from solver.chance import Concealed, Decide, information_key, outcomes
from solver.protocol import Concealable
from solver.result import Limits

UNLIMITED = Limits()


class Expectimax:
    """Every move and every outcome walked; a value found under a cut of a cycle stored only once
    the walk is back at the position cut (``low``: the shallowest path depth cut at below)."""

    def __init__(self, game: Concealable[Any, Any], decide: Decide) -> None:
        self.game, self.decide = game, decide
        self.values: dict[bytes, float] = {}
        self.path: dict[bytes, int] = {}

    def value(self, position: Concealed, depth: int = 0) -> tuple[float, float]:
        game = self.game
        key = information_key(game, position)
        known = self.values.get(key)
        if known is not None:
            return known, math.inf
        at = self.path.get(key)
        if at is not None:
            return 0.0, at
        if game.is_won(position.state):
            self.values[key] = 1.0
            return 1.0, math.inf
        if position.hidden <= 1:
            won, _ = self.decide(position.state, UNLIMITED)
            assert won is not None
            self.values[key] = 1.0 if won else 0.0
            return self.values[key], math.inf
        self.path[key] = depth
        best, low = 0.0, math.inf
        for move in game.moves(position.state):
            worth, cut = self.move_value(position, move, depth)
            low = min(low, cut)
            if worth > best:
                best = worth
                if best >= 1.0:
                    break
        del self.path[key]
        if best >= 1.0 or low >= depth:
            self.values[key] = best
            return best, math.inf
        return best, low

    def move_value(self, position: Concealed, move: Hashable, depth: int) -> tuple[float, float]:
        total, count, low = 0.0, 0, math.inf
        for after in outcomes(self.game, position, move):
            worth, cut = self.value(after, depth + 1)
            total += worth
            count += 1
            low = min(low, cut)
        return min(total / count, 1.0), low


def best_chance(
    game: Concealable[Any, Any], position: Concealed, decide: Decide, moves: Sequence[Hashable] = ()
) -> tuple[float, tuple[float, ...]]:
    """The best chance to win from ``position``, and each of ``moves``'s, every line walked."""
    walk = Expectimax(game, decide)
    judged = tuple(walk.move_value(position, move, 0)[0] for move in moves)
    return (max(judged) if judged else walk.value(position)[0]), judged
