"""The default budget of a face-down answer, and how it is split between its three parts: the
exact chance, the clairvoyant orders (the upper side) and the played games (the lower side);
and, where it is asked for, the information relaxation bound (a second upper side).

Without ``--max-seconds`` or ``--max-nodes`` the exact search is tried only where the position's
face-down cards are within what it was measured to answer in its share of CPU seconds (an
all-or-nothing figure: where it comes, it is the same on any machine), and the two sampled parts
each get a count of states, so that the same command draws and plays the same orders on any
machine and on both engines. docs/face-down.md ("What it costs") says what each share buys.
"""

from __future__ import annotations

from typing import NamedTuple

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

#: The states each preset's full-information searches expand a CPU second on the compiled core,
#: from the orders of a deal's opening (``python benchmarks/face_down.py``, column "states/s",
#: 2026-12-05, a 2-core machine shared with other work; docs/face-down.md): what turns the
#: budget's seconds into states. A preset whose searches are short runs below its rate here, so
#: its share holds more orders than it needs.
STATES_PER_SECOND = {
    "parlett": 10_300_000,
    "idle-year": 8_000_000,
    "self-working": 9_600_000,
    "baroness": 3_100_000,
    "baroness-classic": 2_700_000,
    "baroness-pysol": 2_000_000,
    "thirteens": 780_000,
    "nizhni-novgorod": 5_400_000,
    "amazons": 3_400_000,
    "amazons-dick": 2_600_000,
    "amazons-mms": 870_000,
    "amazons-pysol": 340_000,
}

#: The states each preset's information relaxation walk (``--relaxed``: its own states, its
#: crossings and V's exact walks and searches) expands a CPU second on the compiled core, from
#: deals 1-3's openings at reach 4, 6 million states each (``python benchmarks/face_down.py``,
#: column "relaxed/s", 2026-12-08, the lowest of the three, rounded down): what turns
#: RELAXED_SECONDS into states. The search's rate above had the bound take three times its share
#: on a Parlett opening, and the walk is faster than the search on others (Amazons).
RELAXED_STATES_PER_SECOND = {
    "parlett": 2_600_000,
    "idle-year": 2_100_000,
    "self-working": 2_400_000,
    "baroness": 2_300_000,
    "baroness-classic": 2_300_000,
    "baroness-pysol": 2_000_000,
    "thirteens": 2_500_000,
    "nizhni-novgorod": 3_500_000,
    "amazons": 5_600_000,
    "amazons-dick": 6_800_000,
    "amazons-mms": 5_800_000,
    "amazons-pysol": 3_800_000,
}

#: What a move played costs each preset beyond its player's searches, in CPU microseconds: the
#: rules in Python offering the moves, the player ranking them (the careful order applies each)
#: and one played (``python benchmarks/face_down.py``, column "us/move", 2026-12-06: careful
#: games from a deal's opening), counted in states likewise. One flat figure for all (30) had
#: ``baroness-pysol``'s games, whose turns offer some four moves, cost twice their share.
MOVE_MICROSECONDS = {
    "parlett": 16,
    "idle-year": 15,
    "self-working": 15,
    "baroness": 32,
    "baroness-classic": 33,
    "baroness-pysol": 59,
    "thirteens": 43,
    "nizhni-novgorod": 14,
    "amazons": 15,
    "amazons-dick": 16,
    "amazons-mms": 16,
    "amazons-pysol": 21,
}

#: The most face-down cards whose exact chance each preset answered within EXACT_SECONDS on the
#: compiled core (``python benchmarks/face_down.py --budgets 1,60``, 2026-12-05; docs/face-down.md);
#: a position with more is not tried by default. Options beyond a preset take their preset's.
EXACT_REACH = {
    "parlett": 9,
    "idle-year": 9,
    "self-working": 9,
    "baroness": 7,
    "baroness-classic": 8,
    "baroness-pysol": 7,
    "thirteens": 18,
    "nizhni-novgorod": 9,
    "amazons": 4,
    "amazons-dick": 4,
    "amazons-mms": 4,
    "amazons-pysol": 8,
}


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


def plan(variant: str, hidden: int, limits: Limits) -> Plan:
    """The parts' limits for a position of ``variant`` with ``hidden`` cards face down: the
    default budget where neither ``--max-seconds`` nor ``--max-nodes`` was given, else the
    limits given (each part within them, as each part was before there was a budget)."""
    rate = STATES_PER_SECOND[variant]
    move = max(1, round(MOVE_MICROSECONDS[variant] * 1e-6 * rate))
    if limits.max_nodes is not None or limits.max_seconds is not None:
        # --max-nodes bounds each search; the orders and the games as a whole keep their shares of
        # states (else a large --samples of orders that expand nothing would never end)
        by_states = limits.max_seconds is None
        orders = round(ORDERS_SECONDS * rate) if by_states else None
        played = round(PLAYED_SECONDS * rate) if by_states else None
        return Plan(limits, limits, orders, played, limits.max_seconds, move, None, limits)
    reach = EXACT_REACH[variant]
    exact = limits._replace(max_seconds=EXACT_SECONDS) if hidden <= reach else None
    relaxed = limits._replace(max_nodes=round(RELAXED_SECONDS * RELAXED_STATES_PER_SECOND[variant]))
    return Plan(exact, limits, round(ORDERS_SECONDS * rate), round(PLAYED_SECONDS * rate), None, move, reach, relaxed)


def orders_states(variant: str) -> int:
    """The states the default budget gives the clairvoyant orders of ``variant``."""
    return round(ORDERS_SECONDS * STATES_PER_SECOND[variant])
