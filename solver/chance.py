"""What a position is worth to a player who cannot see the stock.

A position with a face-down stock is a :class:`Concealed`: the game's state, whose stock holds the
known next cards followed by the face-down ones (kept sorted: their order is unknown), and how
many of those there are. Two figures answer for it:

- :func:`best_chance`: exact expectimax. A move that turns up face-down cards is a chance node,
  uniform over the ordered tuples of unseen cards it can turn up; every other move is the
  player's choice, who maximises the chance to win. The table is keyed on the layout plus the
  stock as known (the known cards in order, the unseen ones as a set). Where one card or none is
  face down, the order is known and the game's own search (passed in as ``decide``) answers.
- :func:`hindsight`: the share of the stock's orders under which the position can be won with
  every card known (perfect-information sampling): an upper bound of the chance. Every order is
  counted where there are at most as many as the samples asked for; otherwise orders are drawn
  uniformly, the same ones for every move judged, so that differences between moves are not noise.

The game is known only through :class:`solver.protocol.Concealable`.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, NamedTuple

from solver.protocol import Concealable
from solver.result import Limits

#: A full-information position decided: True won, False lost, None a limit stopped it; and the
#: states its search expanded. Called with the limits still left.
Decide = Callable[[Any, Limits], tuple[bool | None, int]]

#: What one table entry of the expectimax costs, beyond its key's bytes, as CPython holds it (a
#: dict slot, the key object and a float), for ``--max-memory``.
_ENTRY_BYTES = 120
#: The expectimax looks at its CPU time every this many states.
_CHECK_EVERY = 256


class Concealed(NamedTuple):
    """A position whose stock ends in ``hidden`` face-down cards (held sorted by code)."""

    state: Any
    hidden: int


def conceal(game: Concealable[Any, Any], state: Any, hidden: int) -> Concealed:
    """``state`` with the last ``hidden`` cards of its stock face down, in the canonical order
    (with none face down, ``state`` as it is: a game without a stock has no stock to read)."""
    if hidden == 0:
        return Concealed(state, 0)
    stock = list(game.stock(state))
    if not 0 <= hidden <= len(stock):
        raise ValueError(f"a stock of {len(stock)} cards cannot have {hidden} face down")
    known = len(stock) - hidden
    return Concealed(game.with_stock(state, stock[:known] + sorted(stock[known:])), hidden)


def unseen(game: Concealable[Any, Any], position: Concealed) -> tuple[int, ...]:
    """The face-down cards' codes, sorted."""
    stock = game.stock(position.state)
    return tuple(stock[len(stock) - position.hidden :])


def turned_up(game: Concealable[Any, Any], position: Concealed, move: Hashable) -> int:
    """How many face-down cards ``move`` turns up: the cards it takes from the stock beyond the
    known ones (a deal, or a refill from the stock), whatever their order; none where none lies
    face down (in a game with a stock or without)."""
    if position.hidden == 0:
        return 0
    before = len(game.stock(position.state))
    taken = before - len(game.stock(game.apply(position.state, move)))
    return max(0, taken - (before - position.hidden))


def outcomes(game: Concealable[Any, Any], position: Concealed, move: Hashable) -> Iterator[Concealed]:
    """What ``move`` may lead to, all equally likely, one at a time (a Baroness deal of five from
    many face-down cards has millions: the walk looks at its limits between them): the one sure
    outcome of a move that turns up no face-down card; else one for each ordered tuple of unseen
    cards it can turn up, in lexicographic order (as the compiled twin takes them, so that both
    add up the same values in the same order)."""
    count = turned_up(game, position, move)
    if count == 0:
        yield Concealed(game.apply(position.state, move), position.hidden)
        return
    stock = list(game.stock(position.state))
    known, hidden = stock[: len(stock) - position.hidden], stock[len(stock) - position.hidden :]
    for drawn in itertools.permutations(hidden, count):
        rest = [card for card in hidden if card not in drawn]  # still sorted
        yield Concealed(game.apply(game.with_stock(position.state, known + list(drawn) + rest), move), len(rest))


def information_key(game: Concealable[Any, Any], position: Concealed) -> bytes:
    """The layout's key, then the stock as far as it is known: the known cards in order and the
    unseen ones as a set (sorted), and how many are unseen."""
    return game.key(position.state) + b"\xfe" + bytes(game.stock(position.state)) + bytes((position.hidden,))


