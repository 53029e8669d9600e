# cython: language_level=3
"""Accordion compiled (the twin of rulesets/accordion.py): the open row and the row dealt one
card at a time.

Move codes: a pile move is ``2 * pile + 1`` for a leap and ``2 * pile`` for a slide (pile
0-based, as PileMove numbers it); DEAL_CODE deals the next card.

States:
- open row: bytes 0-7 the row's cards as a rank-major bit set (accordion._CARD_BIT: rank r's
  suits are the nibble at bit 4r), byte 8 the number of piles, from byte 16 their top cards (the
  key, digested where it lies), and from byte 80 the same cards as nibble bytes (suit + 1 above,
  rank + 1 below), which the move generator compares eight at a time. Every byte past a row's
  end is zero up to the next row (at least 8 of them), so that a move shifts a row a word at a
  time and the comparisons read zeros before the nibbles.
- dealt: byte 0 the number of piles, byte 1 the cards left (piles and stock), from byte 2 the
  piles' top cards, the separator "|" and the stock, next card first: the key as it lies (zeros
  past its end), and a deal only swaps the separator with the card after it.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memmove, memset

from solver._digest cimport patience_digest
from solver._protocol cimport KERNEL_NO_SCORE, Kernel

cdef extern from *:
    """
    static inline int patience_lowest_bit(unsigned long long bits) { return __builtin_ctzll(bits); }
    #define PATIENCE_LOW_NIBBLES 0x0F0F0F0F0F0F0F0FULL
    #define PATIENCE_CARRIES 0x1010101010101010ULL
    """
    int patience_lowest_bit(unsigned long long bits) nogil
    # the low nibble of every byte of a word, and the bit just above it
    const uint64_t LOW_NIBBLES "PATIENCE_LOW_NIBBLES"
    const uint64_t CARRIES "PATIENCE_CARRIES"

DEF DEAL_CODE = 127
DEF SEPARATOR = 0x7C  # b"|" between the row and the stock in a dealt key

#: MATCH[a * 52 + b]: cards a and b share suit or rank.
cdef uint8_t MATCH[52 * 52]
#: CHUNK_LINKS[16 bits of the card set]: for those four ranks, the suits present (bits 0-3) and
#: the suit pairs sharing a rank (bits 4-9), OR-ed over the ranks.
cdef uint16_t CHUNK_LINKS[65536]
#: GROUPS[links]: how many groups the present suits form when linked by those pairs.
cdef uint8_t GROUPS[1024]

cdef int PAIR_A[6]
cdef int PAIR_B[6]
PAIR_A[:] = [0, 0, 0, 1, 1, 2]
PAIR_B[:] = [1, 2, 3, 2, 3, 3]


cdef uint16_t _rank_links(int suits) noexcept:
    """One rank's suits present, and the suit pairs both present there."""
    cdef uint16_t links = suits
    cdef int pair
    for pair in range(6):
        if suits >> PAIR_A[pair] & suits >> PAIR_B[pair] & 1:
            links |= 1 << (4 + pair)
    return links


cdef int _groups(int links) noexcept:
    """How many groups the suits present (bits 0-3 of ``links``) form, joined by the suit
    pairs of bits 4-9 (only pairs of two present suits count, as in accordion._groups)."""
    cdef int label[4]
    cdef int suit, pair, low, high, count = 0
    for suit in range(4):
        label[suit] = suit
    for pair in range(6):
        if links >> (4 + pair) & 1 and links >> PAIR_A[pair] & links >> PAIR_B[pair] & 1:
            low, high = min(label[PAIR_A[pair]], label[PAIR_B[pair]]), max(label[PAIR_A[pair]], label[PAIR_B[pair]])
            for suit in range(4):
                if label[suit] == high:
                    label[suit] = low
    # each group is counted at its lowest suit, which is present (pairs join present suits only)
    for suit in range(4):
        if links >> suit & 1 and label[suit] == suit:
            count += 1
    return count


cdef void _build_tables() noexcept:
    cdef int a, b, bits, rank
    cdef uint16_t links
    for a in range(52):
        for b in range(52):
            MATCH[a * 52 + b] = a // 13 == b // 13 or a % 13 == b % 13
    for bits in range(65536):
        links = 0
        for rank in range(4):
            links |= _rank_links(bits >> (4 * rank) & 15)
        CHUNK_LINKS[bits] = links
    for links in range(1024):
        GROUPS[links] = _groups(links)


_build_tables()


