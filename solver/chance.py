"""What a position is worth to a player who cannot see the stock.

A position with a face-down stock is a :class:`Concealed`: the game's state, whose stock holds the
known next cards followed by the face-down ones (kept sorted: their order is unknown), and how
many of those there are. Two figures answer for it:

- :func:`best_chance`: exact expectimax. A move that turns up face-down cards is a chance node,
  uniform over the ordered tuples of unseen cards it can turn up; every other move is the
  player's choice, who maximises the chance to win. The table is keyed on the layout plus the
  stock as known (the known cards in order, the unseen ones as a set). Where one card or none is
  face down, the order is known and the game's own search (passed in as ``decide``) answers.
  Where the rules never tell apart the cards of a class (:class:`solver.protocol.Classed`:
  Baroness and Thirteens look at ranks only), positions are keyed by class, and a chance node
  turns up ordered tuples of classes, each weighted by the ordered tuples of cards it stands for
  (:func:`class_outcomes`).
- :func:`hindsight`: the share of the stock's orders under which the position can be won with
  every card known (perfect-information sampling): an upper bound of the chance. Every order is
  counted where there are at most as many as the samples asked for; otherwise orders are drawn
  uniformly, the same ones for every move judged, so that differences between moves are not noise;
  either way one at a time, as they are searched.

The game is known only through :class:`solver.protocol.Concealable`.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, NamedTuple

from solver.draws import Draw
from solver.protocol import Concealable, card_classes
from solver.result import Limits
from solver.table import dict_bytes, dict_peak_bytes, object_bytes

#: A full-information position decided: True won, False lost, None a limit stopped it; and the
#: states its search expanded. Called with the limits still left.
Decide = Callable[[Any, Limits], tuple[bool | None, int]]

#: What a value in the expectimax's table costs beside its key (a float object), for ``--max-memory``.
_VALUE_BYTES = object_bytes(0.5)
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


def left_face_down(game: Concealable[Any, Any], position: Concealed, move: Hashable) -> int:
    """How many cards still lie face down after ``move``: fewer by those it turns up. A card once
    seen stays seen: cards a redeal gathers back into the stock are known, in their order."""
    return position.hidden - turned_up(game, position, move)


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


#: Each card its own class: the table of a game without classes.
IDENTITY = bytes(range(256))


def class_outcomes(
    game: Concealable[Any, Any], classes: bytes, position: Concealed, *, move: Hashable
) -> Iterator[tuple[int, Concealed]]:
    """:func:`outcomes` by class: one outcome for each ordered tuple of classes (``classes``
    maps each card code to its class) that ``move`` can turn up, with how many ordered tuples
    of cards it stands for (the product of the unseen cards left of each class as each is
    drawn), in lexicographic order of classes. The outcome drawn for a tuple takes, of each
    class, its lowest unseen card not yet drawn: one canonical representative, the same on the
    compiled twin. Each card its own class (:data:`IDENTITY`), these are :func:`outcomes`, each
    weighed 1, in the same order. A deal of five from 47 cards of 13 ranks is at most 13**5
    tuples of ranks instead of 184 million of cards."""
    count = turned_up(game, position, move)
    if count == 0:
        yield 1, Concealed(game.apply(position.state, move), position.hidden)
        return
    stock = list(game.stock(position.state))
    known, hidden = stock[: len(stock) - position.hidden], stock[len(stock) - position.hidden :]
    kinds = sorted({classes[card] for card in hidden})
    members = [[card for card in hidden if classes[card] == kind] for kind in kinds]  # each sorted
    left = [len(cards) for cards in members]
    drawn: list[int] = []

    def draws(weight: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        if len(drawn) == count:
            yield weight, tuple(drawn)
            return
        for index, cards in enumerate(members):
            many = left[index]
            if many:
                drawn.append(cards[len(cards) - many])  # the lowest of the class not yet drawn
                left[index] -= 1
                yield from draws(weight * many)
                left[index] += 1
                drawn.pop()

    for weight, tuple_drawn in draws(1):
        rest = [card for card in hidden if card not in tuple_drawn]  # still sorted
        state = game.with_stock(position.state, known + list(tuple_drawn) + rest)
        yield weight, Concealed(game.apply(state, move), len(rest))


def class_key(
    game: Concealable[Any, Any], keyed: Concealable[Any, Any], classes: bytes, *, position: Concealed
) -> bytes:
    """:func:`information_key` by class: the layout's key as ``keyed`` writes it (cards as their
    classes), the stock as known with each card written as its class, and how many are unseen.
    With ``keyed`` the game itself and :data:`IDENTITY`, :func:`information_key`."""
    stock = bytes(game.stock(position.state)).translate(classes)
    return keyed.key(position.state) + b"\xfe" + stock + bytes((position.hidden,))


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


class Stopped(Exception):
    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


class Expectimax:
    """One exact search over the unseen cards, its table kept across the moves of a hint.

    Cycles (a card moved to a space and back, say) are cut where the walk meets a position on its
    own path, as a loop never helps a player who wants to win. A value found under such a cut is
    only a lower bound until the walk is back at the position cut, so it is stored only then (the
    ``low`` each call returns is the shallowest path depth it was cut at).
    """

    def __init__(self, game: Concealable[Any, Any], decide: Decide, limits: Limits) -> None:
        self.game, self.decide, self.limits = game, decide, limits
        classed = card_classes(game)
        # By class where the rules never tell a class's cards apart (solver.protocol.Classed).
        self.classes, self.keyed = (IDENTITY, game) if classed is None else classed
        self.values: dict[bytes, float] = {}
        self.path: dict[bytes, int] = {}
        self.nodes = 0
        self.outcomes = 0
        self.objects_bytes = 0  # the keys and values in the table
        self.table_bytes = 0  # those and the dict: what the table holds now
        self.started = time.process_time()

    def stats(self) -> ChanceStats:
        return ChanceStats(self.nodes, len(self.values), self.table_bytes, time.process_time() - self.started)

    def _left(self) -> Limits:
        """The limits still left for a full-information search; with no state left to expand,
        the walk stops here (a search would expand one more)."""
        nodes = None if self.limits.max_nodes is None else self.limits.max_nodes - self.nodes
        if nodes is not None and nodes <= 0:
            raise Stopped("max_nodes")
        seconds = self.limits.max_seconds
        if seconds is not None:
            seconds = max(1e-3, seconds - (time.process_time() - self.started))
        memory = self.limits.max_memory
        if memory is not None:  # the table and a search's share the bound: the search has what is left
            memory = max(1, memory - self.table_bytes)
        return Limits(nodes, seconds, memory)

    def count(self, nodes: int) -> None:
        """Count ``nodes`` expanded states, or stop the walk where they would pass the node limit
        (uncounted: ``--max-nodes N`` reports N states at most)."""
        before = self.nodes
        limits = self.limits
        if limits.max_nodes is not None and before + nodes > limits.max_nodes:
            raise Stopped("max_nodes")
        self.nodes += nodes
        # A look at the clock costs as much as a small expansion: every _CHECK_EVERY states, a
        # search's among them (a search that takes long expands many).
        if limits.max_seconds is not None and self.nodes // _CHECK_EVERY != before // _CHECK_EVERY:
            if time.process_time() - self.started > limits.max_seconds:
                raise Stopped("max_seconds")

    def _look(self) -> None:
        """Every so many outcomes, a look at the clock: a chance node's outcomes may all be in
        the table already, so that no state is expanded (nor the time looked at) for long."""
        self.outcomes += 1
        if self.outcomes % _CHECK_EVERY == 0 and self.limits.max_seconds is not None:
            if time.process_time() - self.started > self.limits.max_seconds:
                raise Stopped("max_seconds")

    def _store(self, key: bytes, value: float) -> None:
        """Keep ``value`` for ``key``, or stop the walk where that would take the table past the
        memory bound: its keys and values, and the most its dict holds at once (the old table
        beside the new while it grows), counted before it grows."""
        objects = self.objects_bytes + object_bytes(key) + _VALUE_BYTES
        size = len(self.values) + 1
        if self.limits.max_memory is not None and objects + dict_peak_bytes(size) > self.limits.max_memory:
            raise Stopped("max_memory")
        self.values[key] = value
        self.objects_bytes = objects
        self.table_bytes = objects + dict_bytes(size)

    def value(self, position: Concealed, depth: int = 0) -> tuple[float, float]:
        """The best chance to win from ``position``, and the shallowest path depth a cycle was
        cut at below it (infinity where none was: the value is then exact)."""
        game = self.game
        key = class_key(game, self.keyed, self.classes, position=position)
        known = self.values.get(key)
        if known is not None:
            return known, math.inf
        at = self.path.get(key)
        if at is not None:
            return 0.0, at
        if game.is_won(position.state):
            self.count(1)
            self._store(key, 1.0)
            return 1.0, math.inf
        if position.hidden <= 1:  # the order is known: the game's own search decides
            won, nodes = self.decide(position.state, self._left())
            self.count(max(1, nodes))
            if won is None:
                raise Stopped("max_nodes" if self.limits.max_nodes is not None else "max_seconds")
            self._store(key, 1.0 if won else 0.0)
            return (1.0 if won else 0.0), math.inf
        self.count(1)
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
        outcomes, each tuple of classes weighed by the tuples of cards it stands for, divided once
        at the end: a sure win is 1.0, not 0.9999999999999997), and the shallowest cut below it."""
        total, count, low = 0.0, 0, math.inf
        for weight, after in class_outcomes(self.game, self.classes, position, move=move):
            self._look()
            worth, cut = self.value(after, depth + 1)
            total += weight * worth
            count += weight
            low = min(low, cut)
        return min(total / count, 1.0), low