class ChanceStats(NamedTuple):
    """Counters of one expectimax: positions expanded (the full-information searches' states
    included), table entries and their bytes at the end, CPU seconds."""

    nodes: int
    table_entries: int
    table_bytes: int
    seconds: float


class Chance(NamedTuple):
    """The best chance to win (None where ``limit`` stopped the search first), and each move's
    chance in the game's order (empty unless asked for)."""

    chance: float | None
    moves: tuple[tuple[Hashable, float | None], ...]
    limit: str | None
    stats: ChanceStats


class _Stop(Exception):
    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


class _Expectimax:
    """One exact search over the unseen cards, its table kept across the moves of a hint.

    Cycles (a card moved to a space and back, say) are cut where the walk meets a position on its
    own path, as a loop never helps a player who wants to win. A value found under such a cut is
    only a lower bound until the walk is back at the position cut, so it is stored only then (the
    ``low`` each call returns is the shallowest path depth it was cut at).
    """

    def __init__(self, game: Concealable[Any, Any], decide: Decide, limits: Limits) -> None:
        self.game, self.decide, self.limits = game, decide, limits
        self.values: dict[bytes, float] = {}
        self.path: dict[bytes, int] = {}
        self.nodes = 0
        self.outcomes = 0
        self.table_bytes = 0
        self.started = time.process_time()

    def stats(self) -> ChanceStats:
        return ChanceStats(self.nodes, len(self.values), self.table_bytes, time.process_time() - self.started)

    def _left(self) -> Limits:
        """The limits still left for a full-information search."""
        nodes = None if self.limits.max_nodes is None else max(1, self.limits.max_nodes - self.nodes)
        seconds = self.limits.max_seconds
        if seconds is not None:
            seconds = max(1e-3, seconds - (time.process_time() - self.started))
        return Limits(nodes, seconds, self.limits.max_memory)

    def _count(self, nodes: int) -> None:
        before = self.nodes
        self.nodes += nodes
        limits = self.limits
        if limits.max_nodes is not None and self.nodes > limits.max_nodes:
            raise _Stop("max_nodes")
        if limits.max_seconds is not None and (
            self.nodes // _CHECK_EVERY != before // _CHECK_EVERY or nodes > 1
        ):  # a look at the clock costs as much as a small expansion: every so often
            if time.process_time() - self.started > limits.max_seconds:
                raise _Stop("max_seconds")

    def _look(self) -> None:
        """Every so many outcomes, a look at the clock: a chance node's outcomes may all be in
        the table already, so that no state is expanded (nor the time looked at) for long."""
        self.outcomes += 1
        if self.outcomes % _CHECK_EVERY == 0 and self.limits.max_seconds is not None:
            if time.process_time() - self.started > self.limits.max_seconds:
                raise _Stop("max_seconds")

    def _store(self, key: bytes, value: float) -> None:
        self.values[key] = value
        self.table_bytes += len(key) + _ENTRY_BYTES
        if self.limits.max_memory is not None and self.table_bytes > self.limits.max_memory:
            raise _Stop("max_memory")

    def value(self, position: Concealed, depth: int = 0) -> tuple[float, float]:
        """The best chance to win from ``position``, and the shallowest path depth a cycle was
        cut at below it (infinity where none was: the value is then exact)."""
        game = self.game
        key = information_key(game, position)
        known = self.values.get(key)
        if known is not None:
            return known, math.inf
        at = self.path.get(key)
        if at is not None:
            return 0.0, at
        if game.is_won(position.state):
            self._count(1)
            self._store(key, 1.0)
            return 1.0, math.inf
        if position.hidden <= 1:  # the order is known: the game's own search decides
            won, nodes = self.decide(position.state, self._left())
            self._count(max(1, nodes))
            if won is None:
                raise _Stop("max_nodes" if self.limits.max_nodes is not None else "max_seconds")
            self._store(key, 1.0 if won else 0.0)
            return (1.0 if won else 0.0), math.inf
        self._count(1)
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
        if best >= 1.0 or low >= depth:  # a sure win needs no more, and a cut here is resolved here
            self._store(key, best)
            return best, math.inf
        return best, low

    def move_value(self, position: Concealed, move: Hashable, depth: int) -> tuple[float, float]:
        """The chance to win after ``move`` with best play (the mean over its equally likely
        outcomes, divided once at the end: a sure win is 1.0, not 0.9999999999999997), and the
        shallowest cut below it."""
        total, count, low = 0.0, 0, math.inf
        for after in outcomes(self.game, position, move):
            self._look()
            worth, cut = self.value(after, depth + 1)
            total += worth
            count += 1
            low = min(low, cut)
        return min(total / count, 1.0), low


