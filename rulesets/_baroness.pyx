# cython: language_level=3
"""Baroness compiled (the twin of rulesets/baroness.py and rulesets/baroness_sealed.py), under
every option and every subset of its reductions (each a flag of the kernel).

States (``state_size`` bytes, written by Baroness.encode, zero wherever nothing lies):
- bytes 0-7: the set of cards not yet discarded (bit ``code``), little-endian;
- byte 8: the cards in the stock; byte 9: the grace cards;
- bytes 10-17: each pile's number of cards (MOST_PILES slots, the game's first ``piles`` used);
- bytes 18-25: the grace cards, sorted by code;
- from byte 26: the piles, ``height`` bytes each (bottom card first);
- the last 52 bytes: the stock, right-aligned (its next card at 52 - count), so a deal only
  takes cards off its front.

Move codes: bits 0-5 a card, bits 6-11 a second card (or a ToSpace's target pile), bits 12-15
the kind (ALONE, PAIR, BENEATH, TO_SPACE, DEAL), bits 16-19 and 20-23 where the two cards lie
(a pile, or GRACE_PLACE), which apply uses and decode ignores.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from rulesets._pairs cimport PAIRS_RANK, pairs_balanced_ranks, pairs_popcount, pairs_unbalanced
from solver._protocol cimport KERNEL_NO_SCORE, Kernel

DEF MOST_PILES = 8
DEF STOCK_ROOM = 52
DEF MOST_LAYERS = 54
DEF MOST_STACK = 56

DEF LEFT = 0
DEF STOCK_COUNT = 8
DEF GRACE_COUNT = 9
DEF LENGTHS = 10
DEF GRACE = 18
DEF PILES = 26

DEF ALONE = 0
DEF PAIR = 1
DEF BENEATH = 2
DEF TO_SPACE = 3
DEF DEAL = 4
DEF GRACE_PLACE = 15
DEF KING = 13

# Key bytes (Baroness.key): card codes and ranks are below 52.
DEF SEPARATOR = 0xFF
DEF WITH_STOCK = 0xFE
DEF WITHOUT_STOCK = 0xFD
DEF SEALED = 0xFC

#: PARTNER_BIT[code]: the rank bit the card needs reachable elsewhere to be free (bit 0 for a
#: King, always set there); RANK_BIT[code]: its own rank as a bit (baroness_sealed).
cdef uint16_t PARTNER_BIT[52]
cdef uint16_t RANK_BIT[52]


cdef void _build_tables() noexcept:
    cdef int code, rank
    for code in range(52):
        rank = PAIRS_RANK[code]
        RANK_BIT[code] = 1 << rank
        PARTNER_BIT[code] = 1 if rank == KING else 1 << (13 - rank)


_build_tables()


#: The most piles a kernel holds (the ruleset falls back to Python beyond).
MAX_PILES = MOST_PILES

cdef inline int32_t _code(int kind, int a, int b, int place_a, int place_b) noexcept:
    return a | b << 6 | kind << 12 | place_a << 16 | place_b << 20


cdef inline int _compare(const uint8_t* a, int a_size, const uint8_t* b, int b_size) noexcept:
    """Python's order of two byte strings: bytewise, a prefix first."""
    cdef int common = a_size if a_size < b_size else b_size
    cdef int order = memcmp(a, b, common) if common else 0
    return order if order else a_size - b_size


cdef inline void _sort_bytes(uint8_t* cards, int count) noexcept:
    """Sort a few bytes in place (insertion sort: grace cards, singles)."""
    cdef int i, j
    cdef uint8_t card
    for i in range(1, count):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


