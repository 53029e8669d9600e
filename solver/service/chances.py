"""What a position with a face-down stock is worth: the exact best chance to win (expectimax),
or where that is not found a bracket around it: from below, the win rate of a player who cannot
see the stock (:mod:`solver.playouts`); from above, the share of the stock's orders that can be
won with every card known (hindsight); for the position and for each of its legal moves. Joins
the rulesets to :mod:`solver.chance`, within the budget of :mod:`solver.service.budget`."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, NamedTuple

from rulesets.concealed import write_concealed
from rulesets.notation import is_deal
from solver.chance import (
    Chance,
    ChanceStats,
    Concealed,
    Orders,
    OrderTally,
    Sampled,
    every_order,
    orders,
    turned_up,
    unseen,
)
from solver.draws import CLAIRVOYANT, MOST_SEED, stream
from solver.errors import OptionError
from solver.playouts import Playouts, PlayoutTally, play_orders
from solver.relaxation import Relaxed
from solver.result import Limits
from solver.service.budget import Plan, orders_states, plan
from solver.service.setup import Setup, number_text
from solver.service.stats import rate_range, wilson

#: The orders drawn for ``clairvoyant`` unless ``--samples`` says otherwise: on the compiled core
#: a few seconds at most for a Parlett or Baroness opening (see docs/face-down.md).
CLAIRVOYANT_SAMPLES = 1000
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
    tally: OrderTally
    #: Whether every order of the face-down cards was counted (else a uniform sample).
    every: bool
    #: The limit that stopped the orders before all those asked for were searched (None: none did).
    orders_limit: str | None = None
    #: The games a player who cannot see the stock played from here (None: none were played).
    played: PlayoutTally | None = None
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

    def won_played(self) -> tuple[float | None, float, float] | None:
        """The share of the played games won and its 95% Wilson interval (None: none played).
        Where every order was counted the games were played on them in order: over all of them
        the share is exact; over the first few (a limit stopped the games) it is no sample, so
        the share is None and its range counts the orders not played as lost and as won."""
        played = self.played
        if played is None:
            return None
        if self.every:
            total = self.orders
            if played.games >= total:
                share = played.won / played.games
                return share, share, share
            return None, played.won / total, (played.won + total - played.games) / total
        low, high = wilson(played.won, played.games)
        return played.won / played.games, low, high

    def bracket(self, ceiling: float | None = None) -> tuple[float, float]:
        """The bracket around a chance not found: the played games' low end, the clairvoyant's
        high end (or ``ceiling``, the relaxed bound's, where lower). Where every order is counted
        the low end is never above the high end; two sampled intervals can cross (6 of 6 games
        won, 13 of 30 orders), and the low end is then taken down to the high end, a weaker claim,
        never a bracket upside down."""
        rate = self.won_played()
        high = self.clairvoyant()[2] if ceiling is None else min(self.clairvoyant()[2], ceiling)
        low = 0.0 if rate is None else rate[1]
        return min(low, high), high

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
            "engine": setup.engine.chance_name,
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
    *,
    samples: int | None = None,
    rng_seed: int | None = None,
    with_moves: bool = False,
    relaxed_reach: int | None = None,
) -> Judged:
    """The position's worth and, ``with_moves``, every legal move's, best first, within the
    default budget or ``limits`` (:func:`solver.service.budget.plan`). ``samples`` (the most
    orders drawn, and the most played) and ``rng_seed`` default to CLAIRVOYANT_SAMPLES and
    DEFAULT_RNG_SEED, as solve and hint have them. Given ``relaxed_reach``, the position's
    information relaxation bound too (:mod:`solver.relaxation`, V exact within that many
    face-down cards), on the clairvoyant's orders."""
    check_reach(relaxed_reach)
    samples = CLAIRVOYANT_SAMPLES if samples is None else samples
    rng_seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    check_draw(samples, rng_seed)
    game: Any = setup.legal
    parts = plan(setup.costs(), position.hidden, limits)
    moves = tuple(game.moves(position.state)) if with_moves else ()
    targets = (None, *moves)
    seed = stream(CLAIRVOYANT, rng_seed)
    counted, every = _counted(setup, position, samples, seed=seed, targets=targets, parts=parts)
    drawn = orders(unseen(game, position), counted, seed, every=every)
    sampled = _clairvoyant(setup, position, drawn, targets=targets, parts=parts)
    tallies = _undecided_kept(sampled.tallies, every and sampled.limit is not None, position.hidden)
    found = _exact(
        setup, position, moves, none_won=every and tallies[0].won == 0 and not tallies[0].unknown, exact=parts.exact
    )
    found = found._replace(
        moves=tuple(_none_won(*judged, tally, every=every) for judged, tally in zip(found.moves, tallies[1:]))
    )
    played = None
    if found.chance is None:  # the bracket's lower side: on the clairvoyant's own orders, no more than it searched
        played = _played(
            setup, position, targets=targets, drawn=drawn, most=sum(sampled.tallies[0]), rng_seed=rng_seed, parts=parts
        )

    def worth(chance: float | None, index: int) -> Worth:
        tally = None if played is None else played.tallies[index]
        if chance is None and every and tally is not None and _met(tally, tallies[index]):
            chance = tally.won / tally.games  # both sides of the bracket exact and equal: the chance itself
        return Worth(chance, found.limit, tallies[index], every, sampled.limit, tally, *_player(played))

    judged = [
        MoveWorth(move_text(setup, position, move), worth(chance, index))
        for index, (move, chance) in enumerate(found.moves, 1)
    ]
    judged.sort(key=_best_first)
    bound = (
        None
        if relaxed_reach is None
        else _bound(setup, position, drawn, reach=relaxed_reach, parts=parts, limits=limits)
    )
    best = worth(found.chance, 0)
    return Judged(setup, position, best, tuple(judged), found.stats.nodes, found.stats.seconds, parts, bound)


def _played(
    setup: Setup, position: Concealed, *, targets: tuple[Any, ...], drawn: Orders, most: int, rng_seed: int, parts: Plan
) -> Playouts:
    """The games of a player who cannot see the stock, on the first ``most`` of the orders
    ``drawn`` (the clairvoyant's), within the played games' part of the budget."""
    states, seconds, move_states = parts.played()
    return play_orders(
        setup.engine,
        position,
        targets=targets,
        drawn=drawn,
        most=most,
        rng_seed=rng_seed,
        budget=states,
        max_seconds=seconds,
        move_states=move_states,
    )


def _clairvoyant(setup: Setup, position: Concealed, drawn: Orders, *, targets: tuple[Any, ...], parts: Plan) -> Sampled:
    """The orders ``drawn`` searched with every card known, for each of ``targets``, within the
    orders' part of the budget (each search counted at the floor of a move played at least)."""
    return setup.engine.clairvoyant(
        position,
        drawn=drawn,
        targets=targets,
        limits=parts.orders,
        budget=parts.orders_states,
        floor=parts.move_states,
    )


def _exact(
    setup: Setup, position: Concealed, moves: tuple[Hashable, ...], *, none_won: bool, exact: Limits | None
) -> Chance:
    """The exact chance of the position and of each of ``moves``: 0 where no order at all can be
    won (``none_won``: after any move either, nor can a player who does not see them, since
    chance <= clairvoyant, and the search is spared); not tried where ``exact`` is None (beyond
    what the exact search answers within its share)."""
    if none_won:
        return Chance(0.0, tuple((move, 0.0) for move in moves), None, ChanceStats(0, 0, 0, 0.0))
    if exact is None:
        return Chance(None, tuple((move, None) for move in moves), "budget", ChanceStats(0, 0, 0, 0.0))
    return setup.engine.best_chance(position, limits=exact, with_moves=bool(moves))


def _met(played: PlayoutTally, tally: OrderTally) -> bool:
    """Whether the games played on every order won every order that can be won (none left
    undecided): the player's exact share is then the clairvoyant's, and the chance lies between."""
    return played.games == sum(tally) and not tally.unknown and played.won == tally.won


def _none_won(move: Hashable, chance: float | None, tally: OrderTally, *, every: bool) -> tuple[Hashable, float | None]:
    """A move's exact chance: 0 where no order at all can be won after it (as for the position:
    a player who cannot see the cards wins no more than one who can), whatever stopped its
    search."""
    if chance is None and every and tally.won == 0 and tally.unknown == 0:
        return move, 0.0
    return move, chance


def _undecided_kept(tallies: tuple[OrderTally, ...], cut: bool, hidden: int) -> tuple[OrderTally, ...]:
    """Where every order was to be counted and a limit ``cut`` them short, the orders not
    reached counted as undecided, not left out."""
    if not cut:
        return tallies
    total = math.factorial(hidden)
    return tuple(tally._replace(unknown=tally.unknown + total - sum(tally)) for tally in tallies)


def _bound(setup: Setup, position: Concealed, drawn: Orders, *, reach: int, parts: Plan, limits: Limits) -> Relaxed:
    """The information relaxation bound on the clairvoyant's orders, within its part of the
    budget (its limit named ``budget`` where the default budget's states stopped it)."""
    if parts.reach is not None and min(reach, position.hidden) > parts.reach:
        return Relaxed(None, 0, reach, "reach", 0)  # V's exact walks alone are beyond the share: said, not tried
    bound = setup.engine.relaxed(position, drawn=drawn, reach=reach, limits=parts.relaxed)
    if bound.limit == "max_nodes" and limits.max_nodes is None:
        return bound._replace(limit="budget")
    return bound


def _player(played: Playouts | None) -> tuple[str | None, dict[str, Any] | None, str | None]:
    """The player of ``played``, its settings, and the limit that cut its games short."""
    return (None, None, None) if played is None else (played.player, played.settings, played.limit)


def _counted(
    setup: Setup, position: Concealed, samples: int, *, seed: int, targets: tuple[Any, ...], parts: Plan
) -> tuple[int, bool]:
    """The orders to search, and whether they are every order of the face-down cards: every order
    where all of them fit in half the default budget's states for the orders, whatever
    ``samples`` says (at most PILOT_ORDERS of them, or as the first PILOT_ORDERS drawn show,
    each search counted at its floor: the same choice whatever limits were given, so the same on
    any machine); else ``samples`` drawn. So a 7-card position's 5,040 orders are all counted
    where a sample of 1,000 would only estimate them, and 12 cards' 479,001,600 orders are drawn
    however many are asked for, never a first few of every one."""
    hidden, half, floor = position.hidden, orders_states(setup.costs()) // 2, parts.move_states
    if every_order(hidden, PILOT_ORDERS):
        return math.factorial(hidden), True
    if not every_order(hidden, half // (floor * len(targets))):
        return samples, False  # more orders than the share holds at their floor cost: never all
    every = math.factorial(hidden)
    rules: Any = setup.legal
    pilot = setup.engine.clairvoyant(
        position,
        drawn=orders(unseen(rules, position), PILOT_ORDERS, seed, every=False),
        targets=targets,
        limits=parts.orders,
        budget=half,
        floor=floor,
    )
    if pilot.limit is not None or any(tally.unknown for tally in pilot.tallies):
        return samples, False
    cost = pilot.nodes + floor * PILOT_ORDERS * len(targets)  # at least what the floors charge
    return (every, True) if cost * every <= PILOT_ORDERS * half else (samples, False)


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


def _best_first(judged: MoveWorth) -> tuple[bool, float, float]:
    """A hint's order: by what is known of each move's chance, the exact figure, else the low end
    of its bracket (a move whose chance may lie below a known figure never ranks above it), the
    moves with neither after; then by the orders that can be won with every card known."""
    worth = judged.worth
    known = worth.chance
    if known is None and worth.played is not None:
        known = worth.bracket()[0]
    return known is None, -(known or 0.0), -(worth.tally.won + worth.tally.unknown / 2)


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
            low, high = worth.bracket(ceiling)
            sure = worth.every and ceiling is None and worth.clairvoyant()[0] is not None
            chance = f"chance to win with best play: between {percent(low)} and {percent(high)}"
            chance += "" if sure else " (95%)"
    lines = [chance]
    if worth.chance is None:
        lines += played_text(worth)
    elif worth.limit is not None and worth.played is not None:  # found by the bracket meeting itself
        lines.append(f"  (the exact search stopped, {worth.limit}: a player who cannot see the stock won every one")
        lines.append(f"  of its {_count(worth.orders)} that can be won, so the chance is that share)")
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


def played_text(worth: Worth) -> list[str]:
    """What the player who cannot see the stock won (none where no game was played): on every
    order, on the first few of every one, or on orders drawn."""
    rate, played = worth.won_played(), worth.played
    if rate is None or played is None:
        return []
    who = player_words(worth.player, worth.player_settings)
    games = played.games
    if not worth.every:
        return [
            f"a player who cannot see the stock won {percent(rate[0] or 0.0)} of {games:,} drawn {_orders(games)}",
            f"  (95%: {percent(rate[1])} to {percent(rate[2])}; {who})",
        ]
    if rate[0] is not None:
        return [
            f"a player who cannot see the stock won {percent(rate[0])} of every one of its {_count(games)}",
            f"  ({who})",
        ]
    return [
        f"a player who cannot see the stock won {played.won:,} of the first {games:,} of its {_count(worth.orders)}",
        f"  ({percent(rate[1])} to {percent(rate[2])} of all of them; {who})",
    ]


def _count(orders: int) -> str:
    return f"{orders:,} {_orders(orders)}"


def relaxed_text(judged: Judged) -> list[str]:
    """The information relaxation bound's lines (none where it was not asked for)."""
    found = judged.relaxed
    if found is None:
        return []
    bound, low, high = judged.relaxed_bound()
    head = f"with what seeing the cards gained charged (V exact within {found.reach} face-down cards),"
    reach = None if judged.parts is None else judged.parts.reach
    if found.limit == "reach":
        needed = min(found.reach, judged.position.hidden)
        return [
            head,
            f"  not walked: its V needs the exact chance of {needed} cards face down,",
            f"  beyond the {reach} the default budget answers (give --relaxed {reach} or less, or --max-seconds)",
        ]
    if low is None or high is None:
        return [head, f"  no order was walked within the limits ({found.limit} reached): a lower --relaxed needs less"]
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
