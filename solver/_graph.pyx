# cython: language_level=3
"""A kernel over an explicit graph, so that the compiled engine can be held to the same toy games
as the Python one (tests/helpers.py's GraphGame and its kin build it from their own answers).

A state is a node number (4 bytes, little-endian), its key the same 4 bytes; a move's code is
its node's number times 65,536 plus the index of the edge in that node's list, so that it names
the edge without the state (solver.protocol.Compiled.decode).
"""

from libc.stdint cimport int32_t, uint8_t
from libc.string cimport memcpy

from solver._protocol cimport CostedKernel


cdef class GraphKernel(CostedKernel):
    """Per node: its edges as (target, cost), score, won or not, lower bound and cost bound; and
    the most a cost bound gives."""

    cdef list edges
    cdef list scores
    cdef list won
    cdef list bounds
    cdef list cost_bounds
    cdef int cap

    def __cinit__(self, list edges, list scores, list won, list bounds, list cost_bounds, int cap):
        self.state_size = 4
        self.key_size = 4
        self.max_moves = max([len(node) for node in edges] + [1])
        self.edges, self.scores, self.won = edges, scores, won
        self.bounds, self.cost_bounds, self.cap = bounds, cost_bounds, cap

    cdef inline int32_t _node(self, const uint8_t* state) noexcept:
        cdef int32_t node
        memcpy(&node, state, 4)
        return node

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        cdef int32_t node = self._node(state)
        cdef int count = len(<list>self.edges[node]), i
        for i in range(count):
            out[i] = node << 16 | i
        return count

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int32_t target = (<list>self.edges[move >> 16])[move & 0xFFFF][0]
        memcpy(child, &target, 4)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return self.won[self._node(state)]

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        memcpy(out, state, 4)
        return 4

    cdef int score(self, const uint8_t* state) noexcept:
        return self.scores[self._node(state)]

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return self.bounds[self._node(state)]

    cdef int move_cost(self, const uint8_t* state, int32_t move) noexcept:
        return (<list>self.edges[move >> 16])[move & 0xFFFF][1]

    cdef int cost_to_win_bound(self, const uint8_t* state) noexcept:
        return self.cost_bounds[self._node(state)]

    cdef int cost_to_win_cap(self) noexcept:
        return self.cap
