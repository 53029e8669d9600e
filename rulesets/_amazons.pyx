# cython: language_level=3
"""Amazons compiled (the twin of rulesets/amazons.py and its redeal bound,
rulesets/amazons_redeals.py), under every option.

States (STATE_SIZE bytes): byte 0 the stock's length, bytes 1-8 the depots' lengths, bytes 9-16
the foundation places' top cards (NO_CARD: empty), then the stock (next dealt first) and the
depots one after another (each bottom to top), zero padded. A place is its top card alone: the
rules read a place only by its top (its suit and its height, the top's level), and a line is
replayed through the Python ruleset, so the cards under it need not be kept.

Move codes: a play from depot s to place t is ``8 * s + t``; DEAL_CODE deals, REDEAL_CODE
gathers the depots into a new stock.

The redeal bound is RedealBound's (the same answers: the differential tests hold every bound
equal), its look-ahead valuing each next layout once where RedealBound deepens one need at a time
(see AmazonsKernel._next_value), and learnt in a cache of 64-bit slots held within the bytes it
is given (see Cache).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from solver._protocol cimport KERNEL_NO_SCORE, CostedKernel
from solver._table cimport patience_digest

DEF MAX_PILES = 8
DEF MAX_CARDS = 52
DEF HEADER = 17
DEF STATE_SIZE = 72
DEF NO_CARD = 0xFF
DEF DEAL_CODE = 64
DEF REDEAL_CODE = 65
DEF EMPTY_PLACE = 0xFE  # a key's byte for an empty place (amazons._EMPTY_PLACE)
DEF COMPLETE_PLACE = 0xFD  # a key's byte for a complete place (amazons._COMPLETE_PLACE)
DEF SEPARATOR = 0xFF  # between the stock and each depot in a key
DEF GROUP = 0xFF  # the first byte of a look-ahead group's key (amazons_redeals._GROUP)
DEF CLEAR = 0xFF  # a suit's lowest stuck level when none of its cards is stuck
DEF NEVER = 15  # no bound shown missed yet (4 bits in a cache slot)
DEF MOST_CAP = 14  # the highest cap the cache's 4-bit values hold
#: The cache's bound by default: 1 MiB, not RedealBound.MAX_BYTES (64 MiB). Its hits are few
#: (2.5% of the look-ahead's questions on amazons-dick deal 73: IDA* asks near its cost bound,
#: where layouts are mostly new), so the slots are worth only what stays in the CPU's caches:
#: amazons deals 1-8 and amazons-dick 75-80 take 1.1-1.2x the CPU with 64 MiB, the same
#: within the noise with 1 MiB, 256 KiB or none.
DEF DEFAULT_BYTES = 1 << 20
CACHE_BYTES = DEFAULT_BYTES  # (for Python: the tests)
#: Slots of a new cache (8 KiB): enough for the small searches of tests and hints.
DEF FIRST_SLOTS = 1024
DEF BUCKET = 4  # slots probed per key: one bucket of 32 bytes
DEF KEPT = 64  # the next layouts a look-ahead keeps between its two sweeps (more are made again)


cdef struct Rules:
    # The options and the card facts every method reads, by card code (0..51; NO_CARD beyond).
    int piles
    int height  # a complete place holds this many cards
    int top_level  # the level of the last rank (the "Queen")
    bint left_to_right
    bint queen_any
    bint compulsory
    bint any_suit
    bint ace_any
    bint skip_complete
    bint by_passes  # the passes bound (else the one-pass bound)
    int cap
    int gather[MAX_PILES]
    int8_t level[256]  # 0-based position in the foundation order; -1 not in the deck
    uint8_t suit[256]
    int mark[256]  # a place topped by t accepts c (not an Ace) iff mark[t] == need[c]
    int need[256]
    uint8_t free[256]  # an Ace or a queen_any Queen: may go up from any column
    uint8_t translate[256]  # a key's byte for a card (its level under any_suit)
    uint8_t chain[4][16]  # per suit, its cards in foundation order, then NO_CARD
    uint64_t at_least[4][16]  # at_least[s][v]: suit s's cards at level v or above, as bits by code
    int8_t rank_level[13]  # a rank's level (its index in the foundation order), by rank - 1


cdef struct Layout:
    # A state taken apart: the stock, each depot, the places' tops.
    const uint8_t* stock
    int stock_size
    const uint8_t* depots[MAX_PILES]
    int sizes[MAX_PILES]
    const uint8_t* tops


cdef inline void _read(const uint8_t* state, int piles, Layout* out) noexcept:
    out.stock = state + HEADER
    out.stock_size = state[0]
    out.tops = state + 1 + MAX_PILES
    cdef const uint8_t* at = out.stock + state[0]
    cdef int pile
    for pile in range(piles):
        out.depots[pile] = at
        out.sizes[pile] = state[1 + pile]
        at += state[1 + pile]


# ----- the cache of the look-ahead ---------------------------------------------------------------

cdef struct Cache:
    # Slots of 64 bits: the key's digest, its top bit set (0 marks an empty slot), with its low
    # byte replaced by what was shown of the key: the highest bound reached (high nibble) and the
    # lowest missed (low nibble). Buckets of BUCKET slots, named by digest bits 8 up.
    uint64_t* slots
    Py_ssize_t size  # slots: a power of two, or 0 before the first entry
    Py_ssize_t count
    Py_ssize_t max_bytes  # the block never passes this
    Py_ssize_t default_bytes


cdef inline uint64_t _tag(uint64_t digest) noexcept:
    return (digest | (<uint64_t>1 << 63)) & ~(<uint64_t>0xFF)


cdef bint _look(Cache* cache, uint64_t digest, int* reached, int* missed) noexcept:
    """What the cache shows of ``digest``: True with (reached, missed), or False."""
    if cache.size == 0:
        return False
    cdef uint64_t tag = _tag(digest), slot
    cdef Py_ssize_t at = <Py_ssize_t>((digest >> 8) & <uint64_t>(cache.size - 1)) & ~(BUCKET - 1), i
    for i in range(at, at + BUCKET):
        slot = cache.slots[i]
        if slot & ~(<uint64_t>0xFF) == tag:
            reached[0] = <int>(slot >> 4) & 15
            missed[0] = <int>slot & 15
            return True
    return False


cdef void _learn(Cache* cache, uint64_t digest, int reached, int missed) noexcept:
    """Keep (reached, missed) for ``digest``: in its slot, an empty slot of its bucket, or in
    place of one (the cache never grows past its bound; what it forgets is only searched again)."""
    cdef uint64_t tag = _tag(digest), slot
    cdef Py_ssize_t at, i, empty = -1
    if cache.size == 0 and not _grow(cache):
        return
    if cache.count * 2 >= cache.size:
        _grow(cache)
    at = <Py_ssize_t>((digest >> 8) & <uint64_t>(cache.size - 1)) & ~(BUCKET - 1)
    cdef uint64_t value = tag | <uint64_t>(reached << 4 | missed)
    for i in range(at, at + BUCKET):
        slot = cache.slots[i]
        if slot & ~(<uint64_t>0xFF) == tag:
            cache.slots[i] = value
            return
        if slot == 0 and empty < 0:
            empty = i
    if empty < 0:
        # A full bucket: the newest entry replaces one drawn from the digest's top bits.
        empty = at + <Py_ssize_t>((digest >> 56) & (BUCKET - 1))
    else:
        cache.count += 1
    cache.slots[empty] = value


cdef bint _grow(Cache* cache) noexcept:
    """Double the block (or make the first) where its bound allows; False where it cannot.
    Doubling keeps every entry: an entry's bucket gains one bit of its digest, so it stays or
    moves to the bucket ``size`` slots further, in place."""
    cdef Py_ssize_t size = FIRST_SLOTS if cache.size == 0 else 2 * cache.size, old = cache.size, i, moved
    if cache.size == 0:
        while size > BUCKET and size * 8 > cache.max_bytes:
            size //= 2
    if size * 8 > cache.max_bytes or size < BUCKET:
        return False
    cdef uint64_t* slots = <uint64_t*>realloc(cache.slots, size * 8)
    if slots == NULL:
        return False
    memset(slots + old, 0, (size - old) * 8)
    cache.slots, cache.size = slots, size
    cdef uint64_t slot
    for i in range(old):
        slot = slots[i]
        if slot and (slot >> 8) & <uint64_t>old:
            slots[i] = 0
            moved = i + old
            slots[moved] = slot
    return True


cdef void _empty(Cache* cache) noexcept:
    free(cache.slots)
    cache.slots = NULL
    cache.size = 0
    cache.count = 0


# ----- the one-pass bound and the pinned card ----------------------------------------------------

cdef bint _blocked(const Rules* r, int card, int pile, const uint8_t* tops) noexcept:
    """Amazons.blocked: ``card`` can never go up from depot ``pile``."""
    cdef int card_level = r.level[card], top = tops[pile], t, suit
    if card_level == 0 or (r.queen_any and card_level == r.top_level):
        return False
    if top != NO_CARD and r.level[top] >= card_level:
        return True
    if r.any_suit:
        return False
    suit = r.suit[card]
    if top == NO_CARD:
        for t in range(r.piles):
            if tops[t] != NO_CARD and r.suit[tops[t]] == suit:
                return True
        return False
    return r.suit[top] != suit


cdef int _one_pass_bound(const Rules* r, const uint8_t* state) noexcept:
    """RedealBound._one_pass_bound: 1 when some card provably cannot go up this pass."""
    cdef Layout at
    _read(state, r.piles, &at)
    cdef int pile, index, above, card
    cdef bint left = at.stock_size > 0
    for pile in range(r.piles):
        left = left or at.sizes[pile] > 0
    if not left:
        return 0
    cdef const uint8_t* depot
    for pile in range(r.piles):
        depot = at.depots[pile]
        for index in range(at.sizes[pile]):
            card = depot[index]
            if _blocked(r, card, pile, at.tops):
                return 1
            if not r.any_suit:
                for above in range(index + 1, at.sizes[pile]):
                    if r.suit[depot[above]] == r.suit[card] and r.level[depot[above]] > r.level[card]:
                        return 1
    if not r.skip_complete:
        for index in range(at.stock_size):
            if _blocked(r, at.stock[index], index % r.piles, at.tops):
                return 1
    return 0


# ----- the passes bound --------------------------------------------------------------------------

cdef inline void _stuck(const Rules* r, int card, uint8_t* lowest) noexcept:
    if r.level[card] < lowest[r.suit[card]]:
        lowest[r.suit[card]] = r.level[card]


cdef void _suit_columns(const Rules* r, const uint8_t* tops, int* masks) noexcept:
    """RedealBound._suit_columns: per suit, the columns (bits) its cards can go up from."""
    cdef int empty = 0, t
    for t in range(r.piles):
        if tops[t] == NO_CARD:
            empty |= 1 << t
    for t in range(4):
        masks[t] = empty
    for t in range(r.piles):
        if tops[t] != NO_CARD:
            masks[r.suit[tops[t]]] = 1 << t


cdef void _left_under_place(
    const Rules* r, const uint8_t* depot, int size, const uint8_t* stock, int stock_size, int c, int top,
    uint8_t* lowest,
) noexcept:
    """RedealBound._left_under_place: the cards of column ``c`` no line can take up this pass
    (marked stuck in ``lowest``), under a place topped by ``top``."""
    cdef const uint8_t* chain = r.chain[r.suit[top]]
    cdef int wanted = r.level[top] + 1, want = chain[wanted], card, index = c, height = size, i
    cdef uint8_t pile[MAX_CARDS]
    memcpy(pile, depot, size)
    while True:
        while height:
            card = pile[height - 1]
            if card == want:
                wanted += 1
                want = chain[wanted]
            elif not r.free[card]:
                break
            height -= 1
        if index >= stock_size:
            break
        pile[height] = stock[index]
        height += 1
        index += r.piles
    for i in range(height):
        _stuck(r, pile[i], lowest)


cdef inline void _stuck_if_barred(const Rules* r, int card, const int* masks, int bit, uint8_t* lowest) noexcept:
    """A card (not an Ace, nor a queen_any Queen) whose suit cannot go up from the column ``bit``."""
    if r.level[card] and not masks[r.suit[card]] & bit and not (r.queen_any and r.level[card] == r.top_level):
        _stuck(r, card, lowest)


cdef void _stuck_under_empty_place(
    const Rules* r, int c, const uint8_t* depot, int size, const uint8_t* stock, int stock_size, const int* masks,
    uint8_t* lowest,
) noexcept:
    """RedealBound._stuck_under_empty_place: the cards of column ``c`` stuck from the start."""
    cdef int bit = 1 << c, card, index, above
    for index in range(size):
        _stuck_if_barred(r, depot[index], masks, bit, lowest)
    index = c
    while index < stock_size:
        _stuck_if_barred(r, stock[index], masks, bit, lowest)
        index += r.piles
    for index in range(size - 1):
        card = depot[index]
        for above in range(index + 1, size):
            if r.suit[depot[above]] == r.suit[card] and r.level[depot[above]] > r.level[card]:
                _stuck(r, card, lowest)
                break


cdef void _spread(const Rules* r, const Layout* at, int loose, uint8_t* lowest) noexcept:
    """RedealBound._spread: the cards under a stuck card in a depot under an empty place (the
    columns of the bits of ``loose``) are stuck too, to a fixed point."""
    cdef bint changed = True
    cdef int c, index, below, card
    cdef const uint8_t* depot
    while changed:
        changed = False
        for c in range(r.piles):
            if not loose >> c & 1:
                continue
            depot = at.depots[c]
            for index in range(at.sizes[c] - 1, 0, -1):
                card = depot[index]
                if r.level[card] >= lowest[r.suit[card]]:
                    for below in range(index):
                        card = depot[below]
                        if r.level[card] < lowest[r.suit[card]]:
                            lowest[r.suit[card]] = r.level[card]
                            changed = True
                    break


cdef bint _stuck_this_pass(const Rules* r, const Layout* at, const int* masks, uint8_t* lowest) noexcept:
    """RedealBound._stuck_this_pass: per suit into ``lowest``, the lowest level of its cards that
    cannot go up before this pass ends (CLEAR: none); False if no card is stuck."""
    cdef int c, loose = 0, top
    lowest[0] = lowest[1] = lowest[2] = lowest[3] = CLEAR
    for c in range(r.piles):
        top = at.tops[c]
        if top != NO_CARD:
            _left_under_place(r, at.depots[c], at.sizes[c], at.stock, at.stock_size, c, top, lowest)
        else:
            loose |= 1 << c
            _stuck_under_empty_place(r, c, at.depots[c], at.sizes[c], at.stock, at.stock_size, masks, lowest)
    if lowest[0] == CLEAR and lowest[1] == CLEAR and lowest[2] == CLEAR and lowest[3] == CLEAR:
        return False
    _spread(r, at, loose, lowest)
    return True


cdef struct Columns:
    # What the places make of each column, for the look-ahead: the same in every layout it
    # meets, as a suit's Ace takes no place there (RedealBound._next_layouts).
    int masks[4]  # per suit, the columns (bits) its cards can go up from (_suit_columns)
    uint64_t barred[MAX_PILES]  # per column under an empty place, the cards stuck there at once
    uint8_t ok[256]  # per card, the columns it can go up from: all of them for a free card


cdef void _columns(const Rules* r, const uint8_t* tops, Columns* out) noexcept:
    """The places' Columns: masks, the cards _stuck_under_empty_place marks from the start (their
    suit cannot go up from the column; not an Ace, nor a queen_any Queen), and each card's columns
    as _stuck_next_pass reads them."""
    cdef int c, card, full = (1 << r.piles) - 1
    _suit_columns(r, tops, out.masks)
    for c in range(MAX_PILES):
        out.barred[c] = 0
    for card in range(256):
        out.ok[card] = full
    for card in range(52):
        if r.level[card] < 0:
            continue
        if not r.free[card]:
            out.ok[card] = out.masks[r.suit[card]]
        for c in range(r.piles):
            if tops[c] == NO_CARD and r.level[card] and not r.free[card] and not out.masks[r.suit[card]] >> c & 1:
                out.barred[c] |= <uint64_t>1 << card


cdef extern from *:
    int __builtin_ctz(unsigned int) nogil


cdef int _pass_start(
    const Rules* r, const Columns* columns, const uint8_t* order, int count, uint64_t gone, int size,
    const uint8_t* tops, uint8_t* lowest, uint8_t* gathered, int* gathered_count,
) noexcept:
    """The passes bound, up to 2, of the pass start whose stock is ``order`` less the cards of
    ``gone`` (``size`` cards left; the look-ahead's question, RedealBound._decide's two column tests): 0 when no card
    is stuck this pass (_stuck_this_pass), 1 when none must lie next pass where it cannot go up
    (_stuck_next_pass), else 2; ``lowest`` and, when 2, the cards left in gather order with
    their number (``gathered``, the next look-ahead's order) are filled in.

    One walk deals the stock to the columns, each card to the column after the last one's,
    writing it where the gather puts it and, under a place, keeping the cards stopped (its
    depot as _left_under_place leaves it). A card dealt there goes up at once when it is the
    place's next card, and then the stopped cards it uncovers that follow it or are free; goes
    at once when free (the stopped card under it waits for the same card); else it is stopped.
    Under an empty place a card is stuck when its suit cannot go up from the column; no depot
    holds cards to spread from. The stuck cards are gathered as a set of bits by code (a suit's
    lowest stuck card is its lowest bit, codes ascending with rank), and _stuck_next_pass runs
    without a branch on the cards: a reach emptied stays empty. (Most of a search's time is
    spent here: this walk takes about 0.85x the CPU of making the stock first, then a pass per
    column and one to gather; the bit sets and the branchless reach, about 0.9x again: least of
    three runs, amazons-dick 71-74 3.73 s against 4.23, amazons 1-8 1.80 against 2.30.)"""
    cdef int piles = r.piles, c, i, card, top, g, s, row = 0
    cdef int want[MAX_PILES]
    cdef int wanted[MAX_PILES]
    cdef int height[MAX_PILES]
    cdef int at[MAX_PILES]
    cdef uint8_t stopped[MAX_PILES][MAX_CARDS]
    cdef const uint8_t* chain
    cdef uint64_t stuck = 0, bits, reach, ok
    # where each column's cards go in the gathered order: after the columns gathered before it
    i = 0
    for g in range(piles):
        c = r.gather[g]
        at[c] = i
        if c < size:
            i += (size - c + piles - 1) // piles
    for c in range(piles):
        height[c] = 0
        top = tops[c]
        if top != NO_CARD:
            wanted[c] = r.level[top] + 1
            want[c] = r.chain[r.suit[top]][wanted[c]]
    c = 0
    for i in range(count):
        card = order[i]
        if gone >> card & 1:
            continue
        gathered[at[c] + row] = card
        top = tops[c]
        if top == NO_CARD:
            stuck |= columns.barred[c] & (<uint64_t>1 << card)
        elif card == want[c]:
            chain = r.chain[r.suit[top]]
            wanted[c] += 1
            want[c] = chain[wanted[c]]
            while height[c]:
                card = stopped[c][height[c] - 1]
                if card == want[c]:
                    wanted[c] += 1
                    want[c] = chain[wanted[c]]
                elif not r.free[card]:
                    break
                height[c] -= 1
        elif not r.free[card]:
            stopped[c][height[c]] = card
            height[c] += 1
        c += 1
        if c == piles:
            c = 0
            row += 1
    for c in range(piles):
        for i in range(height[c]):
            stuck |= <uint64_t>1 << stopped[c][i]
    if not stuck:
        return 0
    bits = 0  # every card at or above its suit's lowest stuck level: those _stuck_next_pass keeps
    for s in range(4):
        card = (stuck >> (13 * s)) & 0x1FFF
        if card:
            lowest[s] = r.rank_level[__builtin_ctz(card)]
            bits |= r.at_least[s][lowest[s]]
        else:
            lowest[s] = CLEAR
    gathered_count[0] = size
    # _stuck_next_pass: a stuck card keeps only the counts it may lie at, any other adds them
    cdef uint64_t full = (1 << piles) - 1
    cdef int back = piles - 1
    reach = 1
    for i in range(size):
        card = gathered[i]
        ok = reach & columns.ok[card]
        ok = ((ok << 1) | (ok >> back)) & full
        reach = ok | (reach & ((bits >> card & 1) - 1))
    return 1 if reach else 2


cdef int _gathered(const Rules* r, const Layout* at, uint8_t* order) noexcept:
    """The cards left in gather order (each column, its depot then its cards still to deal),
    into ``order``: the next pass's stock if none went up. Returns how many."""
    cdef int count = 0, c, i, g
    for g in range(r.piles):
        c = r.gather[g]
        memcpy(order + count, at.depots[c], at.sizes[c])
        count += at.sizes[c]
        i = c
        while i < at.stock_size:
            order[count] = at.stock[i]
            count += 1
            i += r.piles
    return count


cdef bint _stuck_next_pass(const Rules* r, const uint8_t* order, int count, const uint8_t* lowest, const int* masks) noexcept:
    """RedealBound._stuck_next_pass, over the cards left in gather order."""
    cdef int full = (1 << r.piles) - 1, back = r.piles - 1, reach = 1, ok, card, card_level, suit, i
    for i in range(count):
        card = order[i]
        card_level = r.level[card]
        suit = r.suit[card]
        if r.free[card]:
            ok = reach
        else:
            ok = reach & masks[suit]
        ok = ((ok << 1) | (ok >> back)) & full
        if card_level >= lowest[suit]:
            if not ok:
                return True
            reach = ok
        else:
            reach |= ok
    return False


cdef struct Ahead:
    # The layouts the next pass can start from (RedealBound._next_layouts), to enumerate: the
    # cards left in gather order, the places, and per suit the cards a pass may play.
    const uint8_t* order
    int count
    const uint8_t* tops
    int prefix_size[4]
    uint8_t prefix[4][16]
    uint64_t gone[4][16]  # gone[s][k]: the first k cards of suit s's prefix, as bits by code
    int place_of[4]  # the place holding the suit, or -1
    const Columns* columns  # what the places make of each column: the same in every next layout


cdef struct Child:
    # A next layout kept from the look-ahead's first sweep to its second.
    uint8_t tops[MAX_PILES]
    uint8_t lowest[4]
    int count
    uint8_t order[MAX_CARDS]


cdef void _ahead(
    const Rules* r, const uint8_t* order, int count, const uint8_t* tops, const uint8_t* lowest,
    const Columns* columns, Ahead* out,
) noexcept:
    """RedealBound._playable_prefixes and the places of _next_layouts: per suit, its cards left
    below its lowest stuck one in rank order (those a pass may play)."""
    cdef uint8_t by_level[4][16]
    cdef int s, i, card, t
    memset(by_level, NO_CARD, sizeof(by_level))
    for i in range(count):
        card = order[i]
        if r.level[card] < lowest[r.suit[card]]:
            by_level[r.suit[card]][r.level[card]] = card
    for s in range(4):
        out.prefix_size[s] = 0
        out.gone[s][0] = 0
        out.place_of[s] = -1
        for i in range(r.height):
            card = by_level[s][i]
            if card != NO_CARD:
                out.prefix[s][out.prefix_size[s]] = card
                out.gone[s][out.prefix_size[s] + 1] = out.gone[s][out.prefix_size[s]] | <uint64_t>1 << card
                out.prefix_size[s] += 1
    for t in range(r.piles):
        if tops[t] != NO_CARD:
            out.place_of[r.suit[tops[t]]] = t
    out.order, out.count, out.tops, out.columns = order, count, tops, columns


cdef class AmazonsKernel(CostedKernel):
    """Amazons with its options fixed (rulesets.amazons.Amazons), with its redeal bound."""

    cdef Rules r
    cdef Cache cache

    def __cinit__(
        self, ranks, int piles, bint left_to_right, bint queen_any_depot, bint compulsory, bint any_suit,
        bint ace_any_place, bint skip_complete, int cap, Py_ssize_t max_bytes=DEFAULT_BYTES,
    ):
        ranks = tuple(ranks)
        if not 1 <= piles <= MAX_PILES or not 1 <= len(ranks) <= 13:
            raise ValueError("piles must be 1 to 8, ranks 1 to 13")
        if not 2 <= cap <= MOST_CAP:
            raise ValueError(f"the redeal bound's cap must be 2 to {MOST_CAP}, not {cap}")
        self.state_size = STATE_SIZE
        self.max_moves = piles * piles + 1
        self.key_size = 2 * piles + MAX_CARDS
        cdef Rules* r = &self.r
        memset(r, 0, sizeof(Rules))
        r.piles = piles
        r.height = len(ranks)
        r.top_level = r.height - 1
        r.left_to_right = left_to_right
        r.queen_any = queen_any_depot
        r.compulsory = compulsory
        r.any_suit = any_suit
        r.ace_any = ace_any_place
        r.skip_complete = skip_complete
        r.by_passes = not (any_suit or skip_complete)
        r.cap = cap
        cdef int pile, code, level, suit
        for pile in range(piles):
            r.gather[pile] = pile if left_to_right else piles - 1 - pile
        for code in range(256):
            r.level[code] = -1
            r.translate[code] = code
            r.need[code] = -2
            r.mark[code] = -3
        memset(r.chain, NO_CARD, sizeof(r.chain))
        for code in range(52):
            rank = code % 13 + 1
            r.suit[code] = code // 13
            if rank not in ranks:
                continue
            level = ranks.index(rank)
            r.level[code] = level
            r.rank_level[rank - 1] = level
            for suit in range(level + 1):
                r.at_least[code // 13][suit] |= <uint64_t>1 << code
            r.chain[code // 13][level] = code
            r.free[code] = level == 0 or (queen_any_depot and level == r.top_level)
            if any_suit:
                r.translate[code] = level
                r.mark[code] = level
                r.need[code] = level - 1 if level > 0 else -2
            else:
                r.mark[code] = code
                r.need[code] = code - rank + ranks[level - 1] if level > 0 else -2
        self.cache.slots = NULL
        self.cache.size = 0
        self.cache.count = 0
        self.cache.default_bytes = max_bytes
        self.cache.max_bytes = max_bytes

    def __dealloc__(self):
        _empty(&self.cache)

    # ----- the search protocol ---------------------------------------------------------------

    cdef int stock_span(self, const uint8_t* state, int* length) noexcept:
        """Right after the header (Amazons.encode)."""
        length[0] = state[0]
        return HEADER

    cdef int moves(self, const uint8_t* state, int32_t* out) noexcept:
        """Amazons.moves: plays in depot order (Aces last among them), then the deal or redeal."""
        cdef const Rules* r = &self.r
        cdef const uint8_t* tops = state + 1 + MAX_PILES
        cdef int32_t aces[MAX_PILES * MAX_PILES]
        cdef int count = 0, ace_count = 0, source, target, card, card_level, i
        cdef int at = HEADER + state[0]
        cdef bint left = False
        for source in range(r.piles):
            if not state[1 + source]:
                continue
            left = True
            at += state[1 + source]
            card = state[at - 1]
            card_level = r.level[card]
            if card_level == 0:
                for target in range(r.piles):
                    if tops[target] == NO_CARD:
                        aces[ace_count] = 8 * source + target
                        ace_count += 1
                        if not r.ace_any:
                            break
            elif r.queen_any and card_level == r.top_level:
                for target in range(r.piles):
                    if tops[target] != NO_CARD and r.mark[tops[target]] == r.need[card]:
                        out[count] = 8 * source + target
                        count += 1
            elif tops[source] != NO_CARD and r.mark[tops[source]] == r.need[card]:
                out[count] = 9 * source
                count += 1
        for i in range(ace_count):
            out[count] = aces[i]
            count += 1
        if state[0]:
            if not (count and r.compulsory) and self._deal_targets(tops):
                out[count] = DEAL_CODE
                count += 1
        elif left:
            out[count] = REDEAL_CODE
            count += 1
        return count

    cdef inline int _deal_targets(self, const uint8_t* tops) noexcept:
        """The depots a deal gives a card to, as bits (skip_complete passes complete places)."""
        cdef int bits = (1 << self.r.piles) - 1, pile
        if self.r.skip_complete:
            for pile in range(self.r.piles):
                if tops[pile] != NO_CARD and self.r.level[tops[pile]] == self.r.top_level:
                    bits &= ~(1 << pile)
        return bits

    cdef void apply(self, const uint8_t* state, int32_t move, uint8_t* child) noexcept:
        cdef const Rules* r = &self.r
        cdef int stock_size = state[0], pile, source, target, at, end, dealt, targets, g, c
        cdef const uint8_t* depot
        cdef uint8_t* write
        cdef Layout parts
        if move == REDEAL_CODE:
            memset(child, 0, STATE_SIZE)
            memcpy(child + 1 + MAX_PILES, state + 1 + MAX_PILES, MAX_PILES)
            _read(state, r.piles, &parts)
            write = child + HEADER
            for g in range(r.piles):
                c = r.gather[g]
                memcpy(write, parts.depots[c], parts.sizes[c])
                write += parts.sizes[c]
            child[0] = write - (child + HEADER)
            return
        if move == DEAL_CODE:
            memset(child, 0, STATE_SIZE)
            memcpy(child + 1 + MAX_PILES, state + 1 + MAX_PILES, MAX_PILES)
            _read(state, r.piles, &parts)
            targets = self._deal_targets(state + 1 + MAX_PILES)
            dealt = 0
            for pile in range(r.piles):
                if targets >> pile & 1 and dealt < stock_size:
                    dealt += 1
            child[0] = stock_size - dealt
            write = child + HEADER
            memcpy(write, parts.stock + dealt, stock_size - dealt)
            write += stock_size - dealt
            dealt = 0
            for pile in range(r.piles):
                memcpy(write, parts.depots[pile], parts.sizes[pile])
                write += parts.sizes[pile]
                child[1 + pile] = parts.sizes[pile]
                if targets >> pile & 1 and dealt < stock_size:
                    write[0] = parts.stock[dealt]
                    write += 1
                    dealt += 1
                    child[1 + pile] += 1
            return
        memcpy(child, state, STATE_SIZE)
        source, target = move >> 3, move & 7
        end = HEADER + stock_size
        for pile in range(r.piles):
            end += state[1 + pile]
        at = HEADER + stock_size
        for pile in range(source + 1):
            at += state[1 + pile]
        # the card at ``at - 1`` goes up; the depots above it close the gap
        child[1 + MAX_PILES + target] = state[at - 1]
        child[1 + source] -= 1
        memcpy(child + at - 1, state + at, end - at)
        child[end - 1] = 0

    cdef bint is_won(self, const uint8_t* state) noexcept:
        cdef int pile
        if state[0]:
            return False
        for pile in range(self.r.piles):
            if state[1 + pile]:
                return False
        return True

    cdef int key(self, const uint8_t* state, uint8_t* out) noexcept:
        """Amazons.key: the places (top, or height under any_suit), then the stock and each depot
        after a separator (cards by level under any_suit)."""
        cdef const Rules* r = &self.r
        cdef int pile, size = 0, top, i, cards = state[0]
        for pile in range(r.piles):
            top = state[1 + MAX_PILES + pile]
            if top == NO_CARD:
                out[pile] = EMPTY_PLACE
            elif r.level[top] == r.top_level:
                out[pile] = COMPLETE_PLACE
            elif r.any_suit:
                out[pile] = r.level[top] + 1
            else:
                out[pile] = top
        size = r.piles
        memcpy(out + size, state + HEADER, cards)
        size += cards
        cdef int at = HEADER + cards
        for pile in range(r.piles):
            out[size] = SEPARATOR
            size += 1
            memcpy(out + size, state + at, state[1 + pile])
            size += state[1 + pile]
            at += state[1 + pile]
        if r.any_suit:
            for i in range(r.piles, size):
                out[i] = r.translate[out[i]]
        return size

    cdef int score(self, const uint8_t* state) noexcept:
        cdef int total = state[0], pile
        for pile in range(self.r.piles):
            total += state[1 + pile]
        return total

    cdef int lower_bound(self, const uint8_t* state) noexcept:
        """Amazons.lower_bound: the card pinned to D1, if it can never go up."""
        cdef const Rules* r = &self.r
        if not r.left_to_right or r.skip_complete:
            return 0
        cdef int pinned
        if state[1]:
            pinned = state[HEADER + state[0]]
        elif state[0]:
            pinned = state[HEADER]
        else:
            return 0
        if not _blocked(r, pinned, 0, state + 1 + MAX_PILES):
            return 0
        return 1 if r.any_suit else 1 + r.top_level - r.level[pinned]

    # ----- costs: the redeals ------------------------------------------------------------------

    cdef int move_cost(self, const uint8_t* state, int32_t move) noexcept:
        return 1 if move == REDEAL_CODE else 0

    cdef int cost_to_win_cap(self) noexcept:
        return self.r.cap if self.r.by_passes else 1

    cdef void hold_bound_cache(self, Py_ssize_t max_bytes) noexcept:
        """Hold the look-ahead's cache to ``max_bytes`` (-1: its default), emptying it if it
        holds more (Amazons.hold_bound_cache)."""
        if max_bytes < 0 or max_bytes > self.cache.default_bytes:
            max_bytes = self.cache.default_bytes
        self.cache.max_bytes = max_bytes
        if self.cache.size * 8 > max_bytes:
            _empty(&self.cache)

    cdef Py_ssize_t bound_cache_bytes(self) noexcept:
        return self.cache.size * 8

    cdef int cost_to_win_bound(self, const uint8_t* state) noexcept:
        if self.r.by_passes:
            return self._passes_bound(state)
        return _one_pass_bound(&self.r, state)

    cdef int _passes_bound(self, const uint8_t* state) noexcept:
        """RedealBound._passes_bound: the redeals any win still needs, at least (0 to cap)."""
        cdef const Rules* r = &self.r
        cdef Layout at
        _read(state, r.piles, &at)
        cdef int masks[4]
        cdef uint8_t lowest[4]
        cdef uint8_t order[MAX_CARDS]
        cdef uint8_t key[1 + MAX_CARDS + MAX_PILES + 4]
        cdef int count, t, reached, missed, bound
        _suit_columns(r, at.tops, masks)
        if not _stuck_this_pass(r, &at, masks, lowest):
            return 0  # (a won state has no card left, stuck or not)
        count = _gathered(r, &at, order)
        if not _stuck_next_pass(r, order, count, lowest, masks):
            return 1
        cdef Columns columns
        # the look-ahead's group (RedealBound._group_key): the cards left in gather order, the
        # places' tops and each suit's lowest stuck level decide it
        key[0] = GROUP
        memcpy(key + 1, order, count)
        for t in range(r.piles):
            key[1 + count + t] = EMPTY_PLACE if at.tops[t] == NO_CARD else at.tops[t]
        memcpy(key + 1 + count + r.piles, lowest, 4)
        cdef uint64_t digest = patience_digest(key, 1 + count + r.piles + 4)
        if _look(&self.cache, digest, &reached, &missed):
            if reached >= r.cap or missed == reached + 1:
                return min(reached, r.cap)
        cdef Ahead ahead
        _columns(r, at.tops, &columns)
        _ahead(r, order, count, at.tops, lowest, &columns, &ahead)
        bound = max(2, 1 + self._next_value(&ahead, r.cap - 1))
        _learn(&self.cache, digest, bound, bound + 1 if bound < r.cap else NEVER)
        return bound

    cdef int _next_value(self, const Ahead* ahead, int most) noexcept:
        """The least passes bound, capped at ``most``, of the layouts the next pass can start
        from (_next_layouts), or some value at most 1 when one is that low (the layout looked
        ahead from then needs 2, whatever the others need).

        The passes bound v of a pass start is 0 or 1 by its column tests (_pass_start), else
        max(2, 1 + the least v of its next layouts): what RedealBound._decide's deepening
        decides one need at a time (v reaches need > 2 iff every next layout reaches need - 1,
        and reaching need implies reaching need - 1). Here each layout is valued once, capped
        at the least value found so far, which stops as soon as no layout left could lower it;
        a first sweep makes every layout's column tests before any looks further, so that one
        needing 0 or 1 ends the search at once, as the deepening's first round does."""
        cdef const Rules* r = &self.r
        cdef int counts[4]
        cdef Child kept[KEPT]
        cdef Child spare
        cdef Child* child
        cdef int s, level, made = 0, index, value, least = most, sweep
        cdef uint64_t gone
        for sweep in range(2):
            for s in range(4):
                counts[s] = ahead.prefix_size[s]
            index = 0
            while True:
                if sweep == 0 or index >= made:
                    child = &kept[made] if sweep == 0 and made < KEPT else &spare
                    gone = ahead.gone[0][counts[0]] | ahead.gone[1][counts[1]] | ahead.gone[2][counts[2]] | ahead.gone[3][counts[3]]
                    memcpy(child.tops, ahead.tops, MAX_PILES)
                    for s in range(4):
                        if counts[s] and ahead.place_of[s] >= 0:
                            child.tops[ahead.place_of[s]] = ahead.prefix[s][counts[s] - 1]
                    level = _pass_start(
                        r, ahead.columns, ahead.order, ahead.count, gone,
                        ahead.count - counts[0] - counts[1] - counts[2] - counts[3], child.tops, child.lowest,
                        child.order, &child.count,
                    )
                    if sweep == 0:
                        if level < 2:
                            return level
                        if made < KEPT:
                            made += 1
                else:
                    child = &kept[index]
                if sweep == 1:
                    value = self._value_of(ahead, child, least)
                    if value < least:
                        least = value
                    if least <= 2:
                        return least  # (every layout left needs 2 at least)
                index += 1
                # the next counts, as itertools.product over descending ranges: the last suit fastest
                s = 3
                while s >= 0 and counts[s] == 0:
                    counts[s] = ahead.prefix_size[s]
                    s -= 1
                if s < 0:
                    break
                counts[s] -= 1
            if most <= 2:
                return most  # every layout's column tests show 2, all that is asked
        return least

    cdef int _value_of(self, const Ahead* ahead, const Child* child, int most) noexcept:
        """The passes bound, capped at ``most`` (3 or more), of a next layout whose column tests
        show 2; learnt by layout (its stock and places' tops) as RedealBound._at_least learns:
        the highest value shown reached, the lowest shown missed."""
        cdef const Rules* r = &self.r
        cdef uint8_t key[MAX_CARDS + MAX_PILES]
        cdef int reached = 0, missed = NEVER, t, value, size = child.count
        # the layout's stock is its cards in deal order: the order looked ahead from, less
        # those gone; its gathered order holds the same cards, so the key is made of that order
        # and the tops (one key per layout either way)
        memcpy(key, child.order, size)
        for t in range(r.piles):
            key[size + t] = EMPTY_PLACE if child.tops[t] == NO_CARD else child.tops[t]
        cdef uint64_t digest = patience_digest(key, size + r.piles)
        if _look(&self.cache, digest, &reached, &missed):
            if reached >= most:
                return most
            if missed == reached + 1:
                return reached
        cdef Ahead next
        _ahead(r, child.order, child.count, child.tops, child.lowest, ahead.columns, &next)
        value = max(2, 1 + self._next_value(&next, most - 1))
        if value < most:
            reached, missed = value, value + 1
        elif most > reached:
            reached = most
        _learn(&self.cache, digest, reached, missed)
        return value

    # ----- probes for the tests ----------------------------------------------------------------

    def probe_hold_bound_cache(self, max_bytes) -> None:
        """hold_bound_cache from Python (None: the default)."""
        self.hold_bound_cache(-1 if max_bytes is None else max_bytes)

    def probe_bound_cache_bytes(self) -> int:
        return self.bound_cache_bytes()

    @property
    def bound_cache_limit(self) -> int:
        """The bytes the cache is held to now."""
        return self.cache.max_bytes
