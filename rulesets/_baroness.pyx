# cython: language_level=3
"""Baroness compiled (the twin of rulesets/baroness.py and rulesets/baroness_sealed.py), under
every option and every subset of its reductions (each a flag of the kernel).

States (STATE_SIZE bytes for every number of piles, written by Baroness.encode, zero wherever
nothing lies):
- bytes 0-7: the set of cards not yet discarded (bit ``code``), little-endian;
- byte 8: the cards in the stock; byte 9: the grace cards;
- bytes 10-17: each pile's number of cards (MOST_PILES slots, the game's first ``piles`` used);
- bytes 18-25: the grace cards, sorted by code;
- bytes 26-81: the piles, ``52 // piles + 1`` bytes each (bottom card first);
- bytes 82-133: the stock, right-aligned (its next card at 134 - count), so a deal only takes
  cards off its front; bytes 134-143 are padding. One size for every game lets a state be
  copied with a copy of constant length, which the compiler inlines.

Move codes: bits 0-5 a card, bits 6-11 a second card (or a ToSpace's target pile), bits 12-15
the kind (ALONE, PAIR, BENEATH, TO_SPACE, DEAL), bits 16-19 and 20-23 where the two cards lie
(a pile, or GRACE_PLACE), which apply uses and decode ignores.

The rules run in C written by hand (below): with the fixpoint's order, 0.82 times the
instructions of the first kernel, Cython's loops over arrays (callgrind, baroness-pysol deal 16).
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

from rulesets._pairs cimport PAIRS_RANK, pairs_popcount, pairs_unbalanced
from solver._protocol cimport KERNEL_NO_SCORE, Kernel

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    #define BK_MOST_PILES 8
    #define BK_STATE_SIZE 144
    #define BK_LEFT 0
    #define BK_STOCK_COUNT 8
    #define BK_GRACE_COUNT 9
    #define BK_LENGTHS 10
    #define BK_GRACE 18
    #define BK_PILES 26
    #define BK_STOCK_END 134
    #define BK_LAYERS 54
    #define BK_STACK 56

    #define BK_ALONE 0
    #define BK_PAIR 1
    #define BK_BENEATH 2
    #define BK_TO_SPACE 3
    #define BK_DEAL 4
    #define BK_GRACE_PLACE 15
    #define BK_KING 13
    #define BK_CODE(kind, a, b, place_a, place_b) \\
        ((int32_t)((a) | (b) << 6 | (kind) << 12 | (place_a) << 16 | (place_b) << 20))

    #if defined(__GNUC__) || defined(__clang__)
    #define BK_INLINE static inline __attribute__((always_inline))
    #define BK_HIGHEST(bits) (63 - __builtin_clzll(bits))
    #else
    #define BK_INLINE static inline
    static inline int BK_HIGHEST(uint64_t bits) { int at = 63; while (!(bits >> at & 1)) at--; return at; }
    #endif

    /* The game: its options, its reductions, and tables of its own. */
    typedef struct {
        int piles, height;
        int compulsory, spaces, beneath, kings, balanced, idle, sealed;
        uint8_t deals_left[53];  /* the full deals a stock of n cards makes (n // piles) */
        uint8_t table[256];      /* the byte a card is keyed as: its rank under suits, else its code */
    } bk_game;

    /* bk_rank_bit[code]: the card's rank as a bit; bk_partner_bit[code]: the rank bit it needs
       reachable elsewhere to be free (bit 0 for a King, always set there). Filled on loading. */
    static uint16_t bk_rank_bit[52];
    static uint16_t bk_partner_bit[52];

    static inline const uint8_t* bk_pile(const bk_game* g, const uint8_t* state, int index) {
        return state + BK_PILES + index * g->height;
    }

    static inline uint64_t bk_left(const uint8_t* state) {
        uint64_t left;
        memcpy(&left, state + BK_LEFT, 8);
        return left;
    }

    /* The available cards (pile tops left to right, then the grace cards) and where each lies. */
    static inline int bk_available(const bk_game* g, const uint8_t* state, uint8_t* cards, uint8_t* places) {
        int count = 0, index, size, grace = state[BK_GRACE_COUNT];
        for (index = 0; index < g->piles; index++) {
            size = state[BK_LENGTHS + index];
            if (size) {
                cards[count] = bk_pile(g, state, index)[size - 1];
                places[count++] = (uint8_t)index;
            }
        }
        for (index = 0; index < grace; index++) {
            cards[count] = state[BK_GRACE + index];
            places[count++] = BK_GRACE_PLACE;
        }
        return count;
    }

    /* Baroness._moves_to_spaces (none without an empty pile). */
    static int bk_space_moves(const bk_game* g, const uint8_t* state, int32_t* out) {
        uint8_t empty[BK_MOST_PILES];
        int empties = 0, index, size, count = 0, target, grace = state[BK_GRACE_COUNT];
        for (index = 0; index < g->piles; index++)
            if (!state[BK_LENGTHS + index])
                empty[empties++] = (uint8_t)index;
        if (!empties)
            return 0;
        if (g->idle && !state[BK_STOCK_COUNT]) {
            for (index = 0; index < g->piles; index++) {
                size = state[BK_LENGTHS + index];
                if (size > 1)
                    out[count++] = BK_CODE(BK_TO_SPACE, bk_pile(g, state, index)[size - 1], empty[0], index, 0);
            }
            return count;
        }
        for (index = 0; index < g->piles; index++) {
            size = state[BK_LENGTHS + index];
            if (size)
                for (target = 0; target < empties; target++)
                    out[count++] = BK_CODE(BK_TO_SPACE, bk_pile(g, state, index)[size - 1], empty[target], index, 0);
        }
        for (index = 0; index < grace; index++)
            for (target = 0; target < empties; target++)
                out[count++] = BK_CODE(BK_TO_SPACE, state[BK_GRACE + index], empty[target], BK_GRACE_PLACE, 0);
        return count;
    }

    /* Baroness.moves: the discards (Kings, pairs, beneath pairs), one alone where a reduction
       forces it, then the deal and the moves onto empty piles. */
    static int bk_moves(const bk_game* g, const uint8_t* state, int32_t* out) {
        uint8_t cards[16], places[16], counts[14];
        const uint8_t* pile;
        int size = bk_available(g, state, cards, places), count = 0, i, j, partner, index, height;
        int discards, balanced, low, high;
        for (i = 0; i < size; i++)
            if (PAIRS_RANK[cards[i]] == BK_KING) {
                out[count++] = BK_CODE(BK_ALONE, cards[i], 0, places[i], 0);
                if (g->kings)
                    return 1;
            }
        for (i = 0; i < size; i++) {
            partner = 13 - PAIRS_RANK[cards[i]];
            for (j = i + 1; j < size; j++)
                if (PAIRS_RANK[cards[j]] == partner)
                    out[count++] = BK_CODE(BK_PAIR, cards[i], cards[j], places[i], places[j]);
        }
        if (g->beneath)
            for (index = 0; index < g->piles; index++) {
                height = state[BK_LENGTHS + index];
                pile = bk_pile(g, state, index);
                if (height > 1 && PAIRS_RANK[pile[height - 1]] + PAIRS_RANK[pile[height - 2]] == 13)
                    out[count++] = BK_CODE(BK_BENEATH, pile[height - 1], pile[height - 2], index, index);
            }
        discards = count;
        if (discards && g->balanced) {
            memset(counts, 0, sizeof counts);
            for (i = 0; i < size; i++)
                counts[PAIRS_RANK[cards[i]]]++;
            balanced = pairs_balanced_ranks(counts, bk_left(state));
            if (balanced)
                for (i = 0; i < discards; i++) {
                    if ((out[i] >> 12 & 15) == BK_ALONE)
                        continue;
                    low = PAIRS_RANK[out[i] & 63];
                    high = PAIRS_RANK[out[i] >> 6 & 63];
                    if (balanced >> (low < high ? low : high) & 1) {
                        out[0] = out[i];
                        return 1;
                    }
                }
        }
        if (state[BK_STOCK_COUNT] && !(discards && g->compulsory))
            out[count++] = BK_DEAL << 12;
        if (g->spaces)
            count += bk_space_moves(g, state, out + count);
        return count;
    }

    /* Whether a discard is available (Baroness.discards is not empty). */
    static int bk_any_discard(const bk_game* g, const uint8_t* state) {
        uint8_t cards[16], places[16];
        const uint8_t* pile;
        int size = bk_available(g, state, cards, places), i, index, height, ranks = 0;
        for (i = 0; i < size; i++)
            ranks |= 1 << PAIRS_RANK[cards[i]];
        /* a King, or ranks r and 13 - r both available (bit r of ranks and of its mirror) */
        if (ranks >> BK_KING & 1)
            return 1;
        for (i = 1; i <= 6; i++)
            if (ranks >> i & ranks >> (13 - i) & 1)
                return 1;
        if (g->beneath)
            for (index = 0; index < g->piles; index++) {
                height = state[BK_LENGTHS + index];
                pile = bk_pile(g, state, index);
                if (height > 1 && PAIRS_RANK[pile[height - 1]] + PAIRS_RANK[pile[height - 2]] == 13)
                    return 1;
            }
        return 0;
    }

    /* ``card`` taken from where it lies: a grace card (kept sorted) or the top of pile ``place``. */
    static inline void bk_take(const bk_game* g, uint8_t* state, int card, int place) {
        int count, i, size;
        if (place == BK_GRACE_PLACE) {
            count = state[BK_GRACE_COUNT];
            for (i = 0; state[BK_GRACE + i] != card; i++) {}
            for (; i + 1 < count; i++)
                state[BK_GRACE + i] = state[BK_GRACE + i + 1];
            state[BK_GRACE + count - 1] = 0;
            state[BK_GRACE_COUNT] = (uint8_t)(count - 1);
        } else {
            size = state[BK_LENGTHS + place] - 1;
            state[BK_PILES + place * g->height + size] = 0;
            state[BK_LENGTHS + place] = (uint8_t)size;
        }
    }

    /* The stock's ``count`` cards (all it holds) laid out as grace cards, kept sorted. */
    static void bk_to_grace(uint8_t* state, int count) {
        int at = BK_STOCK_END - count, grace = state[BK_GRACE_COUNT], i, j;
        uint8_t card;
        for (i = 0; i < count; i++) {
            card = state[at + i];
            state[at + i] = 0;
            for (j = grace; j > 0 && state[BK_GRACE + j - 1] > card; j--)
                state[BK_GRACE + j] = state[BK_GRACE + j - 1];
            state[BK_GRACE + j] = card;
            grace++;
        }
        state[BK_GRACE_COUNT] = (uint8_t)grace;
        state[BK_STOCK_COUNT] = 0;
    }

    /* Baroness._deal: a card onto each pile, left to right; fewer than P left become grace. */
    static void bk_deal(const bk_game* g, uint8_t* state) {
        int count = state[BK_STOCK_COUNT], at = BK_STOCK_END - count, index, size;
        if (count < g->piles) {
            bk_to_grace(state, count);
            return;
        }
        for (index = 0; index < g->piles; index++) {
            size = state[BK_LENGTHS + index];
            state[BK_PILES + index * g->height + size] = state[at + index];
            state[BK_LENGTHS + index] = (uint8_t)(size + 1);
            state[at + index] = 0;
        }
        count -= g->piles;
        state[BK_STOCK_COUNT] = (uint8_t)count;
        if (0 < count && count < g->piles)
            bk_to_grace(state, count);
    }

    static void bk_apply(const bk_game* g, const uint8_t* state, int32_t move, uint8_t* child) {
        int kind = move >> 12 & 15, a = move & 63, b = move >> 6 & 63, place = move >> 16 & 15, size;
        uint64_t left;
        memcpy(child, state, BK_STATE_SIZE);
        if (kind == BK_DEAL) {
            bk_deal(g, child);
            return;
        }
        if (kind == BK_TO_SPACE) {
            bk_take(g, child, a, place);
            child[BK_PILES + b * g->height] = (uint8_t)a;
            child[BK_LENGTHS + b] = 1;
            return;
        }
        left = bk_left(child) & ~((uint64_t)1 << a);
        if (kind == BK_BENEATH) {
            size = child[BK_LENGTHS + place] - 2;
            child[BK_PILES + place * g->height + size] = 0;
            child[BK_PILES + place * g->height + size + 1] = 0;
            child[BK_LENGTHS + place] = (uint8_t)size;
            left &= ~((uint64_t)1 << b);
        } else {
            bk_take(g, child, a, place);
            if (kind == BK_PAIR) {
                bk_take(g, child, b, move >> 20 & 15);
                left &= ~((uint64_t)1 << b);
            }
        }
        memcpy(child + BK_LEFT, &left, 8);
    }

    /* -- the sealed floors (baroness_sealed.floors) ------------------------------------------ */

    /* One layer of the fixpoint brought to stability: per column ``row`` the deepest card
       reachable and ``ranks`` the ranks reachable there, ``loose`` the layer's grace ranks
       (with bit 0). A column's blocking card (the one at its row) is freed if it is free
       already or its partner rank is reachable in another column or loose; the column then
       reaches down past every free card. The columns are looked at in turn until a whole
       round frees nothing. The ranks reachable in the other columns are kept as those
       reachable in some column (``once``) and in two or more (``twice``): a column's others
       are ``twice`` and those of ``once`` it lacks, two operations to update when a column
       gains ranks. Cards freed go into ``*free_set``; 1 when a column empties (the layout is
       not sealed). */
    BK_INLINE int bk_scan(int count, const uint8_t* const* column, uint8_t* row, uint16_t* ranks, uint16_t loose,
                          uint64_t* free_set) {
        uint64_t free = *free_set;
        uint16_t once = 0, twice = 0, others, reach, gained;
        const uint8_t* cards;
        int i, depth, quiet = 0;
        unsigned code;
        for (i = 0; i < count; i++) {
            twice |= once & ranks[i];
            once |= ranks[i];
        }
        for (i = 0; quiet < count; i = i + 1 == count ? 0 : i + 1) {
            quiet++;
            cards = column[i];
            depth = row[i];
            code = cards[depth];
            others = loose | twice | (once & ~ranks[i]);
            if (!((free >> code & 1) || (bk_partner_bit[code] & others)))
                continue;
            reach = ranks[i];
            do {
                free |= (uint64_t)1 << code;
                if (--depth < 0) {
                    *free_set = free;
                    return 1;
                }
                code = cards[depth];
                reach |= bk_rank_bit[code];
            } while ((free >> code & 1) || (bk_partner_bit[code] & others));
            gained = reach & ~ranks[i];
            twice |= once & gained;
            once |= gained;
            ranks[i] = reach;
            row[i] = (uint8_t)depth;
            quiet = 1;
        }
        *free_set = free;
        return 0;
    }

    /* baroness_sealed.floors: each pile's floor into ``depths`` and 1, or 0 when a pile is
       empty or may be emptied. A column is a pile with the stock cards still to be dealt onto
       it, a layer the layout after 0, 1, ... of the deals to come. The least fixpoint is the
       same whatever order it is reached in, so it is reached layer by layer: layer 0 alone
       first (it needs no stock cards, and a quarter of the layouts show there that a pile may
       empty), then the others from the last (whose grace cards and deeper columns free the
       most; 0.94 times the time of the first to last), each scanned again only when the card
       blocking one of its columns is freed elsewhere: the layers are tied only through the
       cards freed. (The Python code scans every layer in every pass.) */
    BK_INLINE int bk_floors_of(const uint8_t* state, const int count, int height, int deals, uint8_t* depths) {
        uint8_t stacks[BK_MOST_PILES][BK_STACK];
        uint8_t rows[BK_LAYERS][BK_MOST_PILES];
        uint16_t ranks[BK_LAYERS][BK_MOST_PILES];
        uint16_t loose[BK_LAYERS];
        uint64_t blocking[BK_LAYERS];
        const uint8_t* column[BK_MOST_PILES];
        uint64_t free = 0, freed, dirty, block;
        int stock = state[BK_STOCK_COUNT], grace = state[BK_GRACE_COUNT], layers, layer, i, k, size;
        const uint8_t* next_card = state + BK_STOCK_END - stock;
        for (i = 0; i < count; i++)
            if (!state[BK_LENGTHS + i])
                return 0;
        if (grace)
            deals = 0;  /* grace cards come only once the stock is empty */
        layers = deals + 1;
        for (layer = 0; layer < layers; layer++)
            loose[layer] = 1;
        for (i = 0; i < grace; i++)
            loose[0] |= bk_rank_bit[state[BK_GRACE + i]];
        if (!grace)
            for (i = deals * count; i < stock; i++)
                loose[deals] |= bk_rank_bit[next_card[i]];
        for (i = 0; i < count; i++) {
            column[i] = state + BK_PILES + i * height;
            size = state[BK_LENGTHS + i];
            rows[0][i] = (uint8_t)(size - 1);
            ranks[0][i] = bk_rank_bit[column[i][size - 1]];
        }
        if (bk_scan(count, column, rows[0], ranks[0], loose[0], &free))
            return 0;
        if (layers > 1) {
            for (i = 0; i < count; i++) {
                size = state[BK_LENGTHS + i];
                for (k = 0; k < size; k++)
                    stacks[i][k] = column[i][k];
                for (k = 0; k < deals; k++)
                    stacks[i][size + k] = next_card[k * count + i];
                column[i] = stacks[i];
            }
            for (layer = 0; layer < layers; layer++) {
                block = 0;
                for (i = 0; i < count; i++) {
                    if (layer) {
                        rows[layer][i] = (uint8_t)(state[BK_LENGTHS + i] - 1 + layer);
                        ranks[layer][i] = bk_rank_bit[stacks[i][rows[layer][i]]];
                    }
                    block |= (uint64_t)1 << stacks[i][rows[layer][i]];
                }
                blocking[layer] = block;
            }
            dirty = (((uint64_t)1 << layers) - 1) & ~(uint64_t)1;
            while (dirty) {
                layer = BK_HIGHEST(dirty);
                dirty &= ~((uint64_t)1 << layer);
                freed = free;
                if (bk_scan(count, column, rows[layer], ranks[layer], loose[layer], &free))
                    return 0;
                block = 0;
                for (i = 0; i < count; i++)
                    block |= (uint64_t)1 << stacks[i][rows[layer][i]];
                blocking[layer] = block;
                freed ^= free;
                if (freed)
                    for (k = 0; k < layers; k++)
                        if (blocking[k] & freed)
                            dirty |= (uint64_t)1 << k;
            }
        }
        memcpy(depths, rows[0], (size_t)count);
        return 1;
    }

    /* bk_floors_of compiled apart for 5, 6 and 7 piles (the game's choices), where the loops
       over the columns unroll (0.97 times the time of one version for every count). */
    static int bk_floors(const bk_game* g, const uint8_t* state, uint8_t* depths) {
        int deals = g->deals_left[state[BK_STOCK_COUNT]];
        switch (g->piles) {
        case 5: return bk_floors_of(state, 5, g->height, deals, depths);
        case 6: return bk_floors_of(state, 6, g->height, deals, depths);
        case 7: return bk_floors_of(state, 7, g->height, deals, depths);
        default: return bk_floors_of(state, g->piles, g->height, deals, depths);
        }
    }

    /* -- keys (Baroness.key) ----------------------------------------------------------------- */

    /* The bytes of ``pile[from:to]`` through ``table`` into ``out``; returns the end. */
    static inline uint8_t* bk_write(uint8_t* out, const uint8_t* pile, int from, int to, const uint8_t* table) {
        for (; from < to; from++)
            *out++ = table[pile[from]];
        return out;
    }

    /* Python's order of two byte strings: bytewise, a prefix first (inline: most piles differ
       in their first bytes, where a call to memcmp cost more than the comparison). */
    static inline int bk_compare(const uint8_t* a, int a_size, const uint8_t* b, int b_size) {
        int common = a_size < b_size ? a_size : b_size, i;
        for (i = 0; i < common; i++)
            if (a[i] != b[i])
                return (int)a[i] - (int)b[i];
        return a_size - b_size;
    }

    /* The piles (those of at least ``least`` cards; with ``depths``, each one's cards above
       its floor) through the key's table, sorted as Python sorts bytes, joined by 0xFF into
       ``out``; returns the end. */
    static uint8_t* bk_sorted_piles(const bk_game* g, const uint8_t* state, const uint8_t* depths, int least,
                                    uint8_t* out) {
        uint8_t written[BK_MOST_PILES][BK_STACK];
        int sizes[BK_MOST_PILES], order[BK_MOST_PILES];
        int n = 0, i, j, size, bottom;
        for (i = 0; i < g->piles; i++) {
            size = state[BK_LENGTHS + i];
            if (size < least)
                continue;
            bottom = depths ? depths[i] + 1 : 0;
            bk_write(written[n], bk_pile(g, state, i), bottom, size, g->table);
            sizes[n] = size - bottom;
            for (j = n - 1; j >= 0 && bk_compare(written[order[j]], sizes[order[j]], written[n], sizes[n]) > 0; j--)
                order[j + 1] = order[j];
            order[j + 1] = n++;
        }
        for (i = 0; i < n; i++) {
            if (i)
                *out++ = 0xFF;
            for (j = 0; j < sizes[order[i]]; j++)
                *out++ = written[order[i]][j];
        }
        return out;
    }

    /* ``count`` cards through the key's table, sorted, into ``out``; returns the end. */
    static inline uint8_t* bk_sorted_cards(const bk_game* g, const uint8_t* cards, int count, uint8_t* out) {
        int i, j;
        uint8_t card;
        for (i = 0; i < count; i++) {
            card = g->table[cards[i]];
            for (j = i; j > 0 && out[j - 1] > card; j--)
                out[j] = out[j - 1];
            out[j] = card;
        }
        return out + count;
    }

    /* Baroness._sealed_key: the cards above each pile's floor (sorted once the stock is
       empty), 0xFC, the grace cards, 0xFC, the cards at or below the floors and the stock's
       length; 0 where the layout is not sealed. */
    static int bk_sealed_key(const bk_game* g, const uint8_t* state, uint8_t* out) {
        uint8_t depths[BK_MOST_PILES];
        uint8_t* at = out;
        int index, buried = g->piles;
        if (!bk_floors(g, state, depths))
            return 0;
        for (index = 0; index < g->piles; index++)
            buried += depths[index];
        if (state[BK_STOCK_COUNT])
            for (index = 0; index < g->piles; index++) {
                if (index)
                    *at++ = 0xFF;
                at = bk_write(at, bk_pile(g, state, index), depths[index] + 1, state[BK_LENGTHS + index], g->table);
            }
        else
            at = bk_sorted_piles(g, state, depths, 0, at);
        *at++ = 0xFC;
        at = bk_sorted_cards(g, state + BK_GRACE, state[BK_GRACE_COUNT], at);
        *at++ = 0xFC;
        *at++ = (uint8_t)buried;
        *at++ = state[BK_STOCK_COUNT];
        return (int)(at - out);
    }

    /* Baroness.key, byte for byte: with stock, the piles in place, 0xFE and the stock's
       length; without, the piles sorted (without spaces only those of two cards or more, the
       lone cards joining the grace cards), 0xFD and the grace cards sorted. */
    static int bk_key(const bk_game* g, const uint8_t* state, uint8_t* out) {
        uint8_t loose[16];
        uint8_t* at = out;
        int index, size, singles = state[BK_GRACE_COUNT];
        if (g->sealed) {
            size = bk_sealed_key(g, state, out);
            if (size)
                return size;
        }
        if (state[BK_STOCK_COUNT]) {
            for (index = 0; index < g->piles; index++) {
                if (index)
                    *at++ = 0xFF;
                at = bk_write(at, bk_pile(g, state, index), 0, state[BK_LENGTHS + index], g->table);
            }
            *at++ = 0xFE;
            *at++ = state[BK_STOCK_COUNT];
            return (int)(at - out);
        }
        memcpy(loose, state + BK_GRACE, (size_t)singles);
        if (g->spaces)
            at = bk_sorted_piles(g, state, NULL, 0, at);
        else {
            for (index = 0; index < g->piles; index++)
                if (state[BK_LENGTHS + index] == 1)
                    loose[singles++] = bk_pile(g, state, index)[0];
            at = bk_sorted_piles(g, state, NULL, 2, at);
        }
        *at++ = 0xFD;
        at = bk_sorted_cards(g, loose, singles, at);
        return (int)(at - out);
    }
    """
    enum:
        BK_MOST_PILES
        BK_STATE_SIZE
        BK_STOCK_COUNT
        BK_STOCK_END
    ctypedef struct bk_game:
        int piles, height
        int compulsory, spaces, beneath, kings, balanced, idle, sealed
        uint8_t deals_left[53]
        uint8_t table[256]
    uint16_t bk_rank_bit[52]
    uint16_t bk_partner_bit[52]
    int bk_moves(const bk_game* game, const uint8_t* state, int32_t* out) nogil
    void bk_apply(const bk_game* game, const uint8_t* state, int32_t move, uint8_t* child) nogil
    int bk_any_discard(const bk_game* game, const uint8_t* state) nogil
    uint64_t bk_left(const uint8_t* state) nogil
    int bk_floors(const bk_game* game, const uint8_t* state, uint8_t* depths) nogil
    int bk_key(const bk_game* game, const uint8_t* state, uint8_t* out) nogil