def best_chance(
    game: Concealable[Any, Any],
    position: Concealed,
    decide: Decide,
    limits: Limits,
    moves: Sequence[Hashable] = (),
) -> Chance:
    """The best chance to win from ``position``, exact, and that of each of ``moves`` (its
    legal moves, for a hint); None where a limit stopped the search first, never a guess."""
    search = _Expectimax(game, decide, limits)
    judged: list[tuple[Hashable, float]] = []
    try:
        for move in moves:
            judged.append((move, search.move_value(position, move, 0)[0]))
        chance = max(worth for _, worth in judged) if judged else search.value(position)[0]
    except _Stop as stop:
        done = dict(judged)
        return Chance(None, tuple((move, done.get(move)) for move in moves), stop.limit, search.stats())
    return Chance(chance, tuple(judged), None, search.stats())


# ----------------------------------------------------------------------------- hindsight


class Draw:
    """The draw of the stock's orders, the same on both engines (solver/_chance.pyx spells it in
    C): a 64-bit linear congruential generator (Knuth's MMIX constants), the high bits of each
    step reduced below the bound, and Fisher-Yates from the last card down. Not for secrets: for
    orders that a seed repeats on either engine."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def below(self, bound: int) -> int:
        self.state = (self.state * _MULTIPLIER + _INCREMENT) & _MASK
        return (self.state >> _HIGH) % bound

    def shuffled(self, cards: Sequence[int]) -> tuple[int, ...]:
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)


_MULTIPLIER, _INCREMENT, _HIGH, _MASK = 6364136223846793005, 1442695040888963407, 33, 2**64 - 1
#: The largest seed of the draw (a 64-bit generator's state).
MOST_SEED = _MASK


class Orders(NamedTuple):
    """Orders of the unseen cards: every one (``exact``), or a uniform sample of them."""

    orders: tuple[tuple[int, ...], ...]
    exact: bool


def every_order(count: int, samples: int) -> bool:
    """Whether every order of ``count`` cards is counted: where there are at most ``samples``."""
    total = 1
    for factor in range(2, count + 1):
        total *= factor
        if total > samples:
            return False
    return True


def orders(cards: Sequence[int], samples: int, seed: int) -> Orders:
    """Every order of ``cards`` where there are at most ``samples`` of them (lexicographic), else
    ``samples`` orders drawn uniformly (with replacement) by :class:`Draw` from ``seed``."""
    cards = sorted(cards)
    if every_order(len(cards), samples):
        return Orders(tuple(itertools.permutations(cards)), True)
    draw = Draw(seed)
    return Orders(tuple(draw.shuffled(cards) for _ in range(samples)), False)


class Tally(NamedTuple):
    """Of some orders: how many can be won with every card known, how many cannot, and how
    many a limit left undecided."""

    won: int
    lost: int
    unknown: int


def arranged(game: Concealable[Any, Any], position: Concealed, order: Sequence[int]) -> Any:
    """The full-information state in which the face-down cards lie in ``order``."""
    stock = list(game.stock(position.state))
    return game.with_stock(position.state, stock[: len(stock) - position.hidden] + list(order))


def hindsight(
    game: Concealable[Any, Any],
    position: Concealed,
    drawn: Orders,
    decide: Decide,
    limits: Limits,
    move: Hashable | None = None,
) -> Tally:
    """How many of the orders ``drawn`` leave the position (after ``move``, if given) winnable
    with every card known; ``limits`` bound each order's search."""
    won = lost = unknown = 0
    for state in _states(game, position, drawn.orders, move):
        verdict, _ = decide(state, limits)
        if verdict is None:
            unknown += 1
        elif verdict:
            won += 1
        else:
            lost += 1
    return Tally(won, lost, unknown)


def _states(
    game: Concealable[Any, Any], position: Concealed, drawn: Sequence[Sequence[int]], move: Hashable | None
) -> Iterator[Any]:
    for order in drawn:
        state = arranged(game, position, order)
        yield state if move is None else game.apply(state, move)
