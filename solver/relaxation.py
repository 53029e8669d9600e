"""An upper bound of the best chance that can lie below the clairvoyant share: information
relaxation (Brown, Smith and Sun, Operations Research 2010).

The clairvoyant share lets a player see every face-down card; it over-counts because a line may
be chosen for cards not yet seen. Information relaxation still lets the player see them, but
charges, each time cards are turned up, what seeing them gained: V of the position after the
cards that came, less the mean of V over every outcome they could have been (each equally
likely), for a value estimate V of positions as a player knows them. Those charges average zero
along any line a player who cannot see the stock could play, so for any V the mean over orders
of the best charged outcome (won 1, else 0, less the charges along its line) is at least the best
chance; with V the exact chance it is the chance itself, and with V = 0 the clairvoyant share.

Here V is the exact chance (:func:`solver.chance.best_chance`'s walk, its table shared by every
order) where at most ``reach`` cards lie face down, and 0 elsewhere. Where a line crosses to
``reach`` cards, what follows is worth exactly V there (the charges from then on add up to the
difference: the theorem again, which the tests hold the full walk to), so the walk stops at that
crossing: the bound is the mean over orders of the best line for a player who sees every card
but the last ``reach`` + 1, judged there by the exact chance.

The game is known only through :class:`solver.protocol.Concealable`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, NamedTuple

from solver.chance import (
    Concealed,
    Decide,
    Expectimax,
    Orders,
    Stopped,
    arranged,
    conceal,
    turned_up,
)
from solver.protocol import Concealable
from solver.result import Limits
from solver.table import dict_bytes, object_bytes

#: What a value in the walk's table costs beside its key (a float object), for ``--max-memory``.
_VALUE_BYTES = object_bytes(0.5)


class Relaxed(NamedTuple):
    """The bound: the mean over the orders walked of each one's best charged outcome (None where
    a limit stopped the walk before the first order was done), how many orders, the reach of its
    exact V, the limit that stopped it early (None where every order asked for was walked), and
    the states its walks and V's searches expanded."""

    value: float | None
    orders: int
    reach: int
    limit: str | None
    nodes: int


class _Walk:
    """The best charged outcome from full-information states of one order, V kept across orders."""

    def __init__(
        self, game: Concealable[Any, Any], decide: Decide, reach: int, *, limits: Limits, stop_at_reach: bool
    ) -> None:
        self.game, self.reach, self.limits, self.stop_at_reach = game, reach, limits, stop_at_reach
        self.worth = Expectimax(game, decide, limits)  # V, and the states counted against the limits
        self.best: dict[bytes, float] = {}
        self.best_bytes = 0  # its keys and values
        self.path: dict[bytes, int] = {}

    def order(self, state: Any, hidden: int) -> float:
        """The best charged outcome of one order (``state`` holds it; its last ``hidden`` stock
        cards face down to the player)."""
        self.best.clear()
        self.best_bytes = 0
        return self.walk(state, hidden, 0)[0]

    def walk(self, state: Any, hidden: int, depth: int) -> tuple[float, float]:
        """The best charged outcome from ``state``, and the shallowest path depth a cycle was cut
        at below it (a loop never helps; a value found under a cut is stored only once the walk
        is back where it was cut, as in the expectimax)."""
        game = self.game
        if game.is_won(state):
            return 1.0, math.inf
        if hidden <= 1 or (hidden <= self.reach and self.stop_at_reach):  # no more to charge, or V here
            return self.worth.value(conceal(game, state, hidden))[0], math.inf
        key = game.key(state) + bytes((hidden,))
        known = self.best.get(key)
        if known is not None:
            return known, math.inf
        at = self.path.get(key)
        if at is not None:
            return 0.0, at
        self.worth.count(1)
        self.path[key] = depth
        position = conceal(game, state, hidden)  # as the player knows it, for its moves' charges
        best, low = 0.0, math.inf  # a game that ends unwon, or a line given up, is worth 0
        for move in game.moves(state):
            worth, cut = self.move(state, position, move, depth=depth)
            low = min(low, cut)
            if worth > best:
                best = worth
                if best >= 1.0:
                    break
        del self.path[key]
        if best >= 1.0 or low >= depth:
            self.keep(key, best)
            return best, math.inf
        return best, low

    def keep(self, key: bytes, value: float) -> None:
        """Keep a value found, or stop the walk where its table beside the expectimax's would pass
        the memory bound (the compiled twin keeps both on one account)."""
        self.best_bytes += object_bytes(key) + _VALUE_BYTES
        bound = self.limits.max_memory
        if bound is not None and self.worth.table_bytes + self.best_bytes + dict_bytes(len(self.best) + 1) > bound:
            raise Stopped("max_memory")
        self.best[key] = value

    def move(self, state: Any, position: Concealed, move: Hashable, *, depth: int) -> tuple[float, float]:
        """The best charged outcome after ``move`` from ``state`` (``position``: as the player
        knows it), less the charge for the cards it turns up:
        where it turns them up within the reach, V of what came less the mean of V over what
        could have come (the expectimax's chance of the move); where the walk stops there, the
        first term cancels what follows and that mean is all (as the compiled twin takes it)."""
        game, hidden = self.game, position.hidden
        count = turned_up(game, position, move)
        after = game.apply(state, move)
        if not count or hidden - count > self.reach:
            return self.walk(after, hidden - count, depth + 1)
        self.worth.count(1)  # a crossing costs a state, whether or not V's walk expands any
        mean = self.worth.move_value(position, move, 0)[0]
        if self.stop_at_reach:
            return mean, math.inf
        worth, cut = self.walk(after, hidden - count, depth + 1)
        return worth - self.worth.value(conceal(game, after, hidden - count))[0] + mean, cut


def relaxed(
    game: Concealable[Any, Any],
    position: Concealed,
    drawn: Orders,
    *,
    decide: Decide,
    reach: int,
    limits: Limits,
    stop_at_reach: bool = True,
) -> Relaxed:
    """The information relaxation bound of ``position`` over the orders ``drawn``, V exact within
    ``reach`` face-down cards (see the module). ``limits`` bound the whole (every order's walk
    and V's searches together); a limit stops it between orders, or returns None before the
    first is done. Without ``stop_at_reach`` the walk goes on below the reach, charging at every
    card turned up: the same figure, far slower (the tests compare the two)."""
    walker = _Walk(game, decide, reach, limits=limits, stop_at_reach=stop_at_reach)
    total, done, limit = 0.0, 0, None
    try:
        for order in drawn.each():
            total += walker.order(arranged(game, position, order), position.hidden)
            done += 1
    except Stopped as stop:
        limit = stop.limit
    return Relaxed(total / done if done else None, done, reach, limit, walker.worth.nodes)
