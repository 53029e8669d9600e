# cython: language_level=3
"""Thirteens compiled (the twin of rulesets/thirteens.py), with any of its reductions.

States (STATE_SIZE bytes, written by Thirteens.encode): bytes 0-7 the set of cards not yet
discarded (bit ``code``, little-endian), byte 8 the cards in the stock, bytes 9-24 the places'
cards (EMPTY for an empty place; the game's first ``places`` used, the rest EMPTY), the last 52
bytes the stock, right-aligned (its next card at 52 - count), zero where dealt.

Move codes: bits 0-5 the card named first, bits 6-11 its partner, bit 12 set for a pair
(ORDERED[a][b]; clear for a King alone), bits 16-19 and 20-23 their places (for apply).
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from rulesets._pairs cimport (
    PAIRS_RANK,
    pairs_balanced_ranks,
    pairs_count_of,
    pairs_popcount,
    pairs_rank_counts,
    pairs_unbalanced,
)
from solver._protocol cimport KERNEL_NO_SCORE, Kernel

DEF MOST_PLACES = 16
DEF STOCK_ROOM = 52
DEF LEFT = 0
DEF STOCK_COUNT = 8
DEF PLACES = 9
DEF STOCK = PLACES + MOST_PLACES
DEF STATE_SIZE = STOCK + STOCK_ROOM
DEF EMPTY = 0xFF
DEF PAIR = 1 << 12
DEF KING = 13


#: The most places a kernel holds (the ruleset falls back to Python beyond).
MAX_PLACES = MOST_PLACES


cdef inline int32_t _code(int kind, int a, int b, int place_a, int place_b) noexcept:
    return a | b << 6 | kind | place_a << 16 | place_b << 20


cdef class ThirteensKernel(Kernel):
    """Thirteens with its reductions fixed (rulesets.thirteens.Thirteens)."""

    cdef int places
    cdef bint reduce_kings
    cdef bint reduce_balanced
    cdef bint reduce_suits

    def __cinit__(self, int places, bint kings, bint balanced, bint suits=False):
        if not 1 <= places <= MOST_PLACES:
            raise ValueError(f"the Thirteens kernel takes 1 to {MOST_PLACES} places, not {places}")
        self.places = places
        self.state_size = STATE_SIZE
        # At most 4 Kings, then each pair in both orders: 16 places hold at most two pairs of
        # ranks whole (4 cards each), 2 * (16 + 16) ordered pairs: 68 moves at most.
        self.max_moves = 72
        self.key_size = 16  # 8 bytes, or 14 under suits
        self.reduce_kings = kings
        self.reduce_balanced = balanced
        self.reduce_suits = suits

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        """Right-aligned in the last STOCK_ROOM bytes (Thirteens.encode)."""
        length[0] = state[STOCK_COUNT]
        return STATE_SIZE - length[0]

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        """Thirteens.moves: Kings in place order, then each pair in both orders (the first named
        card's place left to right); a King alone, or a balanced pair lower value first, where a
        reduction forces it."""
        cdef uint8_t cards[MOST_PLACES]
        cdef uint8_t where[MOST_PLACES]
        cdef uint8_t counts[14]
        cdef int size = 0, count = 0, i, j, rank, low, high, balanced
        cdef uint64_t left
        for i in range(self.places):
            if state[PLACES + i] != EMPTY:
                cards[size] = state[PLACES + i]
                where[size] = i
                size += 1
        for i in range(size):
            if PAIRS_RANK[cards[i]] == KING:
                out[count] = _code(0, cards[i], 0, where[i], 0)
                count += 1
                if self.reduce_kings:
                    return 1
        for i in range(size):
            rank = 13 - PAIRS_RANK[cards[i]]
            for j in range(size):
                if PAIRS_RANK[cards[j]] == rank:
                    out[count] = _code(PAIR, cards[i], cards[j], where[i], where[j])
                    count += 1
        if count and self.reduce_balanced:
            memset(counts, 0, sizeof(counts))
            for i in range(size):
                counts[PAIRS_RANK[cards[i]]] += 1
            memcpy(&left, state + LEFT, 8)
            balanced = pairs_balanced_ranks(counts, left)
            if balanced:
                for i in range(count):
                    if not out[i] & PAIR:
                        continue
                    low = PAIRS_RANK[out[i] & 63]
                    high = PAIRS_RANK[out[i] >> 6 & 63]
                    if balanced >> (low if low < high else high) & 1:
                        # pairs.pair_move: the lower value named (and refilled) first
                        if low > high:
                            out[0] = _code(PAIR, out[i] >> 6 & 63, out[i] & 63, out[i] >> 20 & 15, out[i] >> 16 & 15)
                        else:
                            out[0] = out[i]
                        return 1
        return count

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        """Thirteens.apply: each discarded card's place refilled from the stock, the first named
        card's first."""
        cdef uint64_t left
        cdef int stock = state[STOCK_COUNT]
        memcpy(child, state, STATE_SIZE)
        memcpy(&left, state + LEFT, 8)
        left &= ~(<uint64_t>1 << (move & 63))
        stock = self.refill(child, move >> 16 & 15, stock)
        if move & PAIR:
            left &= ~(<uint64_t>1 << (move >> 6 & 63))
            stock = self.refill(child, move >> 20 & 15, stock)
        child[STOCK_COUNT] = stock
        memcpy(child + LEFT, &left, 8)

    cdef inline int refill(self, uint8_t* state, int place, int stock) noexcept:
        """Place ``place`` refilled from a stock of ``stock`` cards (or left empty); the stock's
        count after."""
        cdef int at
        if stock:
            at = STOCK + STOCK_ROOM - stock
            state[PLACES + place] = state[at]
            state[at] = 0
            return stock - 1
        state[PLACES + place] = EMPTY
        return 0

    cdef bint is_won(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        memcpy(&left, state + LEFT, 8)
        return left == 0

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        """Thirteens.key: the cards left (7 bytes, little-endian), or under suits how many of
        each rank (13 bytes, Aces first), and the stock's length."""
        cdef uint64_t left, counts
        cdef int rank
        if self.reduce_suits:
            memcpy(&left, state + LEFT, 8)
            counts = pairs_rank_counts(left)
            for rank in range(1, 14):
                out[rank - 1] = pairs_count_of(counts, rank)
            out[13] = state[STOCK_COUNT]
            return 14
        memcpy(out, state + LEFT, 7)
        out[7] = state[STOCK_COUNT]
        return 8

    cdef int score(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        cdef int ranks = 0, i, rank
        memcpy(&left, state + LEFT, 8)
        if left:
            for i in range(self.places):
                if state[PLACES + i] != EMPTY:
                    ranks |= 1 << PAIRS_RANK[state[PLACES + i]]
            if ranks >> KING & 1:
                return KERNEL_NO_SCORE
            for rank in range(1, 7):
                if ranks >> rank & ranks >> (13 - rank) & 1:
                    return KERNEL_NO_SCORE
        return pairs_popcount(left)

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        memcpy(&left, state + LEFT, 8)
        return pairs_unbalanced(left)
