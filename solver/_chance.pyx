# cython: language_level=3
"""The compiled twin of solver/chance.py's hindsight: the orders of a face-down stock, each
decided with every card known, the position's and each move's, in one loop of C.

The orders are every order of the face-down cards (in lexicographic order) or ``samples`` of them
drawn by the generator solver.chance.Draw spells out in Python, so that both engines judge the
same orders. Each order is written into the face-down span of the flat state (where the kernel's
``stock_span`` says the stock lies: its last ``hidden`` cards) and searched on a table of its
own (emptying one grown by a long search cost more than a new one for the short searches of most
orders). A lost or undecided order costs no Python; a won one is handed back with its
line, for the rules to replay (solver.engine), as every win the project counts is.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from solver._protocol cimport Kernel
from solver._search cimport search_state
from solver._table cimport DigestSet

from solver._table import TableMemory as _Memory

cdef extern from "Python.h":
    int PyErr_CheckSignals() except -1

# solver.chance.Draw's generator: a 64-bit linear congruential step, the high bits drawn.
DEF MULTIPLIER = 6364136223846793005
DEF INCREMENT = 1442695040888963407
DEF HIGH = 33
DEF WON = 0
DEF MOST_HIDDEN = 64


cdef inline uint64_t _below(uint64_t* state, uint64_t bound) noexcept:
    """The next draw of the generator, reduced below ``bound`` (solver.chance.Draw.below)."""
    state[0] = state[0] * <uint64_t>MULTIPLIER + <uint64_t>INCREMENT
    return (state[0] >> HIGH) % bound


cdef void _shuffle(uint8_t* cards, int count, uint64_t* state) noexcept:
    """Fisher-Yates from the last card down (solver.chance.Draw.shuffled)."""
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
    uint64_t seed, bint every, bint with_moves, max_nodes=None, max_seconds=None, max_memory=None, restart_nodes=1000,
):
    """For the position ``start`` (a flat state of ``rules``) whose stock ends in ``hidden``
    face-down cards: every order of them (``every``) or ``samples`` drawn from ``seed``, each
    decided with every card known by ``search`` (the kernel searched: ``rules`` with its
    reductions), for the position and, ``with_moves``, after each of its moves in ``rules``'s
    order (the same whatever the face-down order: the rules look only at what is seen). Returns
    (tallies, wins, nodes): per target (the position, then each move) [won, lost, unknown]; each
    win as (target, order, line of codes); the states expanded in all."""
    cdef const uint8_t* root = rules._checked(start)
    cdef int length = 0
    cdef int offset = rules.stock_span(root, &length)
    if not 0 <= hidden <= length or hidden > MOST_HIDDEN:
        raise ValueError(f"a stock of {length} cards cannot hold {hidden} face down here")
    cdef int at = offset + length - hidden, target, verdict, i, j
    cdef int32_t* codes = <int32_t*>malloc(sizeof(int32_t) * max(rules.max_moves, 1))
    if codes == NULL:
        raise MemoryError()
    cdef int targets = 1 + (rules.moves(root, codes) if with_moves else 0)
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
    cdef list tallies = [[0, 0, 0] for _ in range(targets)]
    cdef list wins = []
    cdef list line
    cdef int64_t nodes = 0, total = 0, done = 0
    cdef bytes state, position
    cdef DigestSet table
    try:
        while every or done < samples:
            if every and done and not _next_order(order, hidden):
                break
            if not every:
                memcpy(order, sorted_cards, hidden)
                _shuffle(order, hidden, &seed)
            memcpy(arranged + at, order, hidden)
            position = arranged[: rules.state_size]
            for target in range(targets):
                if target == 0:
                    state = position
                else:
                    state = bytes(rules.state_size)
                    rules.apply(arranged, codes[target - 1], <uint8_t*><const uint8_t*>state)
                line = []
                table = DigestSet(_Memory(max_memory))
                verdict = search_state(search, state, table, max_nodes, max_seconds, restart_nodes, &nodes, line)
                total += nodes
                tallies[target][verdict] += 1
                if verdict == WON:
                    wins.append((target, order[:hidden], tuple(line)))
            done += 1
            PyErr_CheckSignals()  # a search too short to look at the signals itself
    finally:
        free(arranged)
        free(codes)
    return tallies, wins, total
