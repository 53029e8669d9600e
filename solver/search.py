"""Game-agnostic exhaustive search: depth-first branch and bound, and IDA* for least-cost wins.

Both keep a transposition table of searched layouts, so every reachable state is expanded at
most once (until the memory bound forces an eviction), which makes them terminate on cyclic state
graphs and makes an exhausted search a proof: ``lost`` and a minimal ``best_score``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Hashable, Iterator
from typing import Generic, NamedTuple, TypeVar

import xxhash

from solver.protocol import CostedRules, GameRules
from solver.result import NO_LIMITS, Limits, SearchResult, Stats, Verdict
from solver.table import (
    DIGEST_MASK,
    TableMemory,
    TranspositionTable,
    ValueTable,
    digest,
)

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

_CHECK_EVERY = 1024
#: New states a depth-first run may expand per unit of the Luby sequence before it restarts.
RESTART_NODES = 1000


class _LimitReached(Exception):
    """A limit stopped the search; names the limit (the search itself knows what it found)."""

    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


#: The states this process's Python searches have expanded, counted at each limit check (every
#: _CHECK_EVERY states) and at each search's end, for a display to show a long search is alive.
_EXPANDED = [0]


def expanded() -> int:
    """The states this process's Python searches have expanded so far (the running one up to its
    last limit check); a display shows the growth between two looks."""
    return _EXPANDED[0]


class _Budget:
    """Counts expanded states, enforces the node and CPU-time limits, and says when to look.

    Both walks keep their node count in a local variable and call :meth:`check` only when it
    reaches the count :meth:`next_check` gave them: one way of checking limits, cheap in the loop.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.started = time.process_time()
        self.nodes = 0
        self.node_limit = float("inf") if limits.max_nodes is None else limits.max_nodes
        self.counted = 0  # of self.nodes, those added to the process's count (see expanded)

    def elapsed(self) -> float:
        return time.process_time() - self.started

    def check(self) -> None:
        """Raise _LimitReached if a limit is reached.

        ``nodes`` counts the state about to be expanded, so passing the node limit means that
        state is not expanded (nor counted): exactly ``max_nodes`` states are.
        """
        self.count()
        if self.nodes > self.node_limit:
            self.nodes -= 1
            raise _LimitReached("max_nodes")
        if self.limits.max_seconds is not None and self.elapsed() >= self.limits.max_seconds:
            raise _LimitReached("max_seconds")

    def next_check(self, nodes: int, table: TranspositionTable | ValueTable, cap: float) -> float:
        """The node count at which to check again: the time is looked at every ``_CHECK_EVERY``
        states, and no later than the node limit, the restart ``cap``, or the table filling
        (every expanded state adds at most one entry, so it cannot fill sooner)."""
        return min(nodes + _CHECK_EVERY, cap, self.node_limit + 1, nodes + table.room())

    def count(self) -> None:
        """Add the states expanded since the last count to the process's (:func:`expanded`)."""
        _EXPANDED[0] += self.nodes - self.counted
        self.counted = self.nodes

    def stats(self, table: TranspositionTable | ValueTable, iterations: int = 1) -> Stats:
        self.count()
        table.note_size()
        memory = table.memory
        return Stats(
            nodes=self.nodes,
            table_entries=len(table),
            peak_table_entries=memory.peak_entries,
            peak_table_bytes=memory.peak_bytes,
            evictions=memory.evictions,
            seconds=self.elapsed(),
            iterations=iterations,
        )


class _Run(NamedTuple, Generic[Move]):
    """How one depth-first run ended: WON, LOST, UNKNOWN (naming the limit), or None when its
    restart cap cut it short; and the best score and line found so far."""

    verdict: Verdict | None
    best: int
    best_line: tuple[Move, ...]
    limit: str | None = None


def _mixer(run: int) -> int:
    """An odd 32-bit multiplier for run ``run`` (0 for the first run: the game's own order)."""
    return (random.Random(run).getrandbits(32) | 1) if run else 0


