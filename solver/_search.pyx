# cython: language_level=3
"""The compiled engine, the twin of solver/search.py: depth-first branch and bound with Luby
restarts, and IDA* for the fewest redeals, over a kernel (solver/_protocol.pxd).

The searches are the Python engine's, step for step: the same order of tests on each child, the
same node counting and limits (``--max-nodes N`` expands exactly N states; the time is looked
at every 1,024 states), the same restarts and tables, the same statistics. Two things differ by
design: the digest is this project's own (solver/_table.pxd; the Python engine keeps xxh3), and
so are the rotations a restart draws from it, so with restarts on the two engines visit states in
other orders (the same verdicts and minimal scores; with restarts off, the same states). A
pending Ctrl-C or SIGTERM is raised at those looks too, so a long search stops as the Python one
does. States on the search's path live in one growing block, a state's moves beside it.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from solver._protocol cimport KERNEL_NO_SCORE, CostedKernel, Kernel
from solver._table cimport DigestMap, DigestSet, TableMemory, patience_digest, patience_fold

from solver._table import TableMemory as _Memory
from solver.result import SearchResult, Stats, Verdict


cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    cdef struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clock, timespec* now)
    int CLOCK_PROCESS_CPUTIME_ID

cdef extern from "Python.h":
    int PyErr_CheckSignals() except -1


DEF CHECK_EVERY = 1024
DEF NO_CAP = 0x7FFFFFFFFFFFFFFF

# How a run ended: WON, LOST, UNKNOWN, CUT (solver/_search.pxd, which solver/_chance.pyx reads too).
# Which limit stopped it.
DEF NO_LIMIT = 0
DEF NODES = 1
DEF SECONDS = 2

_VERDICTS = (Verdict.WON, Verdict.LOST, Verdict.UNKNOWN)
_LIMITS = (None, "max_nodes", "max_seconds")


cdef double _cpu_seconds() noexcept:
    cdef timespec now
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


#: The states this process's compiled searches have expanded, counted at each look at the limits
#: (every CHECK_EVERY states) and at each search's end (solver.search.expanded's twin).
cdef int64_t _expanded = 0


def expanded() -> int:
    """The states this process's compiled searches have expanded so far (the running one up to
    its last look at the limits), for a display to show a long search is alive."""
    return _expanded


cdef class _Budget:
    """Counts expanded states and enforces the node and CPU-time limits (solver.search._Budget)."""

    cdef int64_t nodes
    cdef int64_t counted
    cdef int64_t node_limit
    cdef double started
    cdef double max_seconds

    def __cinit__(self, max_nodes, max_seconds, bint timed=False):
        self.nodes = 0
        self.counted = 0
        self.node_limit = NO_CAP - 1 if max_nodes is None else max_nodes
        self.max_seconds = -1.0 if max_seconds is None else max_seconds
        # A clock read only where a time limit needs one, or the search reports its seconds
        # (``timed``): an expectimax runs thousands of tiny searches with neither, and the reads
        # were a third of its time (docs/performance.md).
        self.started = _cpu_seconds() if timed or max_seconds is not None else 0.0

    cdef int check(self) except -1:
        """0, or the limit reached; raises a pending signal's exception (Ctrl-C, SIGTERM).

        ``nodes`` counts the state about to be expanded, so passing the node limit means that
        state is not expanded (nor counted): exactly ``max_nodes`` states are. The process's
        count is brought up to date first, so that a signal handler run here (a display's timer)
        reads it."""
        self.count()
        PyErr_CheckSignals()
        if self.nodes > self.node_limit:
            self.nodes -= 1
            return NODES
        if self.max_seconds >= 0 and _cpu_seconds() - self.started >= self.max_seconds:
            return SECONDS
        return NO_LIMIT

    cdef void count(self) noexcept:
        """Add the states expanded since the last count to the process's (:func:`expanded`)."""
        global _expanded
        _expanded += self.nodes - self.counted
        self.counted = self.nodes

    cdef int64_t next_check(self, int64_t nodes, int64_t cap) noexcept:
        """The node count at which to look again: every CHECK_EVERY states, and no later than
        the node limit or the restart cap. (A full table is found when an entry is added.)"""
        return min(nodes + CHECK_EVERY, cap, self.node_limit + 1)


cdef class _Path:
    """The search's path: its start, and at each depth the state's moves with the state each
    leads to and that state's digest, the next move to try, the state's own digest and cost, and
    the move played from it.

    A state's successors and their digests are all made when it is entered, and their table
    slots fetched at once: the probes, nearly one cache miss a state, then overlap instead of
    waiting one by one in the loop (1.2 times the states per CPU second on the Accordion
    reference deals). The successors are pure values, so making them early changes nothing the
    search sees; the state entered at the next depth is the successor itself, not a copy.

    The depths' moves, digests and successors lie one after another in one block, each depth
    taking only what its state needs (a block of the most moves for every depth touched a page
    or two a depth, most of a small search's time), found by offset, so the block may move when
    it grows."""

    cdef Kernel kernel
    cdef Py_ssize_t room
    cdef Py_ssize_t width
    cdef Py_ssize_t moves_bytes
    cdef uint8_t* start
    cdef uint8_t* arena
    cdef Py_ssize_t arena_size
    cdef Py_ssize_t* base
    cdef int32_t* count
    cdef int32_t* next
    cdef int32_t* cost
    cdef int32_t* line
    cdef uint64_t* digests
    cdef uint8_t* key

    def __cinit__(self, Kernel kernel):
        self.kernel = kernel
        self.room = 0
        self.width = max(kernel.max_moves, 1)
        self.moves_bytes = (4 * self.width + 7) // 8 * 8
        self.key = <uint8_t*>malloc(kernel.key_size + 8)
        self.start = <uint8_t*>malloc(kernel.state_size)
        self.arena_size = 16384
        self.arena = <uint8_t*>malloc(self.arena_size)
        if self.key == NULL or self.start == NULL or self.arena == NULL:
            raise MemoryError()
        self.reserve(15)
        self.base[0] = 0

    def __dealloc__(self):
        free(self.arena)
        free(self.base)
        free(self.start)
        free(self.count)
        free(self.next)
        free(self.cost)
        free(self.line)
        free(self.digests)
        free(self.key)

    cdef int reserve(self, Py_ssize_t depth) except -1:
        """Room for the figures of depths 0..depth (and where depth + 1's part begins)."""
        if depth + 1 < self.room:
            return 0
        cdef Py_ssize_t room = max(2 * self.room, depth + 2)
        self.base = <Py_ssize_t*>_grown(self.base, room * sizeof(Py_ssize_t))
        self.count = <int32_t*>_grown(self.count, room * sizeof(int32_t))
        self.next = <int32_t*>_grown(self.next, room * sizeof(int32_t))
        self.cost = <int32_t*>_grown(self.cost, room * sizeof(int32_t))
        self.line = <int32_t*>_grown(self.line, room * sizeof(int32_t))
        self.digests = <uint64_t*>_grown(self.digests, room * sizeof(uint64_t))
        self.room = room
        return 0

    cdef inline int32_t* moves(self, Py_ssize_t depth) noexcept:
        return <int32_t*>(self.arena + self.base[depth])

    cdef inline uint64_t* child_digests(self, Py_ssize_t depth) noexcept:
        """The digests of the successors at ``depth`` (8-byte aligned: every part's size is)."""
        return <uint64_t*>(self.arena + self.base[depth] + self.moves_bytes)

    cdef inline uint8_t* child(self, Py_ssize_t depth, Py_ssize_t index) noexcept:
        """The state move ``index`` of depth ``depth`` leads to."""
        return (
            self.arena + self.base[depth] + self.moves_bytes + 8 * self.count[depth] + index * self.kernel.state_size
        )

    cdef inline uint8_t* state(self, Py_ssize_t depth) noexcept:
        """The state at ``depth``: the start, or the successor the depth above is trying."""
        return self.start if depth == 0 else self.child(depth - 1, self.next[depth - 1] - 1)

    cdef uint64_t digest(self, const uint8_t* state) noexcept:
        return self.kernel.digest(state, self.key)

    cdef int enter(self, Py_ssize_t depth, uint64_t mixer) except -1:
        """Make the moves of the state at ``depth`` (rotated for restart run ``mixer``), their
        successors and the successors' digests; returns how many."""
        self.reserve(depth)
        cdef Py_ssize_t size = self.kernel.state_size
        cdef Py_ssize_t need = self.base[depth] + self.moves_bytes + self.width * (8 + size)
        cdef Py_ssize_t arena_size = self.arena_size
        while arena_size < need:
            arena_size *= 2
        if arena_size != self.arena_size:
            self.arena = <uint8_t*>_grown(self.arena, arena_size)
            self.arena_size = arena_size
        cdef const uint8_t* state = self.state(depth)
        cdef int32_t* moves = self.moves(depth)
        cdef int count = self.kernel.moves(state, moves), index
        self.count[depth] = count
        self.next[depth] = 0
        if mixer and count > 1:
            _rotate(moves, count, <int>(((self.digests[depth] * mixer) >> 32) % <uint64_t>count))
        cdef uint64_t* digests = self.child_digests(depth)
        for index in range(count):
            self.kernel.apply(state, moves[index], self.child(depth, index))
            digests[index] = self.kernel.digest(self.child(depth, index), self.key)
        self.base[depth + 1] = (self.base[depth] + self.moves_bytes + count * (8 + size) + 7) // 8 * 8
        return count


cdef void* _grown(void* block, size_t size) except NULL:
    cdef void* grown = realloc(block, size)
    if grown == NULL:
        raise MemoryError()
    return grown


cdef void _rotate(int32_t* moves, int count, int turn) noexcept:
    """Rotate ``moves`` left by ``turn`` (three reversals, in place)."""
    if turn:
        _reverse(moves, 0, turn)
        _reverse(moves, turn, count)
        _reverse(moves, 0, count)


cdef void _reverse(int32_t* moves, int low, int high) noexcept:
    cdef int32_t swap
    high -= 1
    while low < high:
        swap = moves[low]
        moves[low] = moves[high]
        moves[high] = swap
        low += 1
        high -= 1


cdef class _Proven:
    """What earlier searches of a hint proved (solver.analysis): floors raise the lower bound,
    and a state known to be winnable counts as won, with the win's score."""

    cdef DigestMap floors
    cdef DigestSet wins
    cdef int win_score

    def __cinit__(self, DigestMap floors, DigestSet wins, int win_score):
        self.floors = floors
        self.wins = wins
        self.win_score = win_score


cdef class _Best:
    """The best score found so far and the line reaching it."""

    cdef int score
    cdef list line


def luby(int run) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (0-based): a universal restart schedule."""
    cdef int64_t size = 1
    while size < run + 1:
        size = 2 * size + 1
    while True:
        if run + 1 == size:
            return (size + 1) // 2
        size //= 2
        if run >= size:
            run -= size


cdef uint64_t _mixer(int run) noexcept:
    """An odd 32-bit multiplier for run ``run`` (0 for the first run: the game's own order)."""
    if run == 0:
        return 0
    return (patience_fold(<uint64_t>run * 0x9E3779B97F4A7C15ULL, 0x243F6A8885A308D3ULL) & 0xFFFFFFFF) | 1


cdef inline void _fetch_set(DigestSet table, _Path path, Py_ssize_t depth, int count) noexcept:
    """Prefetch the table slots of the successors just made at ``depth``."""
    cdef uint64_t* digests = path.child_digests(depth)
    cdef int index
    for index in range(count):
        table.prefetch(digests[index])


cdef inline void _fetch_map(DigestMap table, _Path path, Py_ssize_t depth, int count) noexcept:
    cdef uint64_t* digests = path.child_digests(depth)
    cdef int index
    for index in range(count):
        table.prefetch(digests[index])


cdef int _dive(
    Kernel kernel, _Path path, _Budget budget, DigestSet table, int64_t cap, uint64_t mixer, _Best best,
    _Proven proven, int* limit,
) except -1:
    """One depth-first run from path.start (solver.search._dive): WON, LOST, UNKNOWN (and
    ``limit``) or CUT when the restart cap cut it short; ``best`` keeps the best line found."""
    cdef Py_ssize_t depth = 0, i
    cdef int index
    cdef uint8_t* child
    cdef int32_t found, bound
    cdef int child_score
    cdef uint64_t child_digest
    cdef bint winnable
    cdef int64_t nodes, next_check
    cdef int best_score = best.score
    path.digests[0] = path.digest(path.start)
    if not table.contains(path.digests[0]) and not table.add(path.digests[0]):
        table.keep_only(path.digests, 0)
        table.add(path.digests[0])
    # The run's start is expanded again, so it counts and is held to the limits like any state.
    budget.nodes += 1
    limit[0] = budget.check()
    if limit[0]:
        return UNKNOWN
    _fetch_set(table, path, 0, path.enter(0, 0))
    nodes = budget.nodes
    next_check = budget.next_check(nodes, cap)
    while True:
        if path.next[depth] < path.count[depth]:
            index = path.next[depth]
            path.next[depth] += 1
            child = path.child(depth, index)
            child_digest = path.child_digests(depth)[index]
            bound = kernel.lower_bound(child)
            if table.contains(child_digest):
                continue
            if proven is not None and proven.floors.get(child_digest, &found) and found > bound:
                bound = found
            if bound >= best_score:
                continue
            nodes += 1
            if nodes >= next_check:
                budget.nodes = nodes
                limit[0] = budget.check()
                if limit[0]:
                    best.score = best_score
                    return UNKNOWN
                if nodes >= cap:
                    for i in range(depth + 1):
                        table.discard(path.digests[i])
                    best.score = best_score
                    return CUT
                next_check = budget.next_check(nodes, cap)
            if not table.add(child_digest):
                table.keep_only(path.digests, depth + 1)
                table.add(child_digest)
            path.line[depth] = path.moves(depth)[index]
            winnable = proven is not None and proven.wins.contains(child_digest)
            child_score = proven.win_score if winnable else kernel.score(child)
            if child_score < best_score:
                best_score = child_score
                best.line = [path.line[i] for i in range(depth + 1)]
                if winnable or kernel.is_won(child):
                    budget.nodes = nodes
                    best.score = best_score
                    return WON
            depth += 1
            path.reserve(depth)
            path.digests[depth] = child_digest
            _fetch_set(table, path, depth, path.enter(depth, mixer))
        elif depth == 0:
            break
        else:
            depth -= 1
    budget.nodes = nodes
    best.score = best_score
    return LOST


cdef tuple _decide(Kernel kernel, bytes start, _Budget budget, DigestSet table, restart_nodes, _Proven proven):
    """The body of depth_first, on a given budget and table: (verdict, best, line, iterations,
    limit)."""
    cdef _Path path = _Path(kernel)
    memcpy(path.start, <const uint8_t*>start, kernel.state_size)
    cdef _Best best = _Best()
    best.line = []
    cdef bint winnable = proven is not None and proven.wins.contains(path.digest(path.start))
    best.score = proven.win_score if winnable else kernel.score(path.start)
    if winnable or kernel.is_won(path.start):
        return WON, best.score, best.line, 1, NO_LIMIT
    cdef int run = 0, ended, limit = NO_LIMIT
    cdef int64_t cap
    while True:
        cap = NO_CAP if restart_nodes is None else budget.nodes + <int64_t>restart_nodes * luby(run)
        ended = _dive(kernel, path, budget, table, cap, _mixer(run), best, proven, &limit)
        if ended != CUT:
            return ended, best.score, best.line, run + 1, limit
        run += 1


cdef object _stats(_Budget budget, table, TableMemory memory, int iterations):
    """The search's counters (its budget made ``timed``, so that its seconds are its own)."""
    budget.count()
    memory.note(len(table))
    return Stats(
        nodes=budget.nodes,
        table_entries=len(table),
        peak_table_entries=memory.peak_entries,
        peak_table_bytes=memory.peak_bytes,
        evictions=memory.evictions,
        seconds=_cpu_seconds() - budget.started,
        iterations=iterations,
    )


def depth_first(
    Kernel kernel not None, bytes start not None, max_nodes=None, max_seconds=None, max_memory=None,
    restart_nodes=1000, DigestSet table=None, DigestMap floors=None, DigestSet wins=None, int win_score=0,
):
    """Search every state reachable from ``start`` for a win, else for the lowest score
    (solver.search.depth_first). ``table``, if given, must be empty (its memory bound replaces
    ``max_memory``) and holds the searched states after. ``floors`` and ``wins``, if given, are
    what earlier searches of a hint proved (solver.analysis). The result's line is of move
    codes (solver.engine turns them into the game's moves)."""
    if len(start) != kernel.state_size:
        raise ValueError(f"a state of this kernel is {kernel.state_size} bytes, not {len(start)}")
    budget = _Budget(max_nodes, max_seconds, timed=True)
    if table is None:
        table = DigestSet(_Memory(max_memory))
    proven = None if floors is None else _Proven(floors, wins, win_score)
    verdict, best, line, iterations, limit = _decide(kernel, start, budget, table, restart_nodes, proven)
    stats = _stats(budget, table, table.memory, iterations)
    return SearchResult(_VERDICTS[verdict], best, tuple(line), stats, _LIMITS[limit], engine="native")


def line_cost(CostedKernel kernel not None, bytes start not None, line) -> int:
    """The total move cost of ``line`` (move codes) played from ``start``."""
    cdef bytes state = start, child
    cdef int total = 0
    for move in line:
        total += kernel.move_cost(<const uint8_t*>state, move)
        child = bytes(kernel.state_size)
        kernel.apply(<const uint8_t*>state, move, <uint8_t*><const uint8_t*>child)
        state = child
    return total


def iterative_deepening(
    CostedKernel kernel not None, bytes start not None, max_nodes=None, max_seconds=None, max_memory=None,
    restart_nodes=1000,
):
    """The win of least total move cost (solver.search.iterative_deepening): a depth-first
    search decides the deal, then IDA* passes under a rising cost bound. The result's line is of
    move codes."""
    if len(start) != kernel.state_size:
        raise ValueError(f"a state of this kernel is {kernel.state_size} bytes, not {len(start)}")
    cdef _Budget budget = _Budget(max_nodes, max_seconds, timed=True)
    cdef TableMemory memory = _Memory(max_memory)
    memory.lend(kernel)
    table = DigestSet(memory)
    verdict, win_score, line, iterations, limit = _decide(kernel, start, budget, table, restart_nodes, None)
    if verdict != WON:
        return SearchResult(
            _VERDICTS[verdict], win_score, tuple(line), _stats(budget, table, memory, iterations), _LIMITS[limit],
            engine="native",
        )
    cheapest = line_cost(kernel, start, line)
    cdef _Path path = _Path(kernel)
    memcpy(path.start, <const uint8_t*>start, kernel.state_size)
    cdef int bound = kernel.cost_to_win_bound(path.start), next_bound
    cdef int passes = 0, limit_hit = NO_LIMIT
    cdef list won_line
    while bound < cheapest:
        passes += 1
        memory.note(len(table))
        table = None  # one table in memory at a time: the pass's own replaces the last
        table = DigestMap(memory)
        won_line = _bounded_pass(kernel, path, bound, win_score, budget, table, &next_bound, &limit_hit)
        if limit_hit:
            return SearchResult(
                Verdict.WON, win_score, tuple(line), _stats(budget, table, memory, passes), _LIMITS[limit_hit], bound,
                engine="native",
            )
        if won_line is not None:
            return SearchResult(
                Verdict.WON, win_score, tuple(won_line), _stats(budget, table, memory, passes), engine="native"
            )
        if next_bound < 0:
            raise AssertionError("a pass cut nothing off yet missed a known win: an inadmissible bound")
        bound = next_bound
    return SearchResult(Verdict.WON, win_score, tuple(line), _stats(budget, table, memory, passes), engine="native")


cdef list _bounded_pass(
    CostedKernel kernel, _Path path, int bound, int win_score, _Budget budget, DigestMap table,
    int* next_bound, int* limit,
):
    """One IDA* pass from path.start (solver.search._bounded_pass): the win found within
    ``bound``, or None, with ``next_bound`` the least estimate cut off (-1 if none) and
    ``limit`` the limit reached, if one was."""
    next_bound[0] = -1
    # A child with room for the most the cost bound ever gives cannot be cut off by it, so the
    # bound is not asked for there (as in the Python engine).
    cdef int most = kernel.cost_to_win_cap()
    cdef Py_ssize_t depth = 0, i
    cdef int index
    cdef uint8_t* child
    cdef int32_t move, previous
    cdef int child_cost, estimate
    cdef uint64_t child_digest
    cdef int64_t nodes, next_check
    path.digests[0] = path.digest(path.start)
    path.cost[0] = 0
    table.put(path.digests[0], 0)
    _fetch_map(table, path, 0, path.enter(0, 0))
    budget.nodes += 1
    limit[0] = budget.check()
    if limit[0]:
        return None
    nodes = budget.nodes
    next_check = budget.next_check(nodes, NO_CAP)
    while True:
        if path.next[depth] < path.count[depth]:
            index = path.next[depth]
            path.next[depth] += 1
            move = path.moves(depth)[index]
            child = path.child(depth, index)
            if kernel.lower_bound(child) > win_score:
                continue
            child_cost = path.cost[depth] + kernel.move_cost(path.state(depth), move)
            if bound - child_cost < most:
                estimate = child_cost + kernel.cost_to_win_bound(child)
                if estimate > bound:
                    if next_bound[0] < 0 or estimate < next_bound[0]:
                        next_bound[0] = estimate
                    continue
            child_digest = path.child_digests(depth)[index]
            if table.get(child_digest, &previous) and previous <= child_cost:
                continue
            nodes += 1
            if nodes >= next_check:
                budget.nodes = nodes
                limit[0] = budget.check()
                if limit[0]:
                    return None
                next_check = budget.next_check(nodes, NO_CAP)
            if not table.put(child_digest, child_cost):
                table.keep_only(path.digests, depth + 1)
                table.put(child_digest, child_cost)
            path.line[depth] = move
            if kernel.is_won(child):
                budget.nodes = nodes
                return [path.line[i] for i in range(depth + 1)]
            depth += 1
            path.reserve(depth)
            path.digests[depth] = child_digest
            path.cost[depth] = child_cost
            _fetch_map(table, path, depth, path.enter(depth, 0))
        elif depth == 0:
            break
        else:
            depth -= 1
    budget.nodes = nodes
    return None


cdef int search_state(
    Kernel kernel, bytes start, DigestSet table, object max_nodes, object max_seconds, object restart_nodes,
    int64_t* nodes, list line, double clock=-1.0,
) except -1:
    """One depth-first search of ``start`` (depth_first without its result object), for the
    orders of a face-down stock (solver/_chance.pyx): the verdict (WON, LOST or UNKNOWN), the
    states expanded into ``nodes``, a win's line of codes appended to ``line``. ``table`` must be
    empty. ``clock``, where given (>= 0), is a recent reading of the CPU clock that
    ``max_seconds`` counts from, so that the search need not read it again."""
    cdef _Budget budget = _Budget(max_nodes, None if clock >= 0 else max_seconds)
    if clock >= 0 and max_seconds is not None:
        budget.started, budget.max_seconds = clock, max_seconds
    verdict, best, found, iterations, limit = _decide(kernel, start, budget, table, restart_nodes, None)
    budget.count()
    nodes[0] = budget.nodes
    if verdict == WON:
        line.extend(found)
    return verdict