cdef void _build_tables() noexcept:
    cdef int code, rank
    for code in range(52):
        rank = PAIRS_RANK[code]
        bk_rank_bit[code] = 1 << rank
        bk_partner_bit[code] = 1 if rank == 13 else 1 << (13 - rank)


_build_tables()

#: The most piles a kernel holds (the ruleset falls back to Python beyond) and its state's size.
MAX_PILES = BK_MOST_PILES
STATE_SIZE = BK_STATE_SIZE


cdef class BaronessKernel(Kernel):
    """Baroness with its options and reductions fixed (rulesets.baroness.Baroness)."""

    cdef bk_game game

    def __cinit__(
        self, int piles, bint compulsory, bint spaces, bint beneath, bint kings, bint balanced, bint idle,
        bint sealed, bint suits,
    ):
        if not 1 <= piles <= BK_MOST_PILES:
            raise ValueError(f"the Baroness kernel takes 1 to {BK_MOST_PILES} piles, not {piles}")
        self.state_size = BK_STATE_SIZE
        # At most 15 cards are available (8 piles, 7 grace cards): at most 4 Kings, 28 pairs (4
        # cards of each rank of two pairs of ranks but one), 8 beneath pairs, the deal, and 56
        # moves onto empty piles (each of the cards left in play onto each of up to 7 empty
        # piles): 97 at most.
        self.max_moves = 128
        self.key_size = 128
        self.game.piles = piles
        # A pile never holds more cards than the deals so far (a card moves only onto an empty
        # pile), so never more than 52 // piles: piles * height is at most 56 bytes.
        self.game.height = 52 // piles + 1
        self.game.compulsory = compulsory
        self.game.spaces = spaces
        self.game.beneath = beneath
        self.game.kings = kings
        self.game.balanced = balanced
        self.game.idle = idle
        self.game.sealed = sealed and spaces and not beneath
        cdef int byte
        for byte in range(53):
            self.game.deals_left[byte] = byte // piles
        for byte in range(256):
            self.game.table[byte] = PAIRS_RANK[byte] if suits and byte < 52 else byte

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        """Right-aligned to BK_STOCK_END (Baroness.encode)."""
        length[0] = state[BK_STOCK_COUNT]
        return BK_STOCK_END - length[0]

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        return bk_moves(&self.game, state, out)

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        bk_apply(&self.game, state, move, child)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        return bk_left(state) == 0

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        return bk_key(&self.game, state, out)

    cdef int score(self, const uint8_t* state) noexcept:
        cdef uint64_t left = bk_left(state)
        if state[8] or (left and bk_any_discard(&self.game, state)):
            return KERNEL_NO_SCORE
        return pairs_popcount(left)

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        return pairs_unbalanced(bk_left(state))

    def probe_floors(self, bytes state):
        """The floors from Python (for the tests): the list of floors, or None."""
        cdef uint8_t depths[8]
        if not bk_floors(&self.game, self._checked(state), depths):
            return None
        return [depths[i] for i in range(self.game.piles)]
