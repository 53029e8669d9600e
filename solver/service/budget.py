"""The default budget of a face-down answer, and how it is split between its three parts: the
exact chance, the clairvoyant orders (the upper side) and the played games (the lower side);
and, where it is asked for, the information relaxation bound (a second upper side).

Without ``--max-seconds`` or ``--max-nodes`` the exact search is tried only where the position's
face-down cards are within what it was measured to answer in its share of CPU seconds (an
all-or-nothing figure: where it comes, it is the same on any machine), and the two sampled parts
each get a count of states, so that the same command draws and plays the same orders on any
machine and on both engines. docs/face-down.md ("What it costs") says what each share buys.
The rates that turn seconds into states are each preset's own, declared with it
(:class:`rulesets.family.Costs`, measured by ``python benchmarks/face_down.py``): its searches'
states a second (a preset whose searches are short runs below its rate, so its share holds more
orders than it needs), what a move played costs beyond any search (one flat 30 us had
``baroness-pysol``'s games, whose turns offer some four moves to rank, cost twice their share),
the most face-down cards its exact search answered within a second, and its relaxation walk's
states a second (counted at the searches' rate the bound took three times its share on a Parlett
opening).
"""

from __future__ import annotations

from typing import NamedTuple

from rulesets.family import Costs
from solver.result import Limits

#: The CPU seconds of the exact search where the default budget tries it.
EXACT_SECONDS = 1.0
#: The CPU seconds of the clairvoyant orders as a whole, and of the played games as a whole (the
#: player's first games included), each counted in states at the preset's measured rate.
ORDERS_SECONDS = 1.5
PLAYED_SECONDS = 2.5
#: The CPU seconds of the information relaxation bound where it is asked for (``--relaxed``),
#: counted in states likewise.
RELAXED_SECONDS = 1.5


class Plan(NamedTuple):
    """The limits of each part: the exact search's (None: not tried, its face-down cards beyond
    ``reach``), the orders' (and the states they take as a whole, None: no such bound), the
    played games' states and CPU seconds as a whole, and the states a move played counts as."""

    exact: Limits | None
    orders: Limits
    orders_states: int | None
    played_states: int | None
    played_seconds: float | None
    move_states: int
    reach: int | None
    #: The information relaxation bound's limits, where it is asked for.
    relaxed: Limits

    def played(self) -> tuple[int | None, float | None, int]:
        """What the played games get: their states and CPU seconds as a whole, and the states a
        move played counts as (solver.playouts.play_orders takes them so)."""
        return self.played_states, self.played_seconds, self.move_states


def plan(costs: Costs, hidden: int, limits: Limits) -> Plan:
    """The parts' limits for a position of a preset that costs ``costs``, with ``hidden`` cards
    face down: the default budget where neither ``--max-seconds`` nor ``--max-nodes`` was given,
    else the limits given (each part within them, as each part was before there was a budget)."""
    rate = costs.search_rate
    move = max(1, round(costs.move_us * 1e-6 * rate))
    if limits.max_nodes is not None or limits.max_seconds is not None:
        # --max-nodes bounds each search; the orders and the games as a whole keep their shares of
        # states (else a large --samples of orders that expand nothing would never end)
        by_states = limits.max_seconds is None
        orders = round(ORDERS_SECONDS * rate) if by_states else None
        played = round(PLAYED_SECONDS * rate) if by_states else None
        return Plan(limits, limits, orders, played, limits.max_seconds, move, None, limits)
    reach = costs.exact_reach
    exact = limits._replace(max_seconds=EXACT_SECONDS) if hidden <= reach else None
    relaxed = limits._replace(max_nodes=round(RELAXED_SECONDS * costs.walk_rate))
    return Plan(exact, limits, round(ORDERS_SECONDS * rate), round(PLAYED_SECONDS * rate), None, move, reach, relaxed)


def orders_states(costs: Costs) -> int:
    """The states the default budget gives the clairvoyant orders of a preset that costs ``costs``."""
    return round(ORDERS_SECONDS * costs.search_rate)