def best_chance(
    game: Concealable[Any, Any],
    position: Concealed,
    decide: Decide,
    *,
    limits: Limits,
    moves: Sequence[Hashable] = (),
) -> Chance:
    """The best chance to win from ``position``, exact, and that of each of ``moves`` (its
    legal moves, for a hint); None where a limit stopped the search first, never a guess."""
    search = Expectimax(game, decide, limits)
    judged: list[tuple[Hashable, float]] = []
    try:
        for move in moves:
            judged.append((move, search.move_value(position, move, 0)[0]))
        chance = max(worth for _, worth in judged) if judged else search.value(position)[0]
    except Stopped as stop:
        done = dict(judged)
        return Chance(None, tuple((move, done.get(move)) for move in moves), stop.limit, search.stats())
    return Chance(chance, tuple(judged), None, search.stats())


# ----------------------------------------------------------------------------- hindsight


class Orders(NamedTuple):
    """Orders of the unseen cards (``cards``, sorted), drawn one at a time as they are searched
    (:meth:`each`): every one (``exact``), or ``samples`` drawn uniformly (with replacement) by
    :class:`solver.draws.Draw` from ``seed``, the start of a stream. None is held: a sample of
    2**63 - 1 orders takes no more memory than one."""

    cards: tuple[int, ...]
    samples: int
    seed: int
    exact: bool

    def each(self) -> Iterator[tuple[int, ...]]:
        """The orders, afresh from the first at each call (every one in lexicographic order)."""
        if self.exact:
            return itertools.permutations(self.cards)
        draw = Draw(self.seed)
        return (draw.shuffled(self.cards) for _ in range(self.samples))

    def total(self) -> int:
        """How many orders :meth:`each` gives."""
        return math.factorial(len(self.cards)) if self.exact else self.samples


