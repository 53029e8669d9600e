# cython: language_level=3
"""The compiled kernel's base classes (declared in _protocol.pxd, the twin of protocol.py), and
``probe_*`` methods that call each C-level method from Python on one state: what the
differential tests compare with the Python ruleset, never what a search uses."""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from solver._digest cimport patience_digest


cdef class Kernel:
    """A ruleset compiled: subclasses fill in every method (these defaults offer no move)."""

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        return 0

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        memcpy(child, state, self.state_size)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return False

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        memcpy(out, state, self.state_size)
        return self.state_size

    cdef uint64_t digest(self, const uint8_t* state, uint8_t* room) noexcept:
        return patience_digest(room, self.key(state, room))

    cdef int score(self, const uint8_t* state) noexcept:
        return KERNEL_NO_SCORE

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return 0

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        length[0] = 0
        return 0

    cdef const uint8_t* _checked(self, bytes state) except NULL:
        if len(state) != self.state_size:
            raise ValueError(f"a state of this kernel is {self.state_size} bytes, not {len(state)}")
        return <const uint8_t*>state

    def probe_moves(self, bytes state) -> list:
        """The moves of ``state``, in order."""
        cdef const uint8_t* at = self._checked(state)
        cdef int32_t* out = <int32_t*>malloc(sizeof(int32_t) * max(self.max_moves, 1))
        if out == NULL:
            raise MemoryError()
        try:
            count = self.moves(at, out)
            return [out[i] for i in range(count)]
        finally:
            free(out)

    def probe_apply(self, bytes state, int32_t move) -> bytes:
        """The state after ``move``."""
        cdef const uint8_t* at = self._checked(state)
        child = bytes(self.state_size)
        self.apply(at, move, <uint8_t*><const uint8_t*>child)
        return child

    def probe_key(self, bytes state) -> bytes:
        cdef const uint8_t* at = self._checked(state)
        out = bytes(self.key_size)
        cdef int size = self.key(at, <uint8_t*><const uint8_t*>out)
        return out[:size]

    def probe_digest(self, bytes state) -> int:
        cdef const uint8_t* at = self._checked(state)
        room = bytes(self.key_size)
        return self.digest(at, <uint8_t*><const uint8_t*>room)

    def probe_is_won(self, bytes state) -> bool:
        return self.is_won(self._checked(state))

    def probe_score(self, bytes state) -> int:
        return self.score(self._checked(state))

    def probe_lower_bound(self, bytes state) -> int:
        return self.lower_bound(self._checked(state))

    def probe_stock_span(self, bytes state) -> tuple:
        """(offset, length) of the stock's cards that may lie face down."""
        cdef int length = 0
        cdef int offset = self.stock_span(self._checked(state), &length)
        return offset, length


cdef class CostedKernel(Kernel):
    """A kernel with move costs (for IDA*): subclasses fill these in too."""

    cdef int move_cost(self, const uint8_t* state, int32_t move) noexcept:
        return 0

    cdef int cost_to_win_bound(self, const uint8_t* state) noexcept:
        return 0

    cdef int cost_to_win_cap(self) noexcept:
        return 0

    cdef void hold_bound_cache(self, Py_ssize_t max_bytes) noexcept:
        pass

    cdef Py_ssize_t bound_cache_bytes(self) noexcept:
        return 0

    def probe_move_cost(self, bytes state, int32_t move) -> int:
        return self.move_cost(self._checked(state), move)

    def probe_cost_to_win_bound(self, bytes state) -> int:
        return self.cost_to_win_bound(self._checked(state))

    def probe_cost_to_win_cap(self) -> int:
        return self.cost_to_win_cap()