def luby(run: int) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (0-based): a universal restart schedule."""
    size = 1
    while size < run + 1:
        size = 2 * size + 1
    while True:
        if run + 1 == size:
            return (size + 1) // 2
        size //= 2
        if run >= size:
            run -= size


def depth_first(
    game: GameRules[State, Move],
    start: State,
    limits: Limits = NO_LIMITS,
    *,
    restart_nodes: int | None = RESTART_NODES,
    table: TranspositionTable | None = None,
) -> SearchResult[Move]:
    """Search every state reachable from ``start`` for a win, else for the lowest score.

    Branch and bound: a state whose ``lower_bound`` cannot beat the best score found is not
    entered. Stops at the first win (a win has the lowest score there is).

    Restarts cut the heavy tail of a fixed move order: run ``k`` may expand ``restart_nodes``
    times the k-th Luby number of new states before starting again from the top, each state's
    moves rotated by an amount drawn from the state's digest and ``k`` (so results are
    reproducible). Each state fully searched stays in
    the table, so no run repeats the work of another; only the abandoned path is forgotten.
    ``restart_nodes=None`` searches once in the game's own order.

    ``table``, if given, must be empty (its memory bound replaces ``limits.max_memory``); it then
    holds, after the search, the states it searched (every one of them reachable from ``start``).
    """
    budget = _Budget(limits)
    if table is None:
        table = TranspositionTable(TableMemory(limits.max_memory))
    return _decide(game, start, budget, table=table, restart_nodes=restart_nodes)


def _decide(
    game: GameRules[State, Move], start: State, budget: _Budget, *, table: TranspositionTable, restart_nodes: int | None
) -> SearchResult[Move]:
    """The body of :func:`depth_first`, on a given budget and table."""
    best = game.score(start)
    best_line: tuple[Move, ...] = ()
    if game.is_won(start):
        return SearchResult(Verdict.WON, best, (), budget.stats(table))
    for run in itertools.count():
        cap = float("inf") if restart_nodes is None else budget.nodes + restart_nodes * luby(run)
        ended = _dive(game, start, budget, table, cap, _mixer(run), best, best_line)
        if ended.verdict is not None:
            return SearchResult(ended.verdict, ended.best, ended.best_line, budget.stats(table, run + 1), ended.limit)
        best, best_line = ended.best, ended.best_line
    raise AssertionError("unreachable")


def _dive(
    game: GameRules[State, Move],
    start: State,
    budget: _Budget,
    table: TranspositionTable,
    cap: float,
    mixer: int,
    best: int,
    best_line: tuple[Move, ...],
) -> _Run[Move]:
    """One depth-first run, until a win, the space exhausted, a limit, or ``cap`` nodes.

    The hot loop, kept whole (over 50 lines: a call per state costs more than its readability buys):
    the game's methods and the digest are bound to locals, and the limits, the
    cap and the memory bound are looked at only when ``nodes`` reaches ``next_check``.
    """
    moves, apply, key, score = game.moves, game.apply, game.key, game.score
    lower_bound, is_won = game.lower_bound, game.is_won
    hash_key = xxhash.xxh3_64_intdigest  # with ``mask``: solver.table.digest, inlined for the hot loop
    entries = table.entries
    path_digests = [digest(key(start))]
    entries.add(path_digests[0])
    state, options = start, iter(moves(start))
    ancestors: list[tuple[State, Iterator[Move]]] = []
    line: list[Move] = []
    mask = DIGEST_MASK
    # The run's start is expanded again, so it counts and is held to the limits like any state
    # (a run beginning exactly at the node limit stops here: --max-nodes N expands N states).
    budget.nodes += 1
    try:
        budget.check()
    except _LimitReached as reached:
        return _Run(Verdict.UNKNOWN, best, best_line, reached.limit)
    nodes = budget.nodes
    next_check = budget.next_check(nodes, table, cap)
    while True:
        for move in options:
            child = apply(state, move)
            child_digest = hash_key(key(child)) & mask
            if child_digest in entries or lower_bound(child) >= best:
                continue
            nodes += 1
            if nodes >= next_check:
                budget.nodes = nodes
                try:
                    budget.check()
                except _LimitReached as reached:
                    return _Run(Verdict.UNKNOWN, best, best_line, reached.limit)
                if nodes >= cap:
                    entries.difference_update(path_digests)
                    return _Run(None, best, best_line)
                if table.full():
                    table.evict(path_digests)
                    entries = table.entries
                next_check = budget.next_check(nodes, table, cap)
            entries.add(child_digest)
            line.append(move)
            child_score = score(child)
            if child_score < best:
                best, best_line = child_score, tuple(line)
                if is_won(child):
                    budget.nodes = nodes
                    return _Run(Verdict.WON, best, best_line)
            ancestors.append((state, options))
            path_digests.append(child_digest)
            state = child
            child_moves = moves(child)
            if mixer and len(child_moves) > 1:
                turn = (child_digest * mixer >> 32) % len(child_moves)
                child_moves = [*child_moves[turn:], *child_moves[:turn]]
            options = iter(child_moves)
            break
        else:
            if not ancestors:
                break
            state, options = ancestors.pop()
            path_digests.pop()
            line.pop()
    budget.nodes = nodes
    return _Run(Verdict.LOST, best, best_line)


def iterative_deepening(game: CostedRules[State, Move], start: State, limits: Limits = NO_LIMITS) -> SearchResult[Move]:
    """The win of least total move cost: a depth-first search decides the deal, then IDA*.

    A loss (with its minimal score) or an unknown is the depth-first answer. A won deal goes on
    to depth-first passes under a rising cost bound, starting from ``cost_to_win_bound``; they
    skip every layout whose ``lower_bound`` exceeds the winning score (it cannot lead to a win;
    a win has the lowest score there is) and stop short of the depth-first win's cost, which
    then is the least. Per pass, a fresh table holds the lowest cost each layout was entered at;
    a layout met again at no lower cost is skipped, and the cost bound is asked for only where
    its most (``cost_to_win_cap``) would cut a layout off. A limit reached during the passes leaves the
    verdict ``won`` with the depth-first line and names the limit: that line's cost is then not
    proven least, and ``least_cost_floor`` is the bound of the cut pass (no win costs less).
    A quarter of ``limits.max_memory`` goes to the cost bound's cache (see TableMemory.lend).
    """
    budget = _Budget(limits)
    memory = TableMemory(limits.max_memory)
    memory.lend(game.hold_bound_cache)
    searched = TranspositionTable(memory)
    decided = _decide(game, start, budget, table=searched, restart_nodes=RESTART_NODES)
    if decided.verdict is not Verdict.WON:
        return decided
    win_score, line = decided.best_score, decided.best_line
    cheapest = line_cost(game, start, line)
    bound = game.cost_to_win_bound(start)
    iterations = 0
    table: TranspositionTable | ValueTable = searched
    del searched  # one table in memory at a time: the first pass's table replaces this one
    try:
        while bound < cheapest:
            iterations += 1
            table.note_size()
            table = ValueTable(memory)
            next_bound, won_line = _bounded_pass(game, start, bound, win_score, budget, table)
            if won_line is not None:
                return SearchResult(Verdict.WON, win_score, won_line, budget.stats(table, iterations))
            if next_bound is None:
                raise AssertionError("a pass cut nothing off yet missed a known win: an inadmissible bound")
            bound = next_bound
    except _LimitReached as reached:
        return SearchResult(Verdict.WON, win_score, line, budget.stats(table, iterations), reached.limit, bound)
    return SearchResult(Verdict.WON, win_score, line, budget.stats(table, iterations))


def line_cost(game: CostedRules[State, Move], start: State, line: tuple[Move, ...]) -> int:
    """The total move cost of ``line`` played from ``start``."""
    total, state = 0, start
    for move in line:
        total += game.move_cost(state, move)
        state = game.apply(state, move)
    return total


def _bounded_pass(
    game: CostedRules[State, Move],
    start: State,
    bound: int,
    win_score: int,
    budget: _Budget,
    table: ValueTable,
) -> tuple[int | None, tuple[Move, ...] | None]:
    """One IDA* pass, walked like :func:`_dive`; raises _LimitReached.

    Returns the next bound (the least estimate cut off, or None if nothing was) and the win found
    within ``bound``, if any. Like ``_dive`` it is one loop kept whole (over 50 lines): the
    game's methods bound to locals and no call per state beyond the game's own.
    """
    next_bound: int | None = None
    # A child with room for the most the cost bound ever gives cannot be cut off by it, so the
    # bound is not asked for there: same states and next bound (Amazons' look-ahead, 95% of the
    # time, is then asked only near the pass's cost bound: 0.6x CPU on amazons deal 2).
    most = game.cost_to_win_cap()
    start_digest = digest(game.key(start))
    entered_at = table.entries
    entered_at[start_digest] = 0
    state, cost, options = start, 0, iter(game.moves(start))
    ancestors: list[tuple[State, int, Iterator[Move]]] = []
    path_digests = [start_digest]
    line: list[Move] = []
    budget.nodes += 1
    budget.check()
    nodes = budget.nodes
    next_check = budget.next_check(nodes, table, float("inf"))
    while True:
        for move in options:
            child = game.apply(state, move)
            if game.lower_bound(child) > win_score:
                continue
            child_cost = cost + game.move_cost(state, move)
            if bound - child_cost < most:
                estimate = child_cost + game.cost_to_win_bound(child)
                if estimate > bound:
                    if next_bound is None or estimate < next_bound:
                        next_bound = estimate
                    continue
            child_digest = digest(game.key(child))
            previous = entered_at.get(child_digest)
            if previous is not None and previous <= child_cost:
                continue
            nodes += 1
            if nodes >= next_check:
                budget.nodes = nodes
                budget.check()
                if table.full():
                    table.evict(path_digests)
                    entered_at = table.entries
                next_check = budget.next_check(nodes, table, float("inf"))
            entered_at[child_digest] = child_cost
            line.append(move)
            if game.is_won(child):
                budget.nodes = nodes
                return next_bound, tuple(line)
            ancestors.append((state, cost, options))
            path_digests.append(child_digest)
            state, cost, options = child, child_cost, iter(game.moves(child))
            break
        else:
            if not ancestors:
                break
            state, cost, options = ancestors.pop()
            path_digests.pop()
            line.pop()
    budget.nodes = nodes
    return next_bound, None
