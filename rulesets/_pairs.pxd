# The C twin of rulesets/pairs.py, shared by the Baroness and Thirteens kernels (each module that
# cimports it gets its own static copy; there is no _pairs module to import at run time): card
# facts by code, and the reductions' arithmetic on the set of cards left (a 64-bit mask, bit
# ``code`` for each card, as the Python states keep it).

from libc.stdint cimport uint8_t, uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    /* PAIRS_RANK[code]: the card's rank, 1 (Ace) .. 13 (King); codes are suit-major. */
    static const uint8_t PAIRS_RANK[52] = {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

    /* Bits set in a 64-bit word: without the popcount instruction (the portable build cannot
       assume it) __builtin_popcountll is a call into libgcc, so the arithmetic is spelt out. */
    static inline int pairs_popcount(uint64_t bits) {
    #if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
        return __builtin_popcountll(bits);
    #else
        bits = bits - (bits >> 1 & 0x5555555555555555ULL);
        bits = (bits & 0x3333333333333333ULL) + (bits >> 2 & 0x3333333333333333ULL);
        bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((bits * 0x0101010101010101ULL) >> 56);
    #endif
    }

    /* PAIRS_SPREAD[bits]: seven bits spread one to a nibble (bit k to bit 4k). */
    #define PAIRS_SPREAD_ONE(x) ((uint64_t)((x) & 1) | (uint64_t)((x) & 2) << 3 | (uint64_t)((x) & 4) << 6 \\
        | (uint64_t)((x) & 8) << 9 | (uint64_t)((x) & 16) << 12 | (uint64_t)((x) & 32) << 15 | (uint64_t)((x) & 64) << 18)
    #define PAIRS_SPREAD_4(x) PAIRS_SPREAD_ONE(x), PAIRS_SPREAD_ONE(x + 1), PAIRS_SPREAD_ONE(x + 2), PAIRS_SPREAD_ONE(x + 3)
    #define PAIRS_SPREAD_16(x) PAIRS_SPREAD_4(x), PAIRS_SPREAD_4(x + 4), PAIRS_SPREAD_4(x + 8), PAIRS_SPREAD_4(x + 12)
    #define PAIRS_SPREAD_64(x) PAIRS_SPREAD_16(x), PAIRS_SPREAD_16(x + 16), PAIRS_SPREAD_16(x + 32), PAIRS_SPREAD_16(x + 48)
    static const uint64_t PAIRS_SPREAD[128] = {PAIRS_SPREAD_64(0), PAIRS_SPREAD_64(64)};

    /* The cards left of each rank, a nibble each (rank r at bit 4 (r - 1)): each suit's 13
       bits spread to nibbles by two table look-ups, the four suits added. */
    static inline uint64_t pairs_rank_counts(uint64_t left) {
        uint64_t counts = 0, suit;
        int s;
        for (s = 0; s < 4; s++) {
            suit = left >> (13 * s) & 0x1FFF;
            counts += PAIRS_SPREAD[suit & 127] + (PAIRS_SPREAD[suit >> 7] << 28);
        }
        return counts;
    }

    static inline int pairs_count_of(uint64_t counts, int rank) {
        return (int)(counts >> (4 * (rank - 1)) & 15);
    }

    /* pairs.unbalanced: for each pair of ranks r, 13 - r, the surplus of one over the other
       among the cards left (no discard ever removes it). From the counts per rank: a few
       look-ups instead of twelve bit counts. */
    static inline int pairs_unbalanced(uint64_t left) {
        uint64_t counts = pairs_rank_counts(left);
        int total = 0, rank, difference;
        for (rank = 1; rank <= 6; rank++) {
            difference = pairs_count_of(counts, rank) - pairs_count_of(counts, 13 - rank);
            total += difference < 0 ? -difference : difference;
        }
        return total;
    }

    /* The ranks (1..6) whose pair of ranks r, 13 - r is wholly available and equally many (the
       ``balanced`` reduction), as bits (bit r): ``counts`` are the available cards per rank. */
    static inline int pairs_balanced_ranks(const uint8_t* counts, uint64_t left) {
        uint64_t remaining = pairs_rank_counts(left);
        int found = 0, rank, n;
        for (rank = 1; rank <= 6; rank++) {
            n = counts[rank];
            if (n && n == counts[13 - rank] && pairs_count_of(remaining, rank) == n
                    && pairs_count_of(remaining, 13 - rank) == n)
                found |= 1 << rank;
        }
        return found;
    }
    """
    const uint8_t PAIRS_RANK[52]
    int pairs_popcount(uint64_t bits) nogil
    int pairs_unbalanced(uint64_t left) nogil
    int pairs_balanced_ranks(const uint8_t* counts, uint64_t left) nogil
    uint64_t pairs_rank_counts(uint64_t left) nogil
    int pairs_count_of(uint64_t counts, int rank) nogil