cdef class BaronessKernel(Kernel):
    """Baroness with its options and reductions fixed (rulesets.baroness.Baroness)."""

    cdef int piles
    cdef int height
    cdef int stock_at
    cdef bint compulsory
    cdef bint spaces
    cdef bint beneath
    cdef bint reduce_kings
    cdef bint reduce_balanced
    cdef bint reduce_idle
    cdef bint reduce_sealed
    # The byte each card goes through in a key: its rank under ``suits``, else its code.
    cdef uint8_t cards_table[256]

    def __cinit__(
        self, int piles, bint compulsory, bint spaces, bint beneath, bint kings, bint balanced, bint idle,
        bint sealed, bint suits,
    ):
        if not 1 <= piles <= MOST_PILES:
            raise ValueError(f"the Baroness kernel takes 1 to {MOST_PILES} piles, not {piles}")
        self.piles = piles
        # A pile never holds more cards than the deals so far (a card moves only onto an empty
        # pile), nor more than 52 // piles of them.
        self.height = 52 // piles + 1
        self.stock_at = PILES + piles * self.height
        self.state_size = self.stock_at + STOCK_ROOM
        # at most 15 places (piles and grace cards): Kings, pairs, beneath pairs, the deal, and
        # each place's card onto each empty pile
        self.max_moves = 256
        self.key_size = 128
        self.compulsory = compulsory
        self.spaces = spaces
        self.beneath = beneath
        self.reduce_kings = kings
        self.reduce_balanced = balanced
        self.reduce_idle = idle
        self.reduce_sealed = sealed and spaces and not beneath
        cdef int byte
        for byte in range(256):
            self.cards_table[byte] = PAIRS_RANK[byte] if suits and byte < 52 else byte

    @property
    def layout(self) -> tuple:
        """(height of a pile's slot, offset of the stock's 52 bytes), for Baroness.encode."""
        return self.height, self.stock_at

    cdef inline const uint8_t* pile(self, const uint8_t* state, int index) noexcept:
        return state + PILES + index * self.height

    # -- the rules -----------------------------------------------------------------------------

    cdef int available(self, const uint8_t* state, uint8_t* cards, uint8_t* places) noexcept:
        """The available cards (pile tops left to right, then the grace cards) and where each
        lies; returns how many."""
        cdef int count = 0, index, size
        for index in range(self.piles):
            size = state[LENGTHS + index]
            if size:
                cards[count] = self.pile(state, index)[size - 1]
                places[count] = index
                count += 1
        for index in range(state[GRACE_COUNT]):
            cards[count] = state[GRACE + index]
            places[count] = GRACE_PLACE
            count += 1
        return count

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        """Baroness.moves: the discards (Kings, pairs, beneath pairs), the forced ones first
        where a reduction forces one, the deal, the moves onto empty piles."""
        cdef uint8_t cards[16]
        cdef uint8_t places[16]
        cdef uint8_t counts[14]
        cdef int size = self.available(state, cards, places)
        cdef int count = 0, i, j, rank, index, low, high, discards, balanced, size_
        cdef const uint8_t* pile
        cdef uint64_t left
        for i in range(size):
            if PAIRS_RANK[cards[i]] == KING:
                out[count] = _code(ALONE, cards[i], 0, places[i], 0)
                count += 1
                if self.reduce_kings:
                    return 1
        for i in range(size):
            rank = 13 - PAIRS_RANK[cards[i]]
            for j in range(i + 1, size):
                if PAIRS_RANK[cards[j]] == rank:
                    out[count] = _code(PAIR, cards[i], cards[j], places[i], places[j])
                    count += 1
        if self.beneath:
            for index in range(self.piles):
                size_ = state[LENGTHS + index]
                if size_ > 1:
                    pile = self.pile(state, index)
                    if PAIRS_RANK[pile[size_ - 1]] + PAIRS_RANK[pile[size_ - 2]] == 13:
                        out[count] = _code(BENEATH, pile[size_ - 1], pile[size_ - 2], index, index)
                        count += 1
        discards = count
        if discards and self.reduce_balanced:
            memset(counts, 0, sizeof(counts))
            for i in range(size):
                counts[PAIRS_RANK[cards[i]]] += 1
            memcpy(&left, state + LEFT, 8)
            balanced = pairs_balanced_ranks(counts, left)
            if balanced:
                for i in range(discards):
                    if out[i] >> 12 & 15 == ALONE:
                        continue
                    low = PAIRS_RANK[out[i] & 63]
                    high = PAIRS_RANK[out[i] >> 6 & 63]
                    if balanced >> (low if low < high else high) & 1:
                        out[0] = out[i]
                        return 1
        if state[STOCK_COUNT] and not (discards and self.compulsory):
            out[count] = DEAL << 12
            count += 1
        if self.spaces:
            count += self.space_moves(state, out + count)
        return count

    cdef int space_moves(self, const uint8_t* state, int32_t* out) noexcept:
        """Baroness._moves_to_spaces (none without an empty pile)."""
        cdef uint8_t empty[MOST_PILES]
        cdef int empties = 0, index, size, count = 0, target, grace
        for index in range(self.piles):
            if not state[LENGTHS + index]:
                empty[empties] = index
                empties += 1
        if not empties:
            return 0
        if self.reduce_idle and not state[STOCK_COUNT]:
            target = empty[0]
            for index in range(self.piles):
                size = state[LENGTHS + index]
                if size > 1:
                    out[count] = _code(TO_SPACE, self.pile(state, index)[size - 1], target, index, 0)
                    count += 1
            return count
        for index in range(self.piles):
            size = state[LENGTHS + index]
            if size:
                for target in range(empties):
                    out[count] = _code(TO_SPACE, self.pile(state, index)[size - 1], empty[target], index, 0)
                    count += 1
        for grace in range(state[GRACE_COUNT]):
            for target in range(empties):
                out[count] = _code(TO_SPACE, state[GRACE + grace], empty[target], GRACE_PLACE, 0)
                count += 1
        return count

    cdef bint any_discard(self, const uint8_t* state) noexcept:
        """Whether a discard is available (Baroness.discards is not empty)."""
        cdef uint8_t cards[16]
        cdef uint8_t places[16]
        cdef int size = self.available(state, cards, places), i, index, height
        cdef int ranks = 0, rank
        cdef const uint8_t* pile
        for i in range(size):
            ranks |= 1 << PAIRS_RANK[cards[i]]
        if ranks >> KING & 1:
            return True
        for rank in range(1, 7):
            if ranks >> rank & ranks >> (13 - rank) & 1:
                return True
        if self.beneath:
            for index in range(self.piles):
                height = state[LENGTHS + index]
                if height > 1:
                    pile = self.pile(state, index)
                    if PAIRS_RANK[pile[height - 1]] + PAIRS_RANK[pile[height - 2]] == 13:
                        return True
        return False

    cdef void take(self, uint8_t* state, int card, int place) noexcept:
        """Remove ``card`` from where it lies: a grace card, or the top of pile ``place``."""
        cdef int count, i, size
        if place == GRACE_PLACE:
            count = state[GRACE_COUNT]
            i = 0
            while state[GRACE + i] != card:
                i += 1
            while i + 1 < count:
                state[GRACE + i] = state[GRACE + i + 1]
                i += 1
            state[GRACE + count - 1] = 0
            state[GRACE_COUNT] = count - 1
        else:
            size = state[LENGTHS + place] - 1
            state[PILES + place * self.height + size] = 0
            state[LENGTHS + place] = size

    cdef void to_grace(self, uint8_t* state, int count) noexcept:
        """The stock's next ``count`` cards (all it holds) become grace cards."""
        cdef int at = self.stock_at + STOCK_ROOM - count, grace = state[GRACE_COUNT]
        memcpy(state + GRACE + grace, state + at, count)
        memset(state + at, 0, count)
        state[GRACE_COUNT] = grace + count
        state[STOCK_COUNT] = 0
        _sort_bytes(state + GRACE, grace + count)

    cdef void deal(self, uint8_t* state) noexcept:
        """Baroness._deal: a card onto each pile, left to right; fewer than P left become grace."""
        cdef int count = state[STOCK_COUNT], index, size
        cdef int at = self.stock_at + STOCK_ROOM - count
        if count < self.piles:
            self.to_grace(state, count)
            return
        for index in range(self.piles):
            size = state[LENGTHS + index]
            state[PILES + index * self.height + size] = state[at + index]
            state[LENGTHS + index] = size + 1
            state[at + index] = 0
        count -= self.piles
        state[STOCK_COUNT] = count
        if 0 < count < self.piles:
            self.to_grace(state, count)

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef int kind = move >> 12 & 15, a = move & 63, b = move >> 6 & 63
        cdef int place = move >> 16 & 15, size
        cdef uint64_t left
        memcpy(child, state, self.state_size)
        if kind == DEAL:
            self.deal(child)
            return
        if kind == TO_SPACE:
            self.take(child, a, place)
            child[PILES + b * self.height] = a
            child[LENGTHS + b] = 1
            return
        memcpy(&left, child + LEFT, 8)
        left &= ~(<uint64_t>1 << a)
        if kind == BENEATH:
            size = child[LENGTHS + place] - 2
            child[PILES + place * self.height + size] = 0
            child[PILES + place * self.height + size + 1] = 0
            child[LENGTHS + place] = size
            left &= ~(<uint64_t>1 << b)
        else:
            self.take(child, a, place)
            if kind == PAIR:
                self.take(child, b, move >> 20 & 15)
                left &= ~(<uint64_t>1 << b)
        memcpy(child + LEFT, &left, 8)

    cdef bint is_won(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        memcpy(&left, state + LEFT, 8)
        return left == 0

    cdef int score(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        memcpy(&left, state + LEFT, 8)
        if state[STOCK_COUNT] or (left and self.any_discard(state)):
            return KERNEL_NO_SCORE
        return pairs_popcount(left)

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        cdef uint64_t left
        memcpy(&left, state + LEFT, 8)
        return pairs_unbalanced(left)

    # -- keys ----------------------------------------------------------------------------------

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        """Baroness.key, byte for byte."""
        cdef int size
        if self.reduce_sealed:
            size = self.sealed_key(state, out)
            if size:
                return size
        cdef int at = 0, index, height, singles
        cdef const uint8_t* pile
        cdef uint8_t* table = self.cards_table
        cdef uint8_t loose[16]
        if state[STOCK_COUNT]:
            for index in range(self.piles):
                if index:
                    out[at] = SEPARATOR
                    at += 1
                pile = self.pile(state, index)
                for height in range(state[LENGTHS + index]):
                    out[at + height] = table[pile[height]]
                at += state[LENGTHS + index]
            out[at] = WITH_STOCK
            out[at + 1] = state[STOCK_COUNT]
            return at + 2
        singles = state[GRACE_COUNT]
        for index in range(singles):
            loose[index] = table[state[GRACE + index]]
        if self.spaces:
            at = self.sorted_piles(state, NULL, 0, out)
        else:
            for index in range(self.piles):
                if state[LENGTHS + index] == 1:
                    loose[singles] = table[self.pile(state, index)[0]]
                    singles += 1
            at = self.sorted_piles(state, NULL, 2, out)
        out[at] = WITHOUT_STOCK
        _sort_bytes(loose, singles)
        memcpy(out + at + 1, loose, singles)
        return at + 1 + singles

    cdef int sorted_piles(self, const uint8_t* state, const uint8_t* depths, int least, uint8_t* out) noexcept:
        """The piles (only those of at least ``least`` cards; with ``floors``, each one's cards
        above its floor, from ``depths``) through the key's table, sorted as Python sorts bytes, joined by
        SEPARATOR into ``out``; returns the bytes written. ``least`` 0 keeps empty piles."""
        cdef uint8_t written[MOST_PILES][MOST_STACK]
        cdef int sizes[MOST_PILES]
        cdef int order[MOST_PILES]
        cdef int count = 0, index, size, bottom, i, j, at = 0, swap
        cdef const uint8_t* pile
        cdef uint8_t* table = self.cards_table
        for index in range(self.piles):
            size = state[LENGTHS + index]
            if size < least:
                continue
            bottom = depths[index] + 1 if depths != NULL else 0
            pile = self.pile(state, index)
            for i in range(bottom, size):
                written[count][i - bottom] = table[pile[i]]
            sizes[count] = size - bottom
            order[count] = count
            count += 1
        for i in range(1, count):
            swap = order[i]
            j = i - 1
            while j >= 0 and _compare(written[order[j]], sizes[order[j]], written[swap], sizes[swap]) > 0:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = swap
        for i in range(count):
            if i:
                out[at] = SEPARATOR
                at += 1
            memcpy(out + at, written[order[i]], sizes[order[i]])
            at += sizes[order[i]]
        return at

    cdef int sealed_key(self, const uint8_t* state, uint8_t* out) noexcept:
        """Baroness._sealed_key: 0 where the layout is not sealed."""
        cdef uint8_t depths[MOST_PILES]
        if not self.floors(state, depths):
            return 0
        cdef int at = 0, index, height, buried = self.piles, grace = state[GRACE_COUNT]
        cdef const uint8_t* pile
        cdef uint8_t* table = self.cards_table
        cdef uint8_t loose[16]
        for index in range(self.piles):
            buried += depths[index]
        if state[STOCK_COUNT]:
            for index in range(self.piles):
                if index:
                    out[at] = SEPARATOR
                    at += 1
                pile = self.pile(state, index)
                for height in range(depths[index] + 1, state[LENGTHS + index]):
                    out[at] = table[pile[height]]
                    at += 1
        else:
            at = self.sorted_piles(state, depths, 0, out)
        out[at] = SEALED
        at += 1
        for index in range(grace):
            loose[index] = table[state[GRACE + index]]
        _sort_bytes(loose, grace)
        memcpy(out + at, loose, grace)
        at += grace
        out[at] = SEALED
        out[at + 1] = buried
        out[at + 2] = state[STOCK_COUNT]
        return at + 3

    cdef bint floors(self, const uint8_t* state, uint8_t* depths) noexcept:
        """baroness_sealed.floors: each pile's floor (its topmost card no line can discard)
        into ``depths``; False when a pile is empty or may be emptied.

        Per column (a pile with the stock cards still to be dealt onto it) and layer (after 0,
        1, ... of the deals to come), the deepest card reachable so far and the ranks reachable
        there; a card is free if reachable with its partner rank reachable in another column or
        among the layer's grace cards. The least fixpoint, whatever the order it is reached in."""
        cdef int count = self.piles, stock = state[STOCK_COUNT], grace = state[GRACE_COUNT]
        cdef int full, layers, layer, i, k, size, depth, start, column_top
        cdef uint8_t stacks[MOST_PILES][MOST_STACK]
        cdef int rows[MOST_LAYERS][MOST_PILES]
        cdef uint16_t ranks[MOST_LAYERS][MOST_PILES]
        cdef uint16_t loose[MOST_LAYERS]
        cdef uint16_t after[MOST_PILES]
        cdef uint16_t before, others
        cdef uint64_t free = 0
        cdef bint changed = True
        cdef const uint8_t* pile
        cdef const uint8_t* next_card = state + self.stock_at + STOCK_ROOM - stock
        cdef uint8_t code
        for i in range(count):
            if not state[LENGTHS + i]:
                return False
        if grace:
            layers = 1
            loose[0] = 1
            for i in range(grace):
                loose[0] |= RANK_BIT[state[GRACE + i]]
            full = 0
        else:
            full = stock - stock % count
            layers = full // count + 1
            for layer in range(layers):
                loose[layer] = 1
            for i in range(full, stock):
                loose[layers - 1] |= RANK_BIT[next_card[i]]
        for i in range(count):
            size = state[LENGTHS + i]
            memcpy(stacks[i], self.pile(state, i), size)
            for k in range(full // count):
                stacks[i][size + k] = next_card[k * count + i]
        for layer in range(layers):
            for i in range(count):
                column_top = state[LENGTHS + i] - 1 + layer
                rows[layer][i] = column_top
                ranks[layer][i] = RANK_BIT[stacks[i][column_top]]
        after[count - 1] = 0
        while changed:
            changed = False
            for layer in range(layers):
                for i in range(count - 1, 0, -1):
                    after[i - 1] = after[i] | ranks[layer][i]
                before = loose[layer]
                for i in range(count):
                    others = before | after[i]
                    depth = start = rows[layer][i]
                    code = stacks[i][depth]
                    while free >> code & 1 or PARTNER_BIT[code] & others:
                        free |= <uint64_t>1 << code
                        depth -= 1
                        if depth < 0:
                            return False
                        code = stacks[i][depth]
                        ranks[layer][i] |= RANK_BIT[code]
                    if depth != start:
                        rows[layer][i] = depth
                        changed = True
                    before |= ranks[layer][i]
        for i in range(count):
            depths[i] = rows[0][i]
        return True

    # -- probes (for the tests) ----------------------------------------------------------------

    def probe_floors(self, bytes state):
        """floors() from Python: the list of floors, or None."""
        cdef uint8_t depths[MOST_PILES]
        if not self.floors(self._checked(state), depths):
            return None
        return [depths[i] for i in range(self.piles)]
