"""What a position with a face-down stock is worth: the exact best chance to win (expectimax)
and the share of the stock's orders that can be won with every card known (hindsight), for the
position and for each of its legal moves. Joins the rulesets to :mod:`solver.chance`."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, NamedTuple

from rulesets.concealed import write_concealed
from rulesets.notation import is_deal
from solver.chance import Chance, ChanceStats, Concealed, Tally, every_order, turned_up, unseen
from solver.draws import CLAIRVOYANT, MOST_SEED, stream
from solver.engine import best_chance, chance_engine, hindsight
from solver.errors import OptionError
from solver.result import Limits
from solver.service.setup import Setup, number_text
from solver.service.stats import rate_range

#: The orders drawn for ``clairvoyant`` unless ``--samples`` says otherwise: on the compiled core
#: a few seconds at most for a Parlett or Baroness opening (see docs/face-down.md).
DEFAULT_SAMPLES = 1000
#: The seed of the orders' draw unless ``--rng-seed`` says otherwise: the same command prints the
#: same answer.
DEFAULT_RNG_SEED = 1
#: The CPU seconds the exact search gets when neither --max-nodes nor --max-seconds is given.
DEFAULT_CHANCE_SECONDS = 5.0


class Worth(NamedTuple):
    """What a position (or a move) is worth: the best chance to win (None where ``limit`` cut
    its search), and how many of the drawn orders of the stock can be won with every card known."""

    chance: float | None
    limit: str | None
    tally: Tally
    #: Whether every order of the face-down cards was counted (else a uniform sample).
    every: bool
    #: The limit that stopped the orders before all those asked for were searched (None: none did).
    orders_limit: str | None = None

    @property
    def orders(self) -> int:
        return sum(self.tally)

    def clairvoyant(self) -> tuple[float | None, float, float]:
        """The share of orders won (None where some order was left undecided), and its 95%
        Wilson interval, widened to take in the undecided orders either way."""
        won, unknown = self.tally.won, self.tally.unknown
        if self.every and not unknown:
            share = won / self.orders
            return share, share, share
        low, high = rate_range(won, unknown, self.orders)
        return (None if unknown else won / self.orders), low, high

    def fields(self) -> dict[str, Any]:
        """The record's fields: chance, clairvoyant and its interval, orders, exact."""
        share, low, high = self.clairvoyant()
        return {
            "chance": self.chance,
            "chance_limit": self.limit,
            "clairvoyant": share,
            "clairvoyant_low": low,
            "clairvoyant_high": high,
            "orders": self.orders,
            "orders_limit": self.orders_limit,
            "exact": self.every and not self.tally.unknown,
        }


class MoveWorth(NamedTuple):
    """One legal move of a face-down position and what it is worth."""

    move: str
    worth: Worth

    def record(self) -> dict[str, Any]:
        return {"move": self.move, **self.worth.fields()}


class Judged(NamedTuple):
    """A face-down position judged: its worth, each move's (best first, for a hint), and the
    figures of the exact search."""

    setup: Setup
    position: Concealed
    worth: Worth
    moves: tuple[MoveWorth, ...]
    nodes: int
    seconds: float

    def record(self) -> dict[str, Any]:
        """The JSON record of ``solve --json`` (and, with ``moves``, of ``hint --json``)."""
        setup = self.setup
        return {
            "game": setup.family.name,
            "variant": setup.variant,
            "options": dict(setup.settings),
            "position": write_concealed(setup.legal, self.position),
            "unseen": [_name(code) for code in unseen(setup.legal, self.position)],  # type: ignore[arg-type]
            **self.worth.fields(),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "engine": chance_engine(setup.legal, setup.game),
        }


def _name(code: int) -> str:
    from rulesets.cards import NAME

    return NAME[code]


def chance_limits(limits: Limits) -> Limits:
    """The exact search's limits: the user's, or a default CPU budget where neither a node nor a
    time limit was given (so that an answer, or null, comes within seconds)."""
    if limits.max_nodes is None and limits.max_seconds is None:
        return limits._replace(max_seconds=DEFAULT_CHANCE_SECONDS)
    return limits


def move_text(setup: Setup, position: Concealed, move: Hashable) -> str:
    """A move as the player writes it: a deal that turns up a face-down card is ``deal`` (the
    card is not known yet)."""
    text = setup.legal.describe_move(position.state, move)
    if is_deal(text) and turned_up(setup.legal, position, move):  # type: ignore[arg-type]
        return "deal"
    return text


