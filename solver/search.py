"""Game-agnostic exhaustive search: depth-first branch and bound, and IDA* for least-cost wins.

Both keep a transposition table of searched layouts, so every reachable state is expanded at
most once (until the memory bound forces an eviction), which makes them terminate on cyclic state
graphs and makes an exhausted search a proof: ``lost`` and a minimal ``best_score``.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Hashable, Iterator, TypeVar

import xxhash

from solver.protocol import CostedGame, Game
from solver.result import Limits, SearchResult, Stats, Verdict
from solver.table import DIGEST_MASK, TranspositionTable, digest

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

_CHECK_EVERY = 1024
#: New states a depth-first run may expand per unit of the Luby sequence before it restarts.
RESTART_NODES = 1000


class _LimitReached(Exception):
    """A limit stopped the search; carries the best score and line found up to that moment."""

    def __init__(self, limit: str, best: int, best_line: tuple[Hashable, ...]) -> None:
        super().__init__(limit)
        self.limit = limit
        self.best = best
        self.best_line = best_line


class _Budget:
    """Counts expanded states and enforces the node and CPU-time limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.started = time.process_time()
        self.nodes = 0
        self.node_limit = float("inf") if limits.max_nodes is None else limits.max_nodes

    def elapsed(self) -> float:
        return time.process_time() - self.started

    def check(self, best: int, best_line: tuple[Hashable, ...]) -> None:
        """Raise _LimitReached (keeping the best found so far) if a limit is reached.

        ``nodes`` counts the state about to be expanded, so passing the node limit means that
        state is not expanded (nor counted): exactly ``max_nodes`` states are.
        """
        if self.nodes > self.node_limit:
            self.nodes -= 1
            raise _LimitReached("max_nodes", best, best_line)
        if self.limits.max_seconds is not None and self.elapsed() >= self.limits.max_seconds:
            raise _LimitReached("max_seconds", best, best_line)

    def stats(self, table: TranspositionTable, iterations: int = 1) -> Stats:
        table.note_size()
        return Stats(
            nodes=self.nodes,
            table_entries=len(table),
            peak_table_entries=table.peak_entries,
            peak_table_bytes=table.peak_bytes,
            evictions=table.evictions,
            seconds=self.elapsed(),
            iterations=iterations,
        )


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
    game: Game[State, Move], start: State, limits: Limits = Limits(), restart_nodes: int | None = RESTART_NODES
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
    """
    budget = _Budget(limits)
    return _decide(game, start, budget, TranspositionTable(limits.max_memory), restart_nodes)


def _decide(
    game: Game[State, Move], start: State, budget: _Budget, table: TranspositionTable, restart_nodes: int | None
) -> SearchResult[Move]:
    """The body of :func:`depth_first`, on a given budget and table."""
    best, best_line = game.score(start), ()
    if game.is_won(start):
        return SearchResult(Verdict.WON, best, (), budget.stats(table))
    try:
        for run in itertools.count():
            cap = None if restart_nodes is None else budget.nodes + restart_nodes * luby(run)
            outcome, best, best_line = _dive(game, start, budget, table, cap, _mixer(run), best, best_line)
            if outcome is not None:
                return SearchResult(outcome, best, best_line, budget.stats(table, run + 1))
    except _LimitReached as reached:
        return SearchResult(Verdict.UNKNOWN, reached.best, reached.best_line, budget.stats(table), reached.limit)
    raise AssertionError("unreachable")


def _dive(
    game: Game[State, Move],
    start: State,
    budget: _Budget,
    table: TranspositionTable,
    cap: int | None,
    mixer: int,
    best: int,
    best_line: tuple[Move, ...],
) -> tuple[Verdict | None, int, tuple[Move, ...]]:
    """One depth-first run; returns (WON, LOST, or None when ``cap`` nodes cut it short; best; line)."""
    moves, apply, key, score = game.moves, game.apply, game.key, game.score
    lower_bound, is_won = game.lower_bound, game.is_won
    hash_key = xxhash.xxh3_64_intdigest  # with ``mask``: solver.table.digest, inlined for the hot loop
    entries = table.entries
    capacity = table.capacity or float("inf")
    cap = cap or float("inf")
    path_digests = [digest(key(start))]
    entries.add(path_digests[0])
    state, options = start, iter(moves(start))
    ancestors: list[tuple[State, Iterator[Move]]] = []
    line: list[Move] = []
    mask = DIGEST_MASK
    nodes = budget.nodes + 1
    # Every expanded state adds one entry, so the table fills up exactly when ``nodes`` has grown
    # by the room left: the memory bound is checked at the same scheduled points as the limits.
    next_check = min(nodes + _CHECK_EVERY, cap, budget.node_limit + 1, nodes + capacity - len(entries))
    while True:
        for move in options:
            child = apply(state, move)
            child_digest = hash_key(key(child)) & mask
            if child_digest in entries or lower_bound(child) >= best:
                continue
            nodes += 1
            if nodes >= next_check:
                budget.nodes = nodes
                budget.check(best, best_line)
                if nodes >= cap:
                    entries.difference_update(path_digests)
                    return None, best, best_line
                if len(entries) >= capacity:
                    table.evict(path_digests)
                    entries = table.entries
                next_check = min(nodes + _CHECK_EVERY, cap, budget.node_limit + 1, nodes + capacity - len(entries))
            entries.add(child_digest)
            line.append(move)
            child_score = score(child)
            if child_score < best:
                best, best_line = child_score, tuple(line)
                if is_won(child):
                    budget.nodes = nodes
                    return Verdict.WON, best, best_line
            ancestors.append((state, options))
            path_digests.append(child_digest)
            state = child
            child_moves = moves(child)
            if mixer and len(child_moves) > 1:
                turn = (child_digest * mixer >> 32) % len(child_moves)
                child_moves = child_moves[turn:] + child_moves[:turn]
            options = iter(child_moves)
            break
        else:
            if not ancestors:
                break
            state, options = ancestors.pop()
            path_digests.pop()
            line.pop()
    budget.nodes = nodes
    return Verdict.LOST, best, best_line


def iterative_deepening(
    game: CostedGame[State, Move], start: State, limits: Limits = Limits()
) -> SearchResult[Move]:
    """The win of least total move cost: a depth-first search decides the deal, then IDA*.

    A loss (with its minimal score) or an unknown is the depth-first answer. A won deal goes on
    to depth-first passes under a rising cost bound, starting from ``cost_to_win_bound``; they
    skip every layout whose ``lower_bound`` exceeds the winning score (it cannot lead to a win;
    a win has the lowest score there is) and stop short of the depth-first win's cost, which
    then is the least. Per pass, the table holds the lowest cost each layout was entered at; a
    layout met again at no lower cost is skipped. A limit reached during the passes leaves the
    verdict ``won`` with the depth-first line and names the limit: that line's cost is then not
    proven least, and ``least_cost_floor`` is the bound of the cut pass (no win costs less).
    """
    budget = _Budget(limits)
    table = TranspositionTable(limits.max_memory)
    decided = _decide(game, start, budget, table, RESTART_NODES)
    if decided.verdict is not Verdict.WON:
        return decided
    win_score, line = decided.best_score, decided.best_line
    cheapest = line_cost(game, start, line)
    bound = game.cost_to_win_bound(start)
    iterations = 0
    try:
        while bound < cheapest:
            iterations += 1
            table.clear(with_costs=True)
            next_bound, won_line = _bounded_pass(game, start, bound, win_score, budget, table, line)
            if won_line is not None:
                return SearchResult(Verdict.WON, win_score, won_line, budget.stats(table, iterations))
            if next_bound is None:
                raise AssertionError("a pass cut nothing off yet missed a known win: an inadmissible bound")
            bound = next_bound
    except _LimitReached as reached:
        return SearchResult(Verdict.WON, win_score, line, budget.stats(table, iterations), reached.limit, bound)
    return SearchResult(Verdict.WON, win_score, line, budget.stats(table, iterations))


def line_cost(game: CostedGame[State, Move], start: State, line: tuple[Move, ...]) -> int:
    """The total move cost of ``line`` played from ``start``."""
    total, state = 0, start
    for move in line:
        total += game.move_cost(state, move)
        state = game.apply(state, move)
    return total


def _bounded_pass(
    game: CostedGame[State, Move],
    start: State,
    bound: int,
    win_score: int,
    budget: _Budget,
    table: TranspositionTable,
    known_win: tuple[Move, ...],
) -> tuple[int | None, tuple[Move, ...] | None]:
    """One IDA* pass; returns (the next bound, or None if nothing was cut off; a win within ``bound``)."""
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
    budget.check(win_score, known_win)
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
        if game.lower_bound(child) > win_score:
            continue
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
        if budget.nodes % _CHECK_EVERY == 0 or budget.nodes > budget.node_limit:
            budget.check(win_score, known_win)
        if table.full():
            table.evict(path_digests)
            cost_seen = table.entries
        cost_seen[child_digest] = cost
        line.append(move)
        if game.is_won(child):
            return next_bound, tuple(line)
        states.append(child)
        costs.append(cost)
        path_digests.append(child_digest)
        pending.append(iter(game.moves(child)))
    return next_bound, None
