# The C twin of rulesets/pairs.py, shared by the Baroness and Thirteens kernels (each module that
# cimports it gets its own static copy; there is no _pairs module to import at run time): card
# facts by code, the discard's tables and the reductions' arithmetic on the set of cards left
# (a 64-bit mask, bit ``code`` for each card, as the Python states keep it).

from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    /* PAIRS_RANK[code]: the card's rank, 1 (Ace) .. 13 (King); codes are suit-major. */
    static const uint8_t PAIRS_RANK[52] = {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    /* PAIRS_RANK_CARDS[r]: the set of the four cards of rank r (0 for r = 0). */
    #define PAIRS_SUITED(r) ((1ULL << ((r) - 1)) | (1ULL << ((r) + 12)) | (1ULL << ((r) + 25)) | (1ULL << ((r) + 38)))
    static const uint64_t PAIRS_RANK_CARDS[14] = {
        0, PAIRS_SUITED(1), PAIRS_SUITED(2), PAIRS_SUITED(3), PAIRS_SUITED(4), PAIRS_SUITED(5),
        PAIRS_SUITED(6), PAIRS_SUITED(7), PAIRS_SUITED(8), PAIRS_SUITED(9), PAIRS_SUITED(10),
        PAIRS_SUITED(11), PAIRS_SUITED(12), PAIRS_SUITED(13)};
    static inline int pairs_popcount(uint64_t bits) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_popcountll(bits);
    #else
        int count = 0;
        while (bits) { bits &= bits - 1; count++; }
        return count;
    #endif
    }
    /* pairs.unbalanced: for each pair of ranks r, 13 - r, the surplus of one over the other
       among the cards left (no discard ever removes it). */
    static inline int pairs_unbalanced(uint64_t left) {
        int total = 0, rank, difference;
        for (rank = 1; rank <= 6; rank++) {
            difference = pairs_popcount(left & PAIRS_RANK_CARDS[rank]) - pairs_popcount(left & PAIRS_RANK_CARDS[13 - rank]);
            total += difference < 0 ? -difference : difference;
        }
        return total;
    }
    /* The ranks (1..6) whose pair of ranks r, 13 - r is wholly available and equally many (the
       ``balanced`` reduction), as bits (bit r): ``counts`` are the available cards per rank. */
    static inline int pairs_balanced_ranks(const uint8_t* counts, uint64_t left) {
        int found = 0, rank, n;
        for (rank = 1; rank <= 6; rank++) {
            n = counts[rank];
            if (n && n == counts[13 - rank] && pairs_popcount(left & PAIRS_RANK_CARDS[rank]) == n
                    && pairs_popcount(left & PAIRS_RANK_CARDS[13 - rank]) == n)
                found |= 1 << rank;
        }
        return found;
    }
    """
    const uint8_t PAIRS_RANK[52]
    const uint64_t PAIRS_RANK_CARDS[14]
    int pairs_popcount(uint64_t bits) nogil
    int pairs_unbalanced(uint64_t left) nogil
    int pairs_balanced_ranks(const uint8_t* counts, uint64_t left) nogil
