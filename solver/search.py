"""Game-agnostic exhaustive search: depth-first branch and bound, and IDA* for least-cost wins.

Both keep a transposition table of searched layouts, so every reachable state is expanded at
most once (until the memory bound forces an eviction), which makes them terminate on cyclic state
graphs and makes an exhausted search a proof: ``lost`` and a minimal ``best_score``.
"""

from __future__ import annotations

import time
from typing import Hashable, TypeVar

from solver.protocol import CostedGame, Game
from solver.result import Limits, SearchResult, Stats, Verdict
from solver.table import TranspositionTable, digest

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

_CHECK_EVERY = 1024


class _LimitReached(Exception):
    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


class _Budget:
    """Counts expanded states and enforces the node and CPU-time limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.started = time.process_time()
        self.nodes = 0

    def elapsed(self) -> float:
        return time.process_time() - self.started

    def check(self) -> None:
        limits = self.limits
        if limits.max_nodes is not None and self.nodes >= limits.max_nodes:
            raise _LimitReached("max_nodes")
        if limits.max_seconds is not None and self.elapsed() >= limits.max_seconds:
            raise _LimitReached("max_seconds")

    def stats(self, table: TranspositionTable, iterations: int = 1) -> Stats:
        table.note_size()
        return Stats(
            nodes=self.nodes,
            table_entries=len(table),
            peak_table_bytes=table.peak_bytes,
            evictions=table.evictions,
            seconds=self.elapsed(),
            iterations=iterations,
        )


def depth_first(game: Game[State, Move], start: State, limits: Limits = Limits()) -> SearchResult[Move]:
    """Search every state reachable from ``start`` for a win, else for the lowest score.

    Branch and bound: a state whose ``lower_bound`` cannot beat the best score found is not
    entered. Stops at the first win (a win has the lowest score there is).
    """
    budget = _Budget(limits)
    table = TranspositionTable(limits.max_memory)
    moves, apply, key, score = game.moves, game.apply, game.key, game.score
    lower_bound, is_won = game.lower_bound, game.is_won
    best = score(start)
    best_line: tuple[Move, ...] = ()
    if is_won(start):
        return SearchResult(Verdict.WON, best, (), budget.stats(table))
    entries = table.entries
    capacity = table.capacity or float("inf")
    path_digests = [digest(key(start))]
    entries.add(path_digests[0])
    states = [start]
    pending = [iter(moves(start))]
    line: list[Move] = []
    budget.nodes = 1
    try:
        while pending:
            move = next(pending[-1], None)
            if move is None:
                pending.pop()
                states.pop()
                path_digests.pop()
                if line:
                    line.pop()
                continue
            child = apply(states[-1], move)
            child_digest = digest(key(child))
            if child_digest in entries or lower_bound(child) >= best:
                continue
            budget.nodes += 1
            if budget.nodes % _CHECK_EVERY == 0:
                budget.check()
            if len(entries) >= capacity:
                table.evict(path_digests)
                entries = table.entries
            entries.add(child_digest)
            line.append(move)
            child_score = score(child)
            if child_score < best:
                best, best_line = child_score, tuple(line)
                if is_won(child):
                    return SearchResult(Verdict.WON, best, best_line, budget.stats(table))
            states.append(child)
            path_digests.append(child_digest)
            pending.append(iter(moves(child)))
    except _LimitReached as reached:
        return SearchResult(Verdict.UNKNOWN, best, best_line, budget.stats(table), reached.limit)
    return SearchResult(Verdict.LOST, best, best_line, budget.stats(table))


def iterative_deepening(
    game: CostedGame[State, Move], start: State, limits: Limits = Limits()
) -> SearchResult[Move]:
    """IDA*: the win of least total move cost, by depth-first passes under a rising cost bound.

    The table remembers, per pass, the lowest cost at which each layout was entered; a layout met
    again at no lower cost is skipped. A pass that cuts off nothing has searched the whole space,
    so ending it without a win proves ``lost`` and makes ``best_score`` minimal.
    """
    budget = _Budget(limits)
    table = TranspositionTable(limits.max_memory, with_costs=True)
    best = game.score(start)
    best_line: tuple[Move, ...] = ()
    if game.is_won(start):
        return SearchResult(Verdict.WON, best, (), budget.stats(table))
    bound = game.cost_to_win_bound(start)
    iterations = 0
    try:
        while True:
            iterations += 1
            table.note_size()
            table.entries = {}
            next_bound, won_line, best, best_line = _bounded_pass(game, start, bound, budget, table, best, best_line)
            if won_line is not None:
                return SearchResult(Verdict.WON, best, won_line, budget.stats(table, iterations))
            if next_bound is None:
                return SearchResult(Verdict.LOST, best, best_line, budget.stats(table, iterations))
            bound = next_bound
    except _LimitReached as reached:
        return SearchResult(Verdict.UNKNOWN, best, best_line, budget.stats(table, iterations), reached.limit)


def _bounded_pass(
    game: CostedGame[State, Move],
    start: State,
    bound: int,
    budget: _Budget,
    table: TranspositionTable,
    best: int,
    best_line: tuple[Move, ...],
) -> tuple[int | None, tuple[Move, ...] | None, int, tuple[Move, ...]]:
    """One IDA* pass; returns (next bound or None if nothing was cut off, winning line, best, best line)."""
    next_bound: int | None = None
    start_digest = digest(game.key(start))
    cost_seen = table.entries
    cost_seen[start_digest] = 0
    states = [start]
    costs = [0]
    path_digests = [start_digest]
    pending = [iter(game.moves(start))]
    line: list[Move] = []
    budget.nodes += 1
    while pending:
        move = next(pending[-1], None)
        if move is None:
            pending.pop()
            states.pop()
            costs.pop()
            path_digests.pop()
            if line:
                line.pop()
            continue
        state = states[-1]
        child = game.apply(state, move)
        cost = costs[-1] + game.move_cost(state, move)
        estimate = cost + game.cost_to_win_bound(child)
        if estimate > bound:
            if next_bound is None or estimate < next_bound:
                next_bound = estimate
            continue
        child_digest = digest(game.key(child))
        previous = cost_seen.get(child_digest)
        if previous is not None and previous <= cost:
            continue
        budget.nodes += 1
        if budget.nodes % _CHECK_EVERY == 0:
            budget.check()
        if table.full():
            table.evict(path_digests)
            cost_seen = table.entries
        cost_seen[child_digest] = cost
        line.append(move)
        child_score = game.score(child)
        if child_score < best:
            best, best_line = child_score, tuple(line)
        if game.is_won(child):
            return next_bound, tuple(line), best, best_line
        states.append(child)
        costs.append(cost)
        path_digests.append(child_digest)
        pending.append(iter(game.moves(child)))
    return next_bound, None, best, best_line