def judge(
    setup: Setup,
    position: Concealed,
    limits: Limits,
    samples: int | None = None,
    rng_seed: int | None = None,
    with_moves: bool = False,
) -> Judged:
    """The position's worth and, ``with_moves``, every legal move's, best first; ``limits`` bound
    the exact search as a whole (see :func:`chance_limits`) and each order's search, and
    ``max_seconds`` the orders as a whole (:func:`solver.chance.hindsight`). ``samples``
    and ``rng_seed`` default to DEFAULT_SAMPLES and DEFAULT_RNG_SEED, as solve and hint have them."""
    samples = DEFAULT_SAMPLES if samples is None else samples
    rng_seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    check_draw(samples, rng_seed)
    game: Any = setup.legal
    moves = tuple(game.moves(position.state)) if with_moves else ()
    sampled = hindsight(game, setup.game, position, samples, stream(CLAIRVOYANT, rng_seed), (None, *moves), limits)
    every = every_order(position.hidden, samples)
    tallies = sampled.tallies
    if every and sampled.limit is not None:  # the orders not reached are undecided, not left out
        total = math.factorial(position.hidden)
        tallies = tuple(tally._replace(unknown=tally.unknown + total - sum(tally)) for tally in tallies)
    if every and tallies[0].won == 0 and not tallies[0].unknown:
        # No order can be won, after any move either: nor can a player who does not see them
        # (chance <= clairvoyant), and the exact search is spared.
        found = Chance(0.0, tuple((move, 0.0) for move in moves), None, ChanceStats(0, 0, 0, 0.0))
    else:
        found = best_chance(game, setup.game, position, chance_limits(limits), with_moves)
    judged = [
        MoveWorth(move_text(setup, position, move), Worth(chance, found.limit, after, every, sampled.limit))
        for (move, chance), after in zip(found.moves, tallies[1:])
    ]
    judged.sort(key=_best_first)
    worth = Worth(found.chance, found.limit, tallies[0], every, sampled.limit)
    return Judged(setup, position, worth, tuple(judged), found.stats.nodes, found.stats.seconds)


def check_draw(samples: int, rng_seed: int) -> None:
    """Refuse a number of orders or a seed of the draw that no generator here takes."""
    if not 1 <= samples <= MOST_SAMPLES:
        raise OptionError(f"the orders drawn (--samples) must be from 1 to 2**63 - 1, not {number_text(samples)}")
    if not 0 <= rng_seed <= MOST_SEED:
        raise OptionError(
            f"the seed of the orders' draw (--rng-seed) must be from 0 to 2**64 - 1, not {number_text(rng_seed)}"
        )


#: The most orders a draw takes (a signed 64-bit count, as the compiled core keeps it).
MOST_SAMPLES = 2**63 - 1


def _best_first(judged: MoveWorth) -> tuple[float, float]:
    worth = judged.worth
    return (-1.0 if worth.chance is None else -worth.chance), -(worth.tally.won + worth.tally.unknown / 2)


def percent(share: float) -> str:
    """A share as a player reads it: 71.4%."""
    return f"{100 * share:.1f}%"


def worth_text(worth: Worth) -> list[str]:
    """What a position or a move is worth, in words a player understands (two lines within 80
    columns)."""
    if worth.chance is None:
        chance = f"chance to win with best play: not found within the limits ({worth.limit} reached)"
    else:
        chance = f"chance to win with best play: {percent(worth.chance)} (exact)"
    share, low, high = worth.clairvoyant()
    count = f"{worth.orders:,}"
    if worth.every and share is not None:
        seen = f"{percent(share)} of its {count} {_orders(worth.orders)} can be won"
    elif share is None:
        some = "its" if worth.every else "the sampled"
        seen = (
            f"{percent(low)} to {percent(high)} of {some} {count} {_orders(worth.orders)} can be won (some undecided)"
        )
    else:
        seen = f"{percent(share)} of {count} sampled orders can be won (95%: {percent(low)} to {percent(high)})"
    return [chance, f"with the stock turned face up, {seen}"]


def _orders(count: int) -> str:
    return "order" if count == 1 else "orders"
