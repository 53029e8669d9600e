"""What a position with a face-down stock is worth: the exact best chance to win (expectimax),
or where that is not found a bracket around it: from below, the win rate of a player who cannot
see the stock (:mod:`solver.played`); from above, the share of the stock's orders that can be
won with every card known (hindsight); for the position and for each of its legal moves. Joins
the rulesets to :mod:`solver.chance`, within the budget of :mod:`solver.service.budget`."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, NamedTuple

from rulesets.concealed import write_concealed
from rulesets.notation import is_deal
from solver.chance import Chance, ChanceStats, Concealed, Tally, every_order, turned_up, unseen
from solver.draws import CLAIRVOYANT, MOST_SEED, stream
from solver.engine import best_chance, chance_engine, hindsight, relaxed
from solver.errors import OptionError
from solver.played import Played, PlayedTally, play_orders
from solver.relaxation import Relaxed
from solver.result import Limits
from solver.service.budget import Plan, orders_states, plan
from solver.service.setup import Setup, number_text
from solver.service.stats import rate_range, wilson

#: The orders drawn for ``clairvoyant`` unless ``--samples`` says otherwise: on the compiled core
#: a few seconds at most for a Parlett or Baroness opening (see docs/face-down.md).
DEFAULT_SAMPLES = 1000
#: The seed of the orders' draw unless ``--rng-seed`` says otherwise: the same command prints the
#: same answer.
DEFAULT_RNG_SEED = 1
#: The orders first searched to judge whether every order fits the budget (where there are more
#: than the samples asked for).
PILOT_ORDERS = 100


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
    #: The games a player who cannot see the stock played from here (None: none were played).
    played: PlayedTally | None = None
    #: The player, and its settings, that played them.
    player: str | None = None
    player_settings: dict[str, Any] | None = None
    #: The limit that stopped the games before as many orders as asked for were played.
    played_limit: str | None = None

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

    def won_played(self) -> tuple[float, float, float] | None:
        """The share of the played games won and its 95% Wilson interval (None: none played)."""
        if self.played is None:
            return None
        low, high = wilson(self.played.won, self.played.games)
        return self.played.won / self.played.games, low, high

    def fields(self) -> dict[str, Any]:
        """The record's fields: chance, clairvoyant and its interval, orders, exact, and the games
        played (null where none were)."""
        share, low, high = self.clairvoyant()
        rate = self.won_played()
        return {
            "chance": self.chance,
            "chance_limit": self.limit,
            "clairvoyant": share,
            "clairvoyant_low": low,
            "clairvoyant_high": high,
            "orders": self.orders,
            "orders_limit": self.orders_limit,
            "exact": self.every and not self.tally.unknown,
            "played": None if rate is None else rate[0],
            "played_low": None if rate is None else rate[1],
            "played_high": None if rate is None else rate[2],
            "played_orders": None if self.played is None else self.played.games,
            "played_limit": self.played_limit,
            "player": self.player,
            "player_settings": self.player_settings,
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
    #: How the budget was split (solver.service.budget).
    parts: Plan | None = None
    #: The information relaxation bound (None: not asked for), on the clairvoyant's orders.
    relaxed: Relaxed | None = None

    def relaxed_bound(self) -> tuple[float | None, float | None, float | None]:
        """The bound and its 95% interval: exact where every order was walked; where every order
        was to be walked and a limit stopped the walk, the orders done are the first in
        lexicographic order, no sample, so the bound is unknown and its range counts the orders
        not walked as 0 and as 1; else the Wilson interval of the sampled mean (a mean of outcomes
        between 0 and 1 never needs it wider than a proportion's of the same mean). None where it
        was not asked for or no order was done."""
        found = self.relaxed
        if found is None or found.value is None:
            return None, None, None
        every = self.worth.every  # whether the clairvoyant's orders, the bound's, were every order
        if every and found.limit is None:
            return found.value, found.value, found.value
        total = found.value * found.orders
        if every:
            count = math.factorial(self.position.hidden)
            return None, total / count, (total + count - found.orders) / count
        low, high = wilson(total, found.orders)
        return found.value, low, high

    def record(self) -> dict[str, Any]:
        """The JSON record of ``solve --json`` (and, with ``moves``, of ``hint --json``)."""
        setup = self.setup
        bound, low, high = self.relaxed_bound()
        found = self.relaxed
        return {
            "game": setup.family.name,
            "variant": setup.variant,
            "options": dict(setup.settings),
            "position": write_concealed(setup.legal, self.position),
            "unseen": [_name(code) for code in unseen(setup.legal, self.position)],  # type: ignore[arg-type]
            **self.worth.fields(),
            "relaxed": bound,
            "relaxed_low": low,
            "relaxed_high": high,
            "relaxed_orders": None if found is None else found.orders,
            "relaxed_reach": None if found is None else found.reach,
            "relaxed_limit": None if found is None else found.limit,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "engine": chance_engine(setup.legal, setup.game),
        }


def _name(code: int) -> str:
    from rulesets.cards import NAME

    return NAME[code]


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
    relaxed_reach: int | None = None,
) -> Judged:
    """The position's worth and, ``with_moves``, every legal move's, best first, within the
    default budget or ``limits`` (:func:`solver.service.budget.plan`). ``samples`` (the most
    orders drawn, and the most played) and ``rng_seed`` default to DEFAULT_SAMPLES and
    DEFAULT_RNG_SEED, as solve and hint have them. Given ``relaxed_reach``, the position's
    information relaxation bound too (:mod:`solver.relaxation`, V exact within that many
    face-down cards), on the clairvoyant's orders."""
    check_reach(relaxed_reach)
    samples = DEFAULT_SAMPLES if samples is None else samples
    rng_seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    check_draw(samples, rng_seed)
    game: Any = setup.legal
    parts = plan(setup.variant, position.hidden, limits)
    moves = tuple(game.moves(position.state)) if with_moves else ()
    targets = (None, *moves)
    seed = stream(CLAIRVOYANT, rng_seed)
    counted = _counted(setup, position, samples, seed, targets, parts)
    sampled = hindsight(game, setup.game, position, counted, seed, targets, parts.orders, budget=parts.orders_states)
    every = every_order(position.hidden, counted)
    tallies = _undecided_kept(sampled.tallies, every and sampled.limit is not None, position.hidden)
    found = _exact(setup, position, moves, every and tallies[0].won == 0 and not tallies[0].unknown, parts.exact)
    played = None
    if found.chance is None:  # the bracket's lower side
        played = play_orders(
            game,
            setup.game,
            position,
            targets,
            samples,
            seed,
            rng_seed,
            parts.played_states,
            parts.played_seconds,
            parts.move_states,
        )

    def worth(chance: float | None, index: int) -> Worth:
        tally = None if played is None else played.tallies[index]
        return Worth(chance, found.limit, tallies[index], every, sampled.limit, tally, *_player(played))

    judged = [
        MoveWorth(move_text(setup, position, move), worth(chance, index))
        for index, (move, chance) in enumerate(found.moves, 1)
    ]
    judged.sort(key=_best_first)
    bound = None if relaxed_reach is None else _bound(setup, position, counted, seed, relaxed_reach, parts, limits)
    best = worth(found.chance, 0)
    return Judged(setup, position, best, tuple(judged), found.stats.nodes, found.stats.seconds, parts, bound)


def _exact(
    setup: Setup, position: Concealed, moves: tuple[Hashable, ...], none_won: bool, exact: Limits | None
) -> Chance:
    """The exact chance of the position and of each of ``moves``: 0 where no order at all can be
    won (``none_won``: after any move either, nor can a player who does not see them, since
    chance <= clairvoyant, and the search is spared); not tried where ``exact`` is None (beyond
    what the exact search answers within its share)."""
    if none_won:
        return Chance(0.0, tuple((move, 0.0) for move in moves), None, ChanceStats(0, 0, 0, 0.0))
    if exact is None:
        return Chance(None, tuple((move, None) for move in moves), "budget", ChanceStats(0, 0, 0, 0.0))
    rules: Any = setup.legal
    return best_chance(rules, setup.game, position, exact, bool(moves))


def _undecided_kept(tallies: tuple[Tally, ...], cut: bool, hidden: int) -> tuple[Tally, ...]:
    """Where every order was to be counted and a limit ``cut`` them short, the orders not
    reached counted as undecided, not left out."""
    if not cut:
        return tallies
    total = math.factorial(hidden)
    return tuple(tally._replace(unknown=tally.unknown + total - sum(tally)) for tally in tallies)


def _bound(
    setup: Setup, position: Concealed, counted: int, seed: int, reach: int, parts: Plan, limits: Limits
) -> Relaxed:
    """The information relaxation bound on the clairvoyant's orders, within its part of the
    budget (its limit named ``budget`` where the default budget's states stopped it)."""
    rules: Any = setup.legal
    bound = relaxed(rules, setup.game, position, counted, seed, reach, parts.relaxed)
    if bound.limit == "max_nodes" and limits.max_nodes is None:
        return bound._replace(limit="budget")
    return bound


def _player(played: Played | None) -> tuple[str | None, dict[str, Any] | None, str | None]:
    """The player of ``played``, its settings, and the limit that cut its games short."""
    return (None, None, None) if played is None else (played.player, played.settings, played.limit)


def _counted(setup: Setup, position: Concealed, samples: int, seed: int, targets: tuple[Any, ...], parts: Plan) -> int:
    """The orders to search: ``samples`` (every order where there are no more), or every order
    where there are more but the first PILOT_ORDERS drawn show that all of them would take at
    most half the default budget's states for the orders (whatever limits were given, so the
    choice is the same on any machine): a 7-card position's 5,040 orders, say, which a sample of
    1,000 would only estimate."""
    hidden, half = position.hidden, orders_states(setup.variant) // 2
    if every_order(hidden, samples) or not every_order(hidden, half):
        return samples  # all counted already, or more orders than states: never all
    rules: Any = setup.legal
    pilot = hindsight(rules, setup.game, position, PILOT_ORDERS, seed, targets, parts.orders, budget=half)
    if pilot.limit is not None or any(tally.unknown for tally in pilot.tallies):
        return samples
    every = math.factorial(hidden)
    return every if pilot.nodes * every <= PILOT_ORDERS * half else samples


#: The most face-down cards V may be exact within (the compiled core's most face-down cards).
MOST_REACH = 64


def check_reach(reach: int | None) -> None:
    """Refuse a reach of V that is no count of face-down cards."""
    if reach is not None and not 0 <= reach <= MOST_REACH:
        raise OptionError(
            f"the bound's reach (--relaxed) is a count of face-down cards from 0 to {MOST_REACH}, not "
            f"{number_text(reach)}: e.g. --relaxed 4"
        )


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


def worth_text(worth: Worth, ceiling: float | None = None) -> list[str]:
    """What a position or a move is worth, in words a player understands: the exact chance, or
    where it was not found the bracket (a player's own result below, the clairvoyant's above,
    or ``ceiling``, the information relaxation bound's 95% end, where that is lower), then the
    figures the bracket comes from."""
    if worth.chance is not None:
        chance = f"chance to win with best play: {percent(worth.chance)} (exact)"
    else:
        rate = worth.won_played()
        if rate is None:
            chance = f"chance to win with best play: not found within the limits ({worth.limit} reached)"
        else:
            high = worth.clairvoyant()[2] if ceiling is None else max(rate[1], min(worth.clairvoyant()[2], ceiling))
            chance = f"chance to win with best play: between {percent(rate[1])} and {percent(high)} (95%)"
    lines = [chance]
    rate = worth.won_played() if worth.chance is None else None
    if rate is not None and worth.played is not None:
        games = worth.played.games
        lines += [
            f"a player who cannot see the stock won {percent(rate[0])} of {games:,} drawn {_orders(games)}",
            f"  (95%: {percent(rate[1])} to {percent(rate[2])}; {player_words(worth.player, worth.player_settings)})",
        ]
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
    return [*lines, f"with the stock turned face up, {seen}"]


def relaxed_text(judged: Judged) -> list[str]:
    """The information relaxation bound's lines (none where it was not asked for)."""
    found = judged.relaxed
    if found is None:
        return []
    bound, low, high = judged.relaxed_bound()
    head = f"with what seeing the cards gained charged (V exact within {found.reach} face-down cards),"
    if low is None or high is None:
        return [head, f"  no order was walked within the limits ({found.limit} reached)"]
    count = f"{found.orders:,} {_orders(found.orders)}"
    if bound is None:  # the first orders of every one: a range, no estimate
        walked = f"{found.orders:,} of its {math.factorial(judged.position.hidden):,} orders walked"
        return [head, f"  a ceiling of {percent(low)} to {percent(high)} ({walked}, {found.limit})"]
    if low == high:
        return [head, f"  a ceiling of {percent(bound)}, over every one of its {count}"]
    cut = "" if found.limit is None else f"; {found.limit} reached"
    return [head, f"  a ceiling of {percent(bound)} over {count} sampled (95%: up to {percent(high)}{cut})"]


def player_words(name: str | None, settings: dict[str, Any] | None) -> str:
    """The player of a bracket's lower side as a reader names it: ``the sampling player, 100
    orders a move``."""
    samples = (settings or {}).get("samples")
    return f"the {name} player" + ("" if samples is None else f", {samples:,} orders a move")


def _orders(count: int) -> str:
    return "order" if count == 1 else "orders"
