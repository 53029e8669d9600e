# cython: language_level=3
"""Royal Marriage, Queen and her Lad and Nizhni Novgorod compiled (the twin of
rulesets/royal_marriage.py): the open row with its interval analysis, and compulsory Nizhni
Novgorod dealt one card at a time.

Move codes: a discard between row positions ``left`` and ``right`` is ``left << 6 | right``;
DEAL_CODE deals the next card.

States (STATE_SIZE bytes, zero padded):
- open row: byte 0 the number of cards, byte 1 the floor (OpenMarriageRow's lower bound, carried
  along), from byte 2 the row's cards, first card first.
- compulsory Nizhni Novgorod: byte 0 the cards in the row, byte 1 the cards left (row and stock),
  from byte 2 the row followed by the stock, next card first (dealing only moves the boundary).

The analysis (royal_marriage.analyse and best_move) runs on bit sets of row positions in uint64
words: a row holds at most 52 cards.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from solver._protocol cimport KERNEL_NO_SCORE, Kernel

cdef extern from *:
    """
    /* The position of the lowest set bit of a non-zero word: one instruction where the compiler
       has it. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int royal_low(unsigned long long word) {
        unsigned long at;
        _BitScanForward64(&at, word);
        return (int)at;
    }
    #else
    static inline int royal_low(unsigned long long word) { return __builtin_ctzll(word); }
    #endif
    """
    int royal_low(uint64_t word) nogil

DEF STATE_SIZE = 56
DEF MAX_ROW = 52
DEF DEAL_CODE = 4096
#: The pairs of cards of a deck sharing suit or rank.
DEF MATCHING_PAIRS = 390

# The removal rules (royal_marriage.Removal's subclasses).
DEF ONE_OR_TWO = 0
DEF LAD_PAIRS = 1
DEF INNER_TWO = 2

#: MATCH[a * 52 + b]: cards a and b share suit or rank.
cdef uint8_t MATCH[52 * 52]


cdef void _build_tables() noexcept:
    cdef int a, b
    for a in range(52):
        for b in range(52):
            MATCH[a * 52 + b] = a // 13 == b // 13 or a % 13 == b % 13


_build_tables()


cdef struct Analysis:
    # royal_marriage.Analysis over one row: clear[i] the positions j > i clearable from i,
    # reach[i] where a group of survivors starting at i can close, fewest[i] the fewest cards
    # left from i to the end; suit and match the Masks; runs (OneOrTwo's runs, LadPairs' pairs)
    # and after (LadPairs' after) the removal's tables.
    uint64_t clear[MAX_ROW]
    uint64_t reach[MAX_ROW]
    uint64_t suit[MAX_ROW]
    uint64_t match[MAX_ROW]
    uint64_t runs[MAX_ROW]
    uint64_t after[MAX_ROW]
    int fewest[MAX_ROW]
    # The row these sets are of (size 0: none yet).
    uint8_t row[MAX_ROW]
    int size


cdef inline uint64_t _bit(int position) noexcept:
    return <uint64_t>1 << position


cdef void _analyse(Analysis* a, const uint8_t* row, int size, int removal, bint same_suit) noexcept:
    """royal_marriage.analyse: the same sets, built right to left.

    Every set at position p depends only on the cards from p to the end, so where ``row`` ends
    as the row analysed last ended (a child's row ends as its parent's: a discard closes a gap
    on its left), those positions keep their sets, moved over by the difference in length; only
    the positions left of that common end are worked out. The search analyses each state right
    after its parent, so this saves most of the work (measured in the commit adding it)."""
    cdef uint64_t suits[4]
    cdef uint64_t ranks[13]
    cdef int p, i, j, least, last = size - 1, common = 0, shift
    cdef uint64_t found, candidates, low, matching, m, run, closing
    memset(suits, 0, sizeof(suits))
    memset(ranks, 0, sizeof(ranks))
    for p in range(size):
        suits[row[p] // 13] |= _bit(p)
        ranks[row[p] % 13] |= _bit(p)
    for p in range(size):
        a.suit[p] = suits[row[p] // 13]
        a.match[p] = suits[row[p] // 13] | ranks[row[p] % 13]
    while common < size and common < a.size and row[last - common] == a.row[a.size - 1 - common]:
        common += 1
    shift = a.size - size
    if common == 0:
        # At the last position every set is empty (nothing lies to its right).
        a.clear[last] = a.reach[last] = a.runs[last] = a.after[last] = 0
        a.fewest[last] = 1
        common = 1
    elif shift > 0:
        for p in range(size - common, size):
            a.clear[p] = a.clear[p + shift] >> shift
            a.reach[p] = a.reach[p + shift] >> shift
            a.runs[p] = a.runs[p + shift] >> shift
            a.after[p] = a.after[p + shift] >> shift
            a.fewest[p] = a.fewest[p + shift]
    elif shift < 0:
        for p in range(size - 1, size - common - 1, -1):
            a.clear[p] = a.clear[p + shift] << -shift
            a.reach[p] = a.reach[p + shift] << -shift
            a.runs[p] = a.runs[p + shift] << -shift
            a.after[p] = a.after[p + shift] << -shift
            a.fewest[p] = a.fewest[p + shift]
    memcpy(a.row, row, size)
    a.size = size
    for i in range(size - common - 1, -1, -1):
        matching = a.match[i]
        found = _bit(i + 1)
        candidates = a.reach[i + 1] & matching
        while candidates:
            low = candidates & (~candidates + 1)
            found |= low
            candidates = (candidates ^ low) | (a.reach[royal_low(low)] & matching)
        a.clear[i] = found
        # the removal's reach(i)
        if removal == ONE_OR_TWO:
            run = found
            m = found
            while m:
                run |= a.clear[royal_low(m)]
                m &= m - 1
            if same_suit:
                closing = found
                m = found & a.suit[i]
                while m:
                    closing |= a.runs[royal_low(m)]
                    m &= m - 1
                a.runs[i] = closing
                run |= closing
            a.reach[i] = run
        elif removal == LAD_PAIRS:
            closing = found
            m = found
            while m:
                closing |= a.runs[royal_low(m)]
                m &= m - 1
            a.after[i] = closing
            run = 0
            m = found & a.match[i]
            while m:
                run |= a.after[royal_low(m)]
                m &= m - 1
            a.runs[i] = run
            a.reach[i] = found | run
        else:
            run = 0
            m = found
            while m:
                run |= a.clear[royal_low(m)]
                m &= m - 1
            a.reach[i] = run
        least = MAX_ROW + 1
        m = found
        while m:
            j = royal_low(m)
            if a.fewest[j] < least:
                least = a.fewest[j]
            m &= m - 1
        a.fewest[i] = 1 + least


cdef int _first_closing(const uint64_t* sets, uint64_t among, int j) noexcept:
    """The lowest position p of ``among`` whose ``sets[p]`` holds j, or -1."""
    cdef int p
    while among:
        p = royal_low(among)
        if sets[p] >> j & 1:
            return p
        among &= among - 1
    return -1


cdef int _two_survivors(const Analysis* a, int i, int j, int* out) noexcept:
    """royal_marriage._two_survivors: the lowest p of clear[i], then the lowest q of clear[p],
    with q..j clearable; 2 if found (in ``out``), else 0."""
    cdef uint64_t closers = 0, among = a.clear[i], found
    cdef int q, p
    # closers: the positions q < j clearable to j (only these can be the second survivor).
    for q in range(i + 1, j):
        closers |= (a.clear[q] >> j & 1) << q
    while among:
        p = royal_low(among)
        found = a.clear[p] & closers
        if found:
            out[0] = p
            out[1] = royal_low(found)
            return 2
        among &= among - 1
    return 0


cdef int _survivors(const Analysis* a, int removal, int i, int j, int* out) noexcept:
    """The removal's survivors(i, j) into ``out``, in the same order; returns how many."""
    cdef int p, count, first, second
    if removal == INNER_TWO:
        return _two_survivors(a, i, j, out)
    p = _first_closing(a.clear, a.clear[i], j)
    if p >= 0:
        out[0] = p
        return 1
    if removal == ONE_OR_TWO:
        count = _two_survivors(a, i, j, out)
        if count:
            return count
        first = _first_closing(a.runs, a.clear[i], j)
        if first < 0:
            return 0
        out[0] = first
        count = 1
        while not (a.clear[out[count - 1]] >> j & 1):
            p = _first_closing(a.runs, a.clear[out[count - 1]] & a.suit[first], j)
            if p < 0:
                break
            out[count] = p
            count += 1
        return count
    # LadPairs
    count = 0
    first = _first_closing(a.runs, a.clear[i], j)
    while first >= 0:
        second = _first_closing(a.after, a.clear[first] & a.match[first], j)
        if second < 0:
            break
        out[count] = first
        out[count + 1] = second
        count += 2
        if a.clear[second] >> j & 1:
            break
        first = _first_closing(a.runs, a.clear[second], j)
    return count


cdef int32_t _best_move(const Analysis* a, int size, int removal) noexcept:
    """royal_marriage.best_move as a move code, or -1 where no move is needed."""
    cdef int points[MAX_ROW + 2]
    cdef int i = 0, j, count, k, target
    cdef uint64_t m
    while i < size - 1:
        target = a.fewest[i] - 1
        m = a.clear[i]
        j = -1
        while m:
            j = royal_low(m)
            if a.fewest[j] == target:
                break
            m &= m - 1
        if j > i + 1:
            while True:
                points[0] = i
                count = _survivors(a, removal, i, j, points + 1)
                if count == 0:
                    # Never met (a closing pair always has its survivors; the Python function
                    # would raise): stop rather than loop on the same gap.
                    return -1
                points[count + 1] = j
                k = 0
                while k <= count and points[k + 1] == points[k] + 1:
                    k += 1
                if k > count:
                    return i << 6 | j
                i, j = points[k], points[k + 1]
        i = j
    return -1


cdef class OpenMarriageKernel(Kernel):
    """OpenMarriageRow under one removal rule, guided or not."""

    cdef int removal
    cdef bint same_suit
    cdef bint guided
    cdef Analysis work

    def __cinit__(self, int removal, bint all_same_suit, bint guided):
        if removal not in (ONE_OR_TWO, LAD_PAIRS, INNER_TWO):
            raise ValueError(f"no removal rule {removal}")
        self.removal = removal
        self.same_suit = removal == ONE_OR_TWO and all_same_suit
        self.guided = guided
        self.state_size = STATE_SIZE
        self.key_size = MAX_ROW
        # Room for every move: each discard is a pair of matching cards, at most 390 in a deck
        # (4 suits of 13: 312 pairs sharing suit, 13 ranks of 4: 78 sharing rank); at most two
        # a card for Royal Marriage without same-suit runs, one for Nizhni Novgorod. The search
        # keeps this much room a state on its path (Queen and her Lad had 1,352: 26 a card).
        if removal == INNER_TWO:
            self.max_moves = MAX_ROW
        elif removal == ONE_OR_TWO and not self.same_suit:
            self.max_moves = 2 * MAX_ROW
        else:
            self.max_moves = MATCHING_PAIRS

    cdef int discards(self, const uint8_t* row, int size, int32_t* out) noexcept:
        """OpenMarriageRow.discards: leftmost matching card first, then nearest partner first."""
        cdef int i, j, first, suit, count = 0
        cdef const uint8_t* matches
        for i in range(size - 2):
            matches = MATCH + row[i] * 52
            if self.removal == ONE_OR_TWO:
                if matches[row[i + 2]]:
                    out[count] = i << 6 | (i + 2)
                    count += 1
                if i + 3 < size and matches[row[i + 3]]:
                    out[count] = i << 6 | (i + 3)
                    count += 1
                if self.same_suit and i + 4 < size:
                    suit = row[i + 1] // 13
                    if row[i + 2] // 13 == suit:
                        j = i + 3
                        while j < size - 1 and row[j] // 13 == suit:
                            j += 1
                            if matches[row[j]]:
                                out[count] = i << 6 | j
                                count += 1
            elif self.removal == LAD_PAIRS:
                if matches[row[i + 2]]:
                    out[count] = i << 6 | (i + 2)
                    count += 1
                first = i + 1
                while first + 2 < size and MATCH[row[first] * 52 + row[first + 1]]:
                    if matches[row[first + 2]]:
                        out[count] = i << 6 | (first + 2)
                        count += 1
                    first += 2
            elif i + 3 < size and matches[row[i + 3]]:
                out[count] = i << 6 | (i + 3)
                count += 1
        return count

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        """The discards, a best move first when guided (OpenMarriageRow.moves)."""
        cdef int size = state[0], count, at
        cdef int32_t best
        count = self.discards(state + 2, size, out)
        if self.guided and count:
            _analyse(&self.work, state + 2, size, self.removal, self.same_suit)
            best = _best_move(&self.work, size, self.removal)
            if best >= 0:
                at = 0
                while at < count and out[at] != best:
                    at += 1
                if at < count:
                    while at > 0:
                        out[at] = out[at - 1]
                        at -= 1
                    out[0] = best
        return count

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int size = state[0], left = move >> 6, right = move & 63
        cdef int kept = size - (right - left - 1)
        child[0] = kept
        child[1] = state[1]
        memcpy(child + 2, state + 2, left + 1)
        memcpy(child + 3 + left, state + 2 + right, size - right)
        memset(child + 2 + kept, 0, STATE_SIZE - 2 - kept)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return state[0] == 2

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        memcpy(out, state + 2, state[0])
        return state[0]

    cdef int score(self, const uint8_t* state) noexcept:
        return state[0]

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return state[1]

    def probe_analysis(self, bytes row) -> tuple:
        """The analysis of ``row`` (card codes): its clear sets, fewest cards left and best move
        code (-1 if none is needed), to compare with royal_marriage.analyse and best_move."""
        cdef int size = len(row)
        if not 1 <= size <= MAX_ROW:
            raise ValueError(f"a row holds 1 to {MAX_ROW} cards, not {size}")
        _analyse(&self.work, <const uint8_t*>row, size, self.removal, self.same_suit)
        return (
            [self.work.clear[i] for i in range(size)],
            [self.work.fewest[i] for i in range(size)],
            _best_move(&self.work, size, self.removal),
        )


cdef class CompulsoryNizhniKernel(Kernel):
    """CompulsoryNizhni: dealt one card at a time, a discard compulsory whenever there is one."""

    def __cinit__(self):
        self.state_size = STATE_SIZE
        self.max_moves = MAX_ROW
        self.key_size = MAX_ROW + 1

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        """After the row; the last card, fixed by the rules, not counted (CompulsoryNizhni.stock)."""
        length[0] = max(0, state[1] - state[0] - 1)
        return 2 + state[0]

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        cdef int size = state[0], i, count = 0
        cdef const uint8_t* row = state + 2
        for i in range(size - 3):
            if MATCH[row[i] * 52 + row[i + 3]]:
                out[count] = i << 6 | (i + 3)
                count += 1
        if not count and state[1] > size:
            out[0] = DEAL_CODE
            count = 1
        return count

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int size = state[0], cards = state[1], left
        if move == DEAL_CODE:
            memcpy(child, state, STATE_SIZE)
            child[0] = size + 1
            return
        left = move >> 6
        child[0] = size - 2
        child[1] = cards - 2
        memcpy(child + 2, state + 2, left + 1)
        memcpy(child + 3 + left, state + 5 + left, cards - left - 3)
        memset(child + cards, 0, STATE_SIZE - cards)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return state[0] == 2 and state[1] == 2

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        """The row, then the number of cards in the stock (CompulsoryNizhni.key)."""
        cdef int size = state[0]
        memcpy(out, state + 2, size)
        out[size] = state[1] - size
        return size + 1

    cdef int score(self, const uint8_t* state) noexcept:
        cdef int size = state[0], i
        cdef const uint8_t* row = state + 2
        if state[1] > size:
            return KERNEL_NO_SCORE
        for i in range(size - 3):
            if MATCH[row[i] * 52 + row[i + 3]]:
                return KERNEL_NO_SCORE
        return size

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return 2
