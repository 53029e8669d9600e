# The C-level twin of solver/protocol.py: all the compiled engine (solver/_search.pyx) knows of
# a game. A kernel is one ruleset with its options fixed, compiled (rulesets/_NAME.pyx, beside
# the ruleset it mirrors). Its states are flat arrays of ``state_size`` bytes laid out as the
# kernel chooses (the ruleset's ``encode`` writes its own states so); a move is a small
# non-negative integer (the ruleset's ``decode`` turns it back into its own move). The methods
# answer exactly what the Python ruleset's methods of the same names answer, held equal by the
# differential tests (tests/test_kernels.py): the same moves in the same order, the same
# successor layouts, the same key bytes, scores and bounds.

from libc.stdint cimport int32_t, uint8_t, uint64_t

cdef enum:
    # The score of a state where the game cannot end (solver.protocol.NO_SCORE).
    KERNEL_NO_SCORE = 2147483647


cdef class Kernel:
    # Bytes of a state; the most moves a state offers; the most bytes of a key.
    cdef readonly int state_size
    cdef readonly int max_moves
    cdef readonly int key_size

    # The legal moves of ``state`` into ``out`` (room for max_moves), best first in the
    # ruleset's order; returns how many.
    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept
    # The state after ``move`` into ``child`` (state_size bytes; ``state`` is left unchanged).
    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept
    cdef bint is_won(self, const uint8_t* state) noexcept
    # The canonical layout key into ``out`` (room for key_size bytes); returns its length.
    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept
    # The key's digest (solver/_digest.pxd), ``room`` holding key_size bytes to write the key in.
    # The default writes the key out and digests it; a kernel whose state already holds its key
    # in order may digest it where it lies, never to another value.
    cdef uint64_t digest(self, const uint8_t* state, uint8_t* room) noexcept
    cdef int score(self, const uint8_t* state) noexcept
    cdef int lower_bound(self, const uint8_t* state) noexcept
    # Where the stock's cards lie in ``state``, next card first: the offset of the first, and
    # their number in ``length`` (a card the rules fix at the stock's end, known to every player,
    # is not counted): the cards a face-down stock hides (solver/_chance.pyx). None by default.
    cdef int stock_span(self, const uint8_t* state, int* length) noexcept
    # ``state`` as a pointer, once it is checked to be state_size bytes (for the probes).
    cdef const uint8_t* _checked(self, bytes state) except NULL


cdef class CostedKernel(Kernel):
    # solver.protocol.CostedGame: move costs for IDA* (Amazons counts its redeals).
    cdef int move_cost(self, const uint8_t* state, int32_t move) noexcept
    cdef int cost_to_win_bound(self, const uint8_t* state) noexcept
    cdef int cost_to_win_cap(self) noexcept
    # Hold what cost_to_win_bound caches within ``max_bytes`` (-1: the kernel's own default),
    # and the bytes it holds now, for --max-memory and the search's memory figures.
    cdef void hold_bound_cache(self, Py_ssize_t max_bytes) noexcept
    cdef Py_ssize_t bound_cache_bytes(self) noexcept
