# cython: language_level=3
"""The compiled twin of solver/chance.py's hindsight: the orders of a face-down stock, each
decided with every card known, the position's and each move's, in one loop of C.

The orders are every order of the face-down cards (in lexicographic order) or ``samples`` of them
drawn by the generator solver.draws.Draw spells out in Python, so that both engines judge the
same orders; they are drawn one at a time, as they are searched. Each order is written into the face-down span of the flat state (where the kernel's
``stock_span`` says the stock lies: its last ``hidden`` cards) and searched on a table of its
own (emptying one grown by a long search cost more than a new one for the short searches of most
orders). A lost or undecided order costs no Python; a won one is handed back with its
line, for the rules to replay (solver.engine), as every win the project counts is.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove

from solver._digest cimport patience_digest
from solver._protocol cimport Kernel
from solver._search cimport UNKNOWN, WON, _cpu_seconds, search_state
from solver._table cimport DigestSet, TableMemory, patience_block, patience_release

from solver._table import TableMemory as _Memory

cdef extern from "Python.h":
    int PyErr_CheckSignals() except -1

# solver.draws.Draw's generator, SplitMix64: a Weyl step, then the output mixer.
DEF GAMMA = 0x9E3779B97F4A7C15
DEF MIX1 = 0xBF58476D1CE4E5B9
DEF MIX2 = 0x94D049BB133111EB
DEF MOST_HIDDEN = 64


cdef inline uint64_t _word(uint64_t* state) noexcept:
    """The next 64-bit word (solver.draws.Draw.word)."""
    state[0] += <uint64_t>GAMMA
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>MIX1
    z = (z ^ (z >> 27)) * <uint64_t>MIX2
    return z ^ (z >> 31)


cdef inline uint64_t _below(uint64_t* state, uint64_t bound) noexcept:
    """A draw below ``bound``, each value equally likely (solver.draws.Draw.below): a word below
    2**64 mod ``bound`` is drawn again."""
    cdef uint64_t rejected = (<uint64_t>0 - bound) % bound, word = _word(state)
    while word < rejected:
        word = _word(state)
    return word % bound


cdef void _shuffle(uint8_t* cards, int count, uint64_t* state) noexcept:
    """Fisher-Yates from the last card down (solver.draws.Draw.shuffled)."""
    cdef int i, j
    cdef uint8_t held
    for i in range(count - 1, 0, -1):
        j = <int>_below(state, i + 1)
        held = cards[i]
        cards[i] = cards[j]
        cards[j] = held


cdef bint _next_order(uint8_t* cards, int count) noexcept:
    """The next order of ``cards`` in lexicographic order; False after the last."""
    cdef int i = count - 2, j
    cdef uint8_t held
    while i >= 0 and cards[i] >= cards[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = count - 1
    while cards[j] <= cards[i]:
        j -= 1
    held = cards[i]
    cards[i] = cards[j]
    cards[j] = held
    i += 1
    j = count - 1
    while i < j:
        held = cards[i]
        cards[i] = cards[j]
        cards[j] = held
        i += 1
        j -= 1
    return True


def hindsight(
    Kernel rules not None, Kernel search not None, bytes start not None, int hidden, int64_t samples,
    uint64_t seed, bint every, targets, referee=None, max_nodes=None, max_seconds=None, max_memory=None,
    restart_nodes=1000, budget=None, int64_t floor=1,
):
    """For the position ``start`` (a flat state of ``rules``) whose stock ends in ``hidden``
    face-down cards: every order of them (``every``) or ``samples`` drawn from ``seed``, each
    decided with every card known by ``search`` (the kernel searched: ``rules`` with its
    reductions), for each of ``targets``: 0 the position, i after its i-th move in ``rules``'s
    order (the same whatever the face-down order: the rules look only at what is seen). Each win
    is handed to ``referee`` (where given) as it is found: its place in targets, the order (bytes)
    and its line of codes (none is kept: a run of many orders holds no more memory than one).
    ``max_seconds`` bounds each search and the orders as a whole: once they have taken it, no
    more are drawn (solver.chance.hindsight), and so does ``budget``, a count of states ("budget":
    an order it cut short is left out unless it is the first), each search counted there as at
    least ``floor`` states (an order whose search expands none still costs its setting out).
    Returns (tallies, nodes, limit): per target [won, lost, unknown] of the orders searched; the
    states expanded in all; the limit that stopped the orders, else None."""
    cdef const uint8_t* root = rules._checked(start)
    cdef int length = 0
    cdef int offset = rules.stock_span(root, &length)
    if not 0 <= hidden <= length or hidden > MOST_HIDDEN:
        raise ValueError(f"a stock of {length} cards cannot hold {hidden} face down here")
    cdef int at = offset + length - hidden, target, verdict, i, j
    cdef int32_t* codes = <int32_t*>malloc(sizeof(int32_t) * max(rules.max_moves, 1))
    if codes == NULL:
        raise MemoryError()
    cdef int count = rules.moves(root, codes), chosen
    cdef list wanted = [int(target) for target in targets]
    for target in wanted:
        if not 0 <= target <= count:
            free(codes)
            raise ValueError(f"no target {target}: the position has {count} moves")
    cdef uint8_t sorted_cards[MOST_HIDDEN]
    cdef uint8_t order[MOST_HIDDEN]
    cdef uint8_t held
    memcpy(sorted_cards, root + at, hidden)
    for i in range(1, hidden):  # an insertion sort: a few dozen cards at most
        held = sorted_cards[i]
        j = i - 1
        while j >= 0 and sorted_cards[j] > held:
            sorted_cards[j + 1] = sorted_cards[j]
            j -= 1
        sorted_cards[j + 1] = held
    memcpy(order, sorted_cards, hidden)
    cdef uint8_t* arranged = <uint8_t*>malloc(rules.state_size)
    if arranged == NULL:
        free(codes)
        raise MemoryError()
    memcpy(arranged, root, rules.state_size)
    cdef list tallies = [[0, 0, 0] for _ in wanted]
    cdef list line, verdicts
    cdef int64_t nodes = 0, total = 0, done = 0, spent = 0
    cdef bytes state, position
    cdef DigestSet table
    cdef double started = _cpu_seconds(), seconds = -1.0 if max_seconds is None else max_seconds
    cdef object order_nodes = max_nodes
    cdef object stopped = None
    try:
        while every or done < samples:
            if every and done and not _next_order(order, hidden):
                break
            if seconds >= 0 and done and _cpu_seconds() - started > seconds:
                stopped = "max_seconds"
                break
            if budget is not None and done and spent >= budget:
                stopped = "budget"
                break
            if not every:
                memcpy(order, sorted_cards, hidden)
                _shuffle(order, hidden, &seed)
            memcpy(arranged + at, order, hidden)
            position = arranged[: rules.state_size]
            verdicts = []
            for chosen in range(len(wanted)):
                target = wanted[chosen]
                if target == 0:
                    state = position
                else:
                    state = bytes(rules.state_size)
                    rules.apply(arranged, codes[target - 1], <uint8_t*><const uint8_t*>state)
                line = []
                table = DigestSet(_Memory(max_memory))
                if seconds >= 0:  # each search within what the orders have left
                    max_seconds = max(1e-3, seconds - (_cpu_seconds() - started))
                if budget is not None:  # and within the states they have left
                    order_nodes = max(1, budget - spent) if max_nodes is None else min(max_nodes, max(1, budget - spent))
                verdict = search_state(search, state, table, order_nodes, max_seconds, restart_nodes, &nodes, line)
                table = None  # freed before the next order's is made: one table within the bound at a time
                total += nodes
                spent += max(nodes, floor)
                verdicts.append(verdict)
                if verdict == WON and referee is not None:
                    referee(chosen, order[:hidden], tuple(line))
            if done and budget is not None and spent >= budget and UNKNOWN in verdicts:
                stopped = "budget"  # the order the budget cut short is left out, as one not drawn
                break
            for chosen in range(len(wanted)):
                tallies[chosen][verdicts[chosen]] += 1
            done += 1
            PyErr_CheckSignals()  # a search too short to look at the signals itself
    finally:
        free(arranged)
        free(codes)
    return tallies, total, stopped


# ----------------------------------------------------------------------------- expectimax

DEF CHECK_EVERY = 256
DEF NO_LIMIT = 0
DEF NODES = 1
DEF SECONDS = 2
DEF MEMORY = 3
# What one slot of the value table costs: its digest and its value (solver.chance's is a dict's).
DEF ENTRY_BYTES = 16
DEF FIRST_SLOTS = 1024
# The fewest slots the value table has, whatever the bound (solver._table's tables keep 32).
DEF LEAST_SLOTS = 32
DEF INFINITE_DEPTH = 1 << 30

_LIMITS = (None, "max_nodes", "max_seconds", "max_memory")


cdef class _Values:
    """The exact values found: digest -> chance, open addressing, doubling at three quarters
    while the memory account leaves room for the doubled blocks beside the old ones (both are
    held while the entries move over; solver._table's rule); when it cannot, the table is full."""

    cdef uint64_t* slots
    cdef double* values
    cdef Py_ssize_t size
    cdef Py_ssize_t count
    cdef TableMemory memory

    def __cinit__(self, TableMemory memory not None):
        self.memory = memory
        self.size = FIRST_SLOTS
        while self.size > LEAST_SLOTS and not memory.fits(self.size * ENTRY_BYTES):
            self.size //= 2
        self.count = 0
        self.slots = <uint64_t*>patience_block(self.size * sizeof(uint64_t))
        self.values = <double*>patience_block(self.size * sizeof(double))
        if self.slots == NULL or self.values == NULL:
            patience_release(self.slots, self.size * sizeof(uint64_t))
            patience_release(self.values, self.size * sizeof(double))
            self.slots = NULL
            raise MemoryError()
        memory.held += self.bytes_held()

    def __dealloc__(self):
        if self.slots != NULL:
            self.memory.held -= self.bytes_held()
            patience_release(self.slots, self.size * sizeof(uint64_t))
            patience_release(self.values, self.size * sizeof(double))

    cdef bint get(self, uint64_t digest, double* value) noexcept:
        cdef Py_ssize_t mask = self.size - 1, at = <Py_ssize_t>(digest & mask)
        while self.slots[at]:
            if self.slots[at] == digest:
                value[0] = self.values[at]
                return True
            at = (at + 1) & mask
        return False

    cdef bint put(self, uint64_t digest, double value) noexcept:
        """False where the table could not grow (the bound, or the machine, leaves no room)."""
        cdef Py_ssize_t mask, at
        if 4 * (self.count + 1) > 3 * self.size and not self._grow():
            return False
        mask = self.size - 1
        at = <Py_ssize_t>(digest & mask)
        while self.slots[at] and self.slots[at] != digest:
            at = (at + 1) & mask
        if not self.slots[at]:
            self.count += 1
        self.slots[at] = digest
        self.values[at] = value
        return True

    cdef bint _grow(self) noexcept:
        cdef Py_ssize_t size = 2 * self.size, i, at, mask = size - 1
        if not self.memory.fits(size * ENTRY_BYTES):  # the old blocks are in the account already
            return False
        cdef uint64_t* slots = <uint64_t*>patience_block(size * sizeof(uint64_t))
        cdef double* values = <double*>patience_block(size * sizeof(double))
        if slots == NULL or values == NULL:
            patience_release(slots, size * sizeof(uint64_t))
            patience_release(values, size * sizeof(double))
            return False
        for i in range(self.size):
            if self.slots[i]:
                at = <Py_ssize_t>(self.slots[i] & mask)
                while slots[at]:
                    at = (at + 1) & mask
                slots[at] = self.slots[i]
                values[at] = self.values[i]
        patience_release(self.slots, self.size * sizeof(uint64_t))
        patience_release(self.values, self.size * sizeof(double))
        self.memory.held += (size - self.size) * ENTRY_BYTES
        self.slots, self.values, self.size = slots, values, size
        return True

    cdef Py_ssize_t bytes_held(self) noexcept:
        return self.size * ENTRY_BYTES


cdef class _Expectimax:
    """solver.chance._Expectimax in C: the same walk, cuts and stores; a layout's key is its
    digest (the compiled engine's own) rather than its bytes. By class as the Python walk is
    (solver.protocol.Classed): keyed by ``keys`` (the class-keyed twin's kernel) with each stock
    card written as its class, the outcomes of a chance node taken by tuples of classes."""

    cdef Kernel rules
    cdef Kernel search
    cdef Kernel keys
    cdef uint8_t classes[256]
    cdef _Values values
    cdef uint64_t* path
    cdef int path_room
    cdef int64_t nodes
    cdef int64_t outcomes
    cdef int64_t node_limit
    cdef double max_seconds
    cdef double started
    cdef double clock  # the CPU clock at its last reading
    cdef int64_t next_look  # the node count at which the clock is read next
    cdef TableMemory memory
    cdef object restart_nodes
    cdef int limit
    cdef uint8_t* key_room

    def __cinit__(
        self, Kernel rules, Kernel search, max_nodes, max_seconds, max_memory, restart_nodes, Kernel keys,
        bytes classes,
    ):
        self.rules, self.search, self.keys = rules, search, keys
        cdef int byte
        for byte in range(256):
            self.classes[byte] = classes[byte]
        # One account for the value table and each full-information search's table (one at a
        # time): a search has what the value table leaves of the bound.
        self.memory = _Memory(max_memory)
        self.values = _Values(self.memory)
        self.path_room = 256
        self.path = <uint64_t*>malloc(self.path_room * sizeof(uint64_t))
        self.key_room = <uint8_t*>malloc(max(rules.key_size, keys.key_size) + rules.state_size + 2)
        if self.path == NULL or self.key_room == NULL:
            raise MemoryError()
        self.nodes = 0
        self.outcomes = 0
        self.node_limit = -1 if max_nodes is None else max_nodes
        self.max_seconds = -1.0 if max_seconds is None else max_seconds
        self.restart_nodes = restart_nodes
        self.started = _cpu_seconds()
        self.clock = self.started
        self.next_look = CHECK_EVERY
        self.limit = NO_LIMIT

    def __dealloc__(self):
        free(self.path)
        free(self.key_room)

    cdef uint64_t information_digest(self, const uint8_t* state, int hidden) noexcept:
        """The digest of the layout's key (by class), the stock as far as it is known (its cards
        in the order held, the unseen ones sorted, each written as its class) and how many are
        unseen (solver.chance.class_key)."""
        cdef int length = 0, i
        cdef int offset = self.rules.stock_span(state, &length)
        cdef int size = self.keys.key(state, self.key_room)
        for i in range(length):
            self.key_room[size + i] = self.classes[state[offset + i]]
        size += length
        self.key_room[size] = <uint8_t>hidden
        self.key_room[size + 1] = 0xFE
        cdef uint64_t digest = patience_digest(self.key_room, size + 2)
        return digest if digest else 1

    cdef int count(self, int64_t more) except -1:
        """Count expanded states; a limit reached is noted in ``limit`` (then 1 is returned), and
        states that would pass the node limit are not counted (solver.chance._Expectimax._count)."""
        cdef int64_t before = self.nodes
        if self.node_limit >= 0 and before + more > self.node_limit:
            self.limit = NODES
            return 1
        self.nodes += more
        if self.nodes >= self.next_look:  # every CHECK_EVERY states, however many a search took
            self.next_look = self.nodes + CHECK_EVERY
            PyErr_CheckSignals()
            if self.max_seconds >= 0:
                self.clock = _cpu_seconds()
                if self.clock - self.started > self.max_seconds:
                    self.limit = SECONDS
                    return 1
        return 0

    cdef int look(self) except -1:
        """Every so many outcomes, a look at the clock (solver.chance._Expectimax._look)."""
        self.outcomes += 1
        if self.outcomes % CHECK_EVERY == 0:
            PyErr_CheckSignals()
            if self.max_seconds >= 0:
                self.clock = _cpu_seconds()
                if self.clock - self.started > self.max_seconds:
                    self.limit = SECONDS
                    return 1
        return 0

    cdef int store(self, uint64_t digest, double value) except -1:
        if not self.values.put(digest, value):
            self.limit = MEMORY
            return 1
        return 0

    cdef int decide(self, const uint8_t* state, double* value) except -1:
        """A full-information state decided by the compiled search, within the limits left."""
        cdef int64_t searched = 0
        if self.node_limit >= 0 and self.nodes >= self.node_limit:
            self.limit = NODES  # no state left to expand: a search would expand one more
            return 1
        nodes = None if self.node_limit < 0 else self.node_limit - self.nodes
        seconds = None
        if self.max_seconds >= 0:  # from the last reading of the clock: at most CHECK_EVERY states old
            seconds = max(1e-3, self.max_seconds - (self.clock - self.started))
        table = DigestSet(self.memory)
        cdef bytes start = state[: self.rules.state_size]
        verdict = search_state(
            self.search, start, table, nodes, seconds, self.restart_nodes, &searched, [], self.clock
        )
        if self.count(max(1, searched)):
            return 1
        if verdict == UNKNOWN:
            self.limit = NODES if self.node_limit >= 0 else SECONDS
            return 1
        value[0] = 1.0 if verdict == WON else 0.0
        return 0

    cdef int value(self, const uint8_t* state, int hidden, int depth, double* worth, int* low) except -1:
        """The best chance to win from ``state`` (``hidden`` face-down cards) into ``worth``, and
        the shallowest path depth a cycle was cut at below it into ``low`` (INFINITE_DEPTH:
        none, the value is exact); 1 where a limit stopped the walk."""
        cdef uint64_t digest = self.information_digest(state, hidden)
        cdef double found
        cdef int i, count, cut, at_most = INFINITE_DEPTH
        low[0] = INFINITE_DEPTH
        if self.values.get(digest, &found):
            worth[0] = found
            return 0
        for i in range(depth):
            if self.path[i] == digest:
                worth[0] = 0.0
                low[0] = i
                return 0
        if self.rules.is_won(state):
            worth[0] = 1.0
            return self.count(1) or self.store(digest, 1.0)
        if hidden <= 1:
            if self.decide(state, worth):
                return 1
            return self.store(digest, worth[0])
        if self.count(1):
            return 1
        if depth >= self.path_room:
            self.path_room *= 2
            self.path = <uint64_t*>realloc(self.path, self.path_room * sizeof(uint64_t))
            if self.path == NULL:
                raise MemoryError()
        self.path[depth] = digest
        cdef int32_t* moves = <int32_t*>malloc(sizeof(int32_t) * max(self.rules.max_moves, 1))
        if moves == NULL:
            raise MemoryError()
        cdef double best = 0.0, one
        try:
            count = self.rules.moves(state, moves)
            for i in range(count):
                if self.move_value(state, hidden, moves[i], depth, &one, &cut):
                    return 1
                if cut < at_most:
                    at_most = cut
                if one > best:
                    best = one
                    if best >= 1.0:
                        break
        finally:
            free(moves)
        worth[0] = best
        if best >= 1.0 or at_most >= depth:
            return self.store(digest, best)
        low[0] = at_most
        return 0

    cdef int move_value(
        self, const uint8_t* state, int hidden, int32_t move, int depth, double* worth, int* low
    ) except -1:
        """The chance to win after ``move`` with best play: the mean over the ordered tuples of
        unseen cards it turns up, each equally likely, taken by ordered tuples of classes each
        weighed by the tuples of cards it stands for, divided once at the end
        (solver.chance.class_outcomes); and the shallowest cut below it."""
        cdef int size = self.rules.state_size, length = 0, after_length = 0
        cdef int offset = self.rules.stock_span(state, &length)
        cdef int known = length - hidden, turned, i, j, cut, level, kinds = 0
        cdef uint8_t* arranged = <uint8_t*>malloc(2 * size)
        if arranged == NULL:
            raise MemoryError()
        cdef uint8_t* child = arranged + size
        cdef uint8_t cards[MOST_HIDDEN]
        cdef uint8_t kind[MOST_HIDDEN]  # the classes among the unseen cards, ascending
        cdef int many[MOST_HIDDEN]  # of each, how many unseen cards are not drawn yet
        cdef int kind_of[MOST_HIDDEN]  # each unseen card's class, as an index into kind
        cdef int pick[MOST_HIDDEN]
        cdef double weight[MOST_HIDDEN + 1]  # the card tuples the classes picked above a level stand for
        cdef uint64_t used
        cdef double total = 0.0, one, ways
        low[0] = INFINITE_DEPTH
        try:
            self.rules.apply(state, move, child)
            self.rules.stock_span(child, &after_length)
            turned = (length - after_length) - known
            if turned <= 0:
                if self.value(child, hidden, depth + 1, worth, low):
                    return 1
                return 0
            memcpy(cards, state + offset + known, hidden)
            for i in range(hidden):  # the classes, kept ascending by insertion: a few dozen at most
                j = kinds
                while j > 0 and kind[j - 1] > self.classes[cards[i]]:
                    j -= 1
                if j > 0 and kind[j - 1] == self.classes[cards[i]]:
                    continue
                memmove(kind + j + 1, kind + j, kinds - j)
                kind[j] = self.classes[cards[i]]
                kinds += 1
            for i in range(kinds):
                many[i] = 0
            for i in range(hidden):
                j = 0
                while kind[j] != self.classes[cards[i]]:
                    j += 1
                kind_of[i] = j
                many[j] += 1
            ways = 1.0  # how many ordered tuples of cards: the mean is taken once, at the end
            for i in range(turned):
                ways *= hidden - i
            # Every ordered tuple of ``turned`` classes, in lexicographic order.
            for i in range(turned):
                pick[i] = -1
            level = 0
            weight[0] = 1.0
            while level >= 0:
                if pick[level] >= 0:
                    many[pick[level]] += 1
                pick[level] += 1
                while pick[level] < kinds and many[pick[level]] == 0:
                    pick[level] += 1
                if pick[level] >= kinds:
                    pick[level] = -1
                    level -= 1
                    continue
                weight[level + 1] = weight[level] * many[pick[level]]
                many[pick[level]] -= 1
                if level + 1 < turned:
                    level += 1
                    continue
                # The representative: of each class picked, its lowest unseen card not yet drawn.
                memcpy(arranged, state, size)
                used = 0
                for i in range(turned):
                    j = 0
                    while kind_of[j] != pick[i] or used >> j & 1:
                        j += 1
                    used |= <uint64_t>1 << j
                    arranged[offset + known + i] = cards[j]
                j = offset + known + turned
                for i in range(hidden):
                    if not used >> i & 1:
                        arranged[j] = cards[i]
                        j += 1
                self.rules.apply(arranged, move, child)
                if self.look() or self.value(child, hidden - turned, depth + 1, &one, &cut):
                    return 1
                total += weight[turned] * one
                if cut < low[0]:
                    low[0] = cut
            worth[0] = min(total / ways, 1.0)
            return 0
        finally:
            free(arranged)


def best_chance(
    Kernel rules not None, Kernel search not None, bytes start not None, int hidden, bint with_moves,
    max_nodes=None, max_seconds=None, max_memory=None, restart_nodes=1000, Kernel keys=None, bytes classes=None,
):
    """solver.chance.best_chance in C: the best chance to win from ``start`` (``hidden`` cards
    face down, held sorted at the end of the stock), and with ``with_moves`` each move's, in
    ``rules``'s order; by class where ``classes`` (256 bytes: each card code's class) and
    ``keys`` (the kernel of the class-keyed twin, its states laid out as ``rules``'s) are given
    (solver.protocol.Classed), else card by card. Returns (chance or None, per-move chances
    (None where not reached), limit, (nodes, table entries, table bytes, seconds))."""
    if (keys is None) != (classes is None):
        raise ValueError("card classes need the kernel keyed by them, and that kernel its classes")
    if classes is None:
        keys, classes = rules, bytes(range(256))
    elif len(classes) != 256 or keys.state_size != rules.state_size:
        raise ValueError("card classes are 256 bytes, and their keys' kernel lays states out as the rules'")
    cdef const uint8_t* root = rules._checked(start)
    cdef int length = 0
    rules.stock_span(root, &length)
    if not 0 <= hidden <= length or hidden > MOST_HIDDEN:
        raise ValueError(f"a stock of {length} cards cannot hold {hidden} face down here")
    cdef _Expectimax walk = _Expectimax(
        rules, search, max_nodes, max_seconds, max_memory, restart_nodes, keys, classes
    )
    cdef int32_t* moves = <int32_t*>malloc(sizeof(int32_t) * max(rules.max_moves, 1))
    if moves == NULL:
        raise MemoryError()
    cdef int count = rules.moves(root, moves) if with_moves else 0, i, cut
    cdef double worth
    judged = []
    chance = None
    walk.path[0] = 0  # no digest is 0: the position itself is not on the path of its moves' walks
    try:
        for i in range(count):
            if walk.move_value(root, hidden, moves[i], 0, &worth, &cut):
                break
            judged.append(worth)
        else:
            if count:
                chance = max(judged)
            elif not walk.value(root, hidden, 0, &worth, &cut):
                chance = worth
    finally:
        free(moves)
    stats = (walk.nodes, walk.values.count, walk.values.bytes_held(), _cpu_seconds() - walk.started)
    judged += [None] * (count - len(judged))
    return chance, judged, _LIMITS[walk.limit], stats


# ----------------------------------------------------------------------------- information relaxation

cdef class _Relaxation:
    """solver.relaxation._Walk in C, stopping where a line crosses to at most ``reach`` face-down
    cards (as the Python walk does by default): the charged outcome there is the expectimax's
    chance of the move that crosses, from the position as the player knows it; its table is kept
    across orders, the walk's own (full-information states, keyed by the rules' digest and the
    face-down count) is made afresh for each order."""

    cdef _Expectimax worth
    cdef Kernel rules
    cdef int reach
    cdef _Values best
    cdef uint64_t* path
    cdef int path_room
    cdef uint8_t* key_room
    cdef uint8_t* concealed

    def __cinit__(self, _Expectimax worth, int reach):
        self.worth, self.rules, self.reach = worth, worth.rules, reach
        self.path_room = 256
        self.path = <uint64_t*>malloc(self.path_room * sizeof(uint64_t))
        self.key_room = <uint8_t*>malloc(self.rules.key_size + 1)
        self.concealed = <uint8_t*>malloc(self.rules.state_size)
        if self.path == NULL or self.key_room == NULL or self.concealed == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.path)
        free(self.key_room)
        free(self.concealed)

    cdef uint64_t digest(self, const uint8_t* state, int hidden) noexcept:
        cdef int size = self.rules.key(state, self.key_room)
        self.key_room[size] = <uint8_t>hidden
        cdef uint64_t digest = patience_digest(self.key_room, size + 1)
        return digest if digest else 1

    cdef int known(self, const uint8_t* state, int hidden, int32_t move, bint moved, double* worth) except -1:
        """The expectimax's chance of ``state`` (or of ``move`` from it, ``moved``) as the player
        knows it: its face-down cards sorted (solver.chance.conceal)."""
        cdef int length = 0, i, j, cut
        cdef int at = self.rules.stock_span(state, &length) + length - hidden
        cdef uint8_t held
        memcpy(self.concealed, state, self.rules.state_size)
        for i in range(at + 1, at + hidden):  # an insertion sort: a few dozen cards at most
            held = self.concealed[i]
            j = i - 1
            while j >= at and self.concealed[j] > held:
                self.concealed[j + 1] = self.concealed[j]
                j -= 1
            self.concealed[j + 1] = held
        if not moved:
            return self.worth.value(self.concealed, hidden, 0, worth, &cut)
        self.worth.path[0] = 0  # no digest is 0: the position is not on the path of its move's walk
        return self.worth.move_value(self.concealed, hidden, move, 0, worth, &cut)

    cdef int order(self, const uint8_t* state, int hidden, double* worth) except -1:
        """The best charged outcome of one order (``state`` holds it)."""
        cdef int low
        self.best = _Values(self.worth.memory)
        try:
            return self.walk(state, hidden, 0, worth, &low)
        finally:
            self.best = None

    cdef int walk(self, const uint8_t* state, int hidden, int depth, double* worth, int* low) except -1:
        """The best charged outcome from ``state`` into ``worth``, the shallowest cut below it into
        ``low``; 1 where a limit stopped the walk (solver.relaxation._Walk.walk)."""
        cdef double found, best = 0.0, one
        cdef int i, count, cut, at_most = INFINITE_DEPTH, length = 0, after_length = 0, known, turned
        cdef uint64_t* grown
        low[0] = INFINITE_DEPTH
        if self.rules.is_won(state):
            worth[0] = 1.0
            return 0
        if hidden <= 1 or hidden <= self.reach:
            return self.known(state, hidden, 0, False, worth)
        cdef uint64_t digest = self.digest(state, hidden)
        if self.best.get(digest, &found):
            worth[0] = found
            return 0
        for i in range(depth):
            if self.path[i] == digest:
                worth[0] = 0.0
                low[0] = i
                return 0
        if self.worth.count(1):
            return 1
        if depth >= self.path_room:
            grown = <uint64_t*>realloc(self.path, 2 * self.path_room * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError()  # the old block is still held, and freed with the walk
            self.path, self.path_room = grown, 2 * self.path_room
        self.path[depth] = digest
        self.rules.stock_span(state, &length)
        known = length - hidden
        cdef int32_t* moves = <int32_t*>malloc(sizeof(int32_t) * max(self.rules.max_moves, 1))
        cdef uint8_t* child = <uint8_t*>malloc(self.rules.state_size)
        if moves == NULL or child == NULL:
            free(moves)
            free(child)
            raise MemoryError()
        try:
            count = self.rules.moves(state, moves)
            for i in range(count):
                self.rules.apply(state, moves[i], child)
                self.rules.stock_span(child, &after_length)
                turned = max(0, (length - after_length) - known)
                cut = INFINITE_DEPTH
                if turned and hidden - turned <= self.reach:  # crossing: the mean of V, charged
                    # counted as a state, as the Python walk counts it: a walk of many crossings
                    # whose outcomes are all in V's table expands nothing else, and ran past its share
                    if self.worth.count(1) or self.known(state, hidden, moves[i], True, &one):
                        return 1
                elif self.walk(child, hidden - turned, depth + 1, &one, &cut):
                    return 1
                if cut < at_most:
                    at_most = cut
                if one > best:
                    best = one
                    if best >= 1.0:
                        break
        finally:
            free(moves)
            free(child)
        worth[0] = best
        if best >= 1.0 or at_most >= depth:
            if not self.best.put(digest, best):
                self.worth.limit = MEMORY
                return 1
            return 0
        low[0] = at_most
        return 0


def relaxed(
    Kernel rules not None, Kernel search not None, bytes start not None, int hidden, int64_t samples,
    uint64_t seed, bint every, int reach, max_nodes=None, max_seconds=None, max_memory=None,
    restart_nodes=1000, Kernel keys=None, bytes classes=None,
):
    """solver.relaxation.relaxed in C: over every order of the ``hidden`` face-down cards of
    ``start`` (``every``) or ``samples`` drawn from ``seed`` (as :func:`hindsight` takes them),
    the mean of each order's best charged outcome, V the exact chance within ``reach`` face-down
    cards (by class as :func:`best_chance` takes ``keys`` and ``classes``). The limits bound the
    whole. Returns (total of the orders' outcomes, orders done, limit or None, states)."""
    if (keys is None) != (classes is None):
        raise ValueError("card classes need the kernel keyed by them, and that kernel its classes")
    if classes is None:
        keys, classes = rules, bytes(range(256))
    elif len(classes) != 256 or keys.state_size != rules.state_size:
        raise ValueError("card classes are 256 bytes, and their keys' kernel lays states out as the rules'")
    cdef const uint8_t* root = rules._checked(start)
    cdef int length = 0, i, j
    cdef int offset = rules.stock_span(root, &length)
    if not 0 <= hidden <= length or hidden > MOST_HIDDEN:
        raise ValueError(f"a stock of {length} cards cannot hold {hidden} face down here")
    cdef int at = offset + length - hidden
    cdef _Expectimax worth = _Expectimax(rules, search, max_nodes, max_seconds, max_memory, restart_nodes, keys, classes)
    cdef _Relaxation walk = _Relaxation(worth, reach)
    cdef uint8_t sorted_cards[MOST_HIDDEN]
    cdef uint8_t order[MOST_HIDDEN]
    cdef uint8_t held
    memcpy(sorted_cards, root + at, hidden)
    for i in range(1, hidden):
        held = sorted_cards[i]
        j = i - 1
        while j >= 0 and sorted_cards[j] > held:
            sorted_cards[j + 1] = sorted_cards[j]
            j -= 1
        sorted_cards[j + 1] = held
    memcpy(order, sorted_cards, hidden)
    cdef uint8_t* arranged = <uint8_t*>malloc(rules.state_size)
    if arranged == NULL:
        raise MemoryError()
    memcpy(arranged, root, rules.state_size)
    cdef double total = 0.0, one
    cdef int64_t done = 0
    try:
        while every or done < samples:
            if every and done and not _next_order(order, hidden):
                break
            if not every:
                memcpy(order, sorted_cards, hidden)
                _shuffle(order, hidden, &seed)
            memcpy(arranged + at, order, hidden)
            if walk.order(arranged, hidden, &one):
                break
            total += one
            done += 1
    finally:
        free(arranged)
    return total, done, _LIMITS[worth.limit], worth.nodes