def every_order(count: int, samples: int) -> bool:
    """Whether every order of ``count`` cards is counted: where there are at most ``samples``."""
    total = 1
    for factor in range(2, count + 1):
        total *= factor
        if total > samples:
            return False
    return True


def orders(cards: Sequence[int], samples: int, seed: int, *, every: bool | None = None) -> Orders:
    """Every order of ``cards`` where there are at most ``samples`` of them, else ``samples``
    orders drawn from ``seed`` (see :class:`Orders`); ``every`` given says which, whatever the
    count (a caller that found every order too many for its budget draws instead)."""
    exact = every_order(len(cards), samples) if every is None else every
    return Orders(tuple(sorted(cards)), samples, seed, exact)


class OrderTally(NamedTuple):
    """Of some orders: how many can be won with every card known, how many cannot, and how
    many a limit left undecided."""

    won: int
    lost: int
    unknown: int


class Sampled(NamedTuple):
    """What :func:`hindsight` counted: a :class:`OrderTally` for each target, the states its searches
    expanded, and the limit that stopped the drawing of orders (None: every order was searched)."""

    tallies: tuple[OrderTally, ...]
    nodes: int
    limit: str | None


def arranged(game: Concealable[Any, Any], position: Concealed, order: Sequence[int]) -> Any:
    """The full-information state in which the face-down cards lie in ``order``."""
    stock = list(game.stock(position.state))
    return game.with_stock(position.state, stock[: len(stock) - position.hidden] + list(order))


def hindsight(
    game: Concealable[Any, Any],
    position: Concealed,
    drawn: Orders,
    *,
    decide: Decide,
    limits: Limits,
    targets: Sequence[Hashable | None] = (None,),
    budget: int | None = None,
    floor: int = 1,
) -> Sampled:
    """How many of the orders ``drawn`` leave the position winnable with every card known, for
    each of ``targets`` (None: the position; a move: after it), all on the same orders, drawn
    one at a time. ``limits`` bound each order's search; ``max_seconds`` bounds the orders as a
    whole too (each search gets what is left), and so does ``budget``, a count of states: once
    either is spent, no more orders are drawn (at least one is searched; the limit is then
    "max_seconds" or "budget"), and the tallies count those searched. An order that the budget
    cut short is left out (unless it is the first), as one not drawn. Each search counts in the
    budget as at least ``floor`` states: a search that expands none (no move left) still costs
    its order's setting out, and a large ``--samples`` of such orders would never spend it."""
    started = time.process_time()
    counts = [[0, 0, 0] for _ in targets]
    nodes, spent, stopped = 0, 0, None
    for done, order in enumerate(drawn.each()):
        if limits.max_seconds is not None and done and time.process_time() - started > limits.max_seconds:
            stopped = "max_seconds"
            break
        if budget is not None and done and spent >= budget:
            stopped = "budget"
            break
        state = arranged(game, position, order)
        verdicts: list[bool | None] = []
        for target in targets:
            left = limits
            if limits.max_seconds is not None:  # each search within what the orders have left
                left = limits._replace(max_seconds=max(1e-3, limits.max_seconds - (time.process_time() - started)))
            if budget is not None:  # and within the states they have left
                room = max(1, budget - spent)
                left = left._replace(max_nodes=room if left.max_nodes is None else min(left.max_nodes, room))
            verdict, expanded = decide(state if target is None else game.apply(state, target), left)
            nodes += expanded
            spent += max(expanded, floor)
            verdicts.append(verdict)
        if done and budget is not None and spent >= budget and None in verdicts:
            stopped = "budget"  # the order the budget cut short is left out, as one not drawn
            break
        for count, verdict in zip(counts, verdicts):
            count[2 if verdict is None else 0 if verdict else 1] += 1
    return Sampled(tuple(OrderTally(*count) for count in counts), nodes, stopped)