cdef inline uint64_t _card_bit(uint8_t code) noexcept:
    return <uint64_t>1 << (4 * (code % 13) + code // 13)


DEF ROW = 16
DEF NIBBLES = 80
DEF OPEN_STATE = 144
DEF DEALT_STATE = 64


cdef inline uint64_t _word(const uint8_t* at) noexcept:
    cdef uint64_t word
    memcpy(&word, at, 8)
    return word


cdef inline int _matches(const uint8_t* nibbles, int size, int distance, int32_t* out, int count) noexcept:
    """Append the piles (ascending) whose top card shares suit or rank with the one ``distance``
    to its left, as move codes: eight piles a step, a byte XOR whose low or high nibble is zero
    marks a match. (Moves were 14% of the search's time as a loop over the row; this makes
    them a few word operations.) Reads the three zero bytes before the nibbles."""
    cdef int base, pile
    cdef uint64_t differ, found
    cdef int leap = distance == 3
    for base in range(0, size, 8):
        differ = _word(nibbles + base) ^ _word(nibbles + base - distance)
        found = (~((differ & LOW_NIBBLES) + LOW_NIBBLES) | ~((differ >> 4 & LOW_NIBBLES) + LOW_NIBBLES)) & CARRIES
        if size - base < 8:
            found &= (<uint64_t>1 << (8 * (size - base))) - 1
        while found:
            pile = base + (patience_lowest_bit(found) >> 3)
            out[count] = 2 * pile + leap
            count += 1
            found &= found - 1
    return count


cdef inline void _cover(const uint8_t* row, uint8_t* child, int size, int pile, int onto) noexcept:
    """``row`` (copied whole into ``child`` already) with pile ``pile`` moved onto pile ``onto``:
    the piles right of it shift left a word at a time, pulling in the zeros past the row's end
    (fixed-size moves: memcpy of a variable size was a call, a sixth of the search's time)."""
    child[onto] = row[pile]
    cdef int at
    for at in range(pile, size, 8):
        memcpy(child + at, row + at + 1, 8)


cdef class OpenAccordionKernel(Kernel):
    """OpenAccordion: the whole deck dealt, any legal move at any time."""

    def __cinit__(self):
        self.state_size = OPEN_STATE
        self.max_moves = 104
        self.key_size = 52

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        """Leaps, leftmost first, then slides, leftmost first (OpenAccordion.moves)."""
        cdef int size = state[8]
        return _matches(state + NIBBLES, size, 1, out, _matches(state + NIBBLES, size, 3, out, 0))

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int size = state[8]
        cdef int pile = move >> 1
        cdef int onto = pile - (3 if move & 1 else 1)
        cdef uint64_t cards
        memcpy(&cards, state, 8)
        cards ^= _card_bit(state[ROW + onto])
        memcpy(child, state, OPEN_STATE)
        memcpy(child, &cards, 8)
        child[8] = size - 1
        _cover(state + ROW, child + ROW, size, pile, onto)
        _cover(state + NIBBLES, child + NIBBLES, size, pile, onto)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return state[8] == 1

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        memcpy(out, state + ROW, state[8])
        return state[8]

    cdef uint64_t digest(self, const uint8_t* state, uint8_t* room) noexcept:
        return patience_digest(state + ROW, state[8])

    cdef int score(self, const uint8_t* state) noexcept:
        return state[8]

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        """The groups the row's cards form when cards sharing suit or rank are linked."""
        cdef uint64_t cards
        memcpy(&cards, state, 8)
        return GROUPS[
            CHUNK_LINKS[cards & 0xFFFF]
            | CHUNK_LINKS[cards >> 16 & 0xFFFF]
            | CHUNK_LINKS[cards >> 32 & 0xFFFF]
            | CHUNK_LINKS[cards >> 48]
        ]


cdef class DealtAccordionKernel(Kernel):
    """DealtAccordion: one card dealt at a time, under the historic options."""

    cdef bint compulsory
    cdef bint nearest
    cdef bint leap_only_without_slide
    cdef bint leftmost

    def __cinit__(self, bint compulsory, bint nearest, bint leap_only_without_slide, bint leftmost):
        self.state_size = DEALT_STATE
        self.max_moves = 105
        self.key_size = 53
        self.compulsory = compulsory
        self.nearest = nearest
        self.leap_only_without_slide = leap_only_without_slide
        self.leftmost = leftmost

    cdef int pile_moves(self, const uint8_t* state, int32_t* out) noexcept:
        """The pile moves the options allow (DealtAccordion.pile_moves)."""
        cdef int size = state[0], pile, count = 0
        cdef const uint8_t* row = state + 2
        cdef bint slide, leap, leaps = True
        if self.leap_only_without_slide:
            for pile in range(1, size):
                if MATCH[row[pile] * 52 + row[pile - 1]]:
                    leaps = False
                    break
        for pile in range(1, size):
            slide = MATCH[row[pile] * 52 + row[pile - 1]]
            leap = leaps and pile >= 3 and MATCH[row[pile] * 52 + row[pile - 3]]
            if slide:
                out[count] = 2 * pile
                count += 1
            if leap and not (slide and self.nearest):
                out[count] = 2 * pile + 1
                count += 1
            if count and self.leftmost:
                return 1
        return count

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        """After the piles and the key's separator (DealtAccordion.encode)."""
        length[0] = state[1] - state[0]
        return 3 + state[0]

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        cdef int count = self.pile_moves(state, out)
        if state[1] > state[0] and not (count and self.compulsory):
            out[count] = DEAL_CODE
            count += 1
        return count

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int size = state[0], cards = state[1]
        memcpy(child, state, DEALT_STATE)
        if move == DEAL_CODE:
            child[0] = size + 1
            child[2 + size] = state[3 + size]
            child[3 + size] = SEPARATOR
            return
        cdef int pile = move >> 1
        child[0] = size - 1
        child[1] = cards - 1
        # the rest of the key (piles, separator, stock) shifts left over the moving pile, a word
        # at a time, pulling in the zeros past its end
        _cover(state + 2, child + 2, cards + 1, pile, pile - (3 if move & 1 else 1))

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return state[0] == 1 and state[1] == 1

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        """The row, b"|", the stock (DealtAccordion.key), as the state holds them."""
        memcpy(out, state + 2, state[1] + 1)
        return state[1] + 1

    cdef uint64_t digest(self, const uint8_t* state, uint8_t* room) noexcept:
        return patience_digest(state + 2, state[1] + 1)

    cdef int score(self, const uint8_t* state) noexcept:
        cdef int32_t found[105]
        if state[1] > state[0] or (self.compulsory and self.pile_moves(state, found)):
            return KERNEL_NO_SCORE
        return state[0]

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return 1
