# cython: language_level=3
"""Transposition tables of the compiled engine (the twin of solver/table.py).

Each table is one block of 64-bit digests (a map has a block of 32-bit values beside it),
probed linearly from the slot the digest's top bits name. It doubles when three quarters full
while the search's memory bound leaves room for the doubled block beside the old one (both are
held while the entries move over); when it cannot, it is full, and the search evicts every
entry but those on its path (solver.table's rule). (Doubling when half full, as it did, held
twice the memory for the largest searches, and the last doubling alone cost a fifth of their
CPU: baroness-pysol deal 531, 35.5 million states, took 28.2 and 25.9 CPU s, now 20.4 and 21.9,
runs alternated.) So a search never holds
more table than ``--max-memory``, the moment of a doubling included, and ``peak_table_bytes``
is the most it held (the blocks allocated, plus what a kernel's bound cache held). A block freed
goes back to the system at once (``patience_block`` in solver/_table.pxd), so that the process's
resident memory follows the account.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from solver._protocol cimport CostedKernel

#: Slots of a new table: 2,048 digests of 8 bytes, 16 KiB, enough for most searches of a deal
#: (the doublings before were 4% of the Accordion reference deals' search; a hint's small
#: searches clear 16 KiB in microseconds).
DEF FIRST_SIZE = 2048
#: The fewest slots a table has, whatever the bound (solver.table allows 16 entries at least too).
DEF LEAST_SIZE = 32
DEF SET_SLOT = 8
DEF MAP_SLOT = 12


def digest(bytes key) -> int:
    """The compiled engine's digest of a layout key (never 0)."""
    return patience_digest(<const uint8_t*>key, len(key))


cdef class TableMemory:
    """The memory bound of one search's tables (None: unbounded), what they hold and held."""

    def __init__(self, max_bytes=None):
        self.max_bytes = -1 if max_bytes is None else max_bytes
        self.held = 0
        self.peak_bytes = 0
        self.peak_entries = 0
        self.evictions = 0
        self.lender = None

    def lend(self, CostedKernel kernel):
        """Give a quarter of the bound to ``kernel``'s bound cache (solver.table.TableMemory.lend):
        the kernel keeps within it, and the peak counts what it holds."""
        cdef Py_ssize_t share = -1
        if self.max_bytes >= 0:
            share = self.max_bytes // 4
            self.max_bytes -= share
        kernel.hold_bound_cache(share)
        self.lender = kernel

    cdef bint fits(self, Py_ssize_t more) noexcept:
        return self.max_bytes < 0 or self.held + more <= self.max_bytes

    cdef void note(self, Py_ssize_t entries) noexcept:
        cdef Py_ssize_t held = self.held
        if self.lender is not None:
            held += self.lender.bound_cache_bytes()
        if held > self.peak_bytes:
            self.peak_bytes = held
        if entries > self.peak_entries:
            self.peak_entries = entries


#: An odd multiplier (2**64 over the golden ratio): a stride that scatters a walk over a table's slots.
cdef uint64_t SCATTER = 0x9E3779B97F4A7C15


cdef Py_ssize_t _first_size(TableMemory memory, Py_ssize_t slot) noexcept:
    """The slots a new table starts with: FIRST_SIZE, or fewer where the bound leaves less room."""
    cdef Py_ssize_t size = FIRST_SIZE
    while size > LEAST_SIZE and not memory.fits(size * slot):
        size //= 2
    return size


cdef int _shift(Py_ssize_t size) noexcept:
    cdef int bits = 0
    while (<Py_ssize_t>1 << bits) < size:
        bits += 1
    return 64 - bits


cdef class DigestSet:
    """The layouts a search has searched: a set of digests."""

    def __cinit__(self, TableMemory memory not None):
        self.memory = memory
        self.size = _first_size(memory, SET_SLOT)
        self.slots = <uint64_t*>patience_block(self.size * SET_SLOT)
        if self.slots == NULL:
            raise MemoryError()
        self.shift = _shift(self.size)
        self.count = 0
        self.limit = self.size * 3 // 4
        self.final = False
        memory.held += self.size * SET_SLOT
        memory.note(0)

    def __dealloc__(self):
        if self.slots != NULL:
            patience_release(self.slots, self.size * SET_SLOT)
            self.memory.held -= self.size * SET_SLOT

    cdef bint add(self, uint64_t digest) noexcept:
        """Add a digest not yet in the table; False (nothing added) when the table is full."""
        if self.count >= self.limit and (self.final or not self._grow(False)):
            return False
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(digest >> self.shift)
        while self.slots[at] != 0:
            at = (at + 1) & mask
        self.slots[at] = digest
        self.count += 1
        return True

    cdef bint _grow(self, bint force) noexcept:
        """Double the block if the bound leaves room for both blocks at once (or ``force``: the
        path must fit); else the table is final, full at three quarters."""
        cdef Py_ssize_t size = self.size * 2
        cdef uint64_t* slots = NULL
        if force or self.memory.fits(size * SET_SLOT):
            slots = <uint64_t*>patience_block(size * SET_SLOT)
        if slots == NULL:
            self.final = True
            self.limit = self.size * 3 // 4
            return self.count < self.limit
        self.memory.held += size * SET_SLOT
        self.memory.note(self.count)
        cdef uint64_t* old = self.slots
        cdef Py_ssize_t old_size = self.size, i, at
        cdef int shift = _shift(size)
        cdef Py_ssize_t mask = size - 1
        for i in range(old_size):
            if old[i] != 0:
                at = <Py_ssize_t>(old[i] >> shift)
                while slots[at] != 0:
                    at = (at + 1) & mask
                slots[at] = old[i]
        patience_release(old, old_size * SET_SLOT)
        self.memory.held -= old_size * SET_SLOT
        self.slots, self.size, self.shift, self.limit = slots, size, shift, size * 3 // 4
        return True

    cdef void discard(self, uint64_t digest) noexcept:
        """Remove a digest (if present), shifting back the entries probed past its slot."""
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(digest >> self.shift), hole, home
        while self.slots[at] != digest:
            if self.slots[at] == 0:
                return
            at = (at + 1) & mask
        hole = at
        self.count -= 1
        while True:
            at = (at + 1) & mask
            if self.slots[at] == 0:
                break
            home = <Py_ssize_t>(self.slots[at] >> self.shift)
            # the entry at ``at`` may fill the hole unless its home lies cyclically in (hole, at]
            if (at - home) & mask >= (at - hole) & mask:
                self.slots[hole] = self.slots[at]
                hole = at
        self.slots[hole] = 0

    cdef void keep_only(self, const uint64_t* pinned, Py_ssize_t count) noexcept:
        """Evict: drop every entry but the ``pinned`` ones (distinct: the search's path), after
        noting the size reached. A path too long for the bound is kept whole all the same (the
        search would otherwise walk round a cycle), with room for as many again, beyond the bound
        if need be, as a Python set keeps it."""
        self.memory.note(self.count)
        self.memory.evictions += 1
        memset(self.slots, 0, self.size * SET_SLOT)
        self.count = 0
        while self.limit < 2 * count + 16 and self._grow(True):
            pass
        cdef Py_ssize_t i
        for i in range(count):
            self.add(pinned[i])

    def __len__(self):
        return self.count

    def __contains__(self, digest):
        return self.contains(digest)

    def __iter__(self):
        cdef Py_ssize_t i
        return iter([self.slots[i] for i in range(self.size) if self.slots[i] != 0])

    def insert(self, uint64_t digest) -> bool:
        """Add ``digest`` (from Python); False when the table is full and it was not added."""
        return self.contains(digest) or self.add(digest)


cdef class DigestMap:
    """A number per layout, by digest."""

    def __cinit__(self, TableMemory memory not None):
        self.memory = memory
        self.size = _first_size(memory, MAP_SLOT)
        self.slots = <uint64_t*>patience_block(self.size * 8)
        self.values = <int32_t*>patience_block(self.size * 4)
        if self.slots == NULL or self.values == NULL:
            patience_release(self.slots, self.size * 8)
            patience_release(self.values, self.size * 4)
            self.slots = NULL
            raise MemoryError()
        self.shift = _shift(self.size)
        self.count = 0
        self.limit = self.size * 3 // 4
        self.final = False
        memory.held += self.size * MAP_SLOT
        memory.note(0)

    def __dealloc__(self):
        if self.slots != NULL:
            patience_release(self.slots, self.size * 8)
            patience_release(self.values, self.size * 4)
            self.memory.held -= self.size * MAP_SLOT

    cdef bint put(self, uint64_t digest, int32_t value) noexcept:
        """Set the digest's value; False (nothing set) when it is new and the table is full."""
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(digest >> self.shift)
        while self.slots[at] != 0:
            if self.slots[at] == digest:
                self.values[at] = value
                return True
            at = (at + 1) & mask
        if self.count >= self.limit:
            if self.final or not self._grow(False):
                return False
            mask = self.size - 1
            at = <Py_ssize_t>(digest >> self.shift)
            while self.slots[at] != 0:
                at = (at + 1) & mask
        self.slots[at] = digest
        self.values[at] = value
        self.count += 1
        return True

    cdef bint _grow(self, bint force) noexcept:
        """As DigestSet._grow."""
        cdef Py_ssize_t size = self.size * 2
        cdef uint64_t* slots = NULL
        cdef int32_t* values = NULL
        if force or self.memory.fits(size * MAP_SLOT):
            slots = <uint64_t*>patience_block(size * 8)
            values = <int32_t*>patience_block(size * 4)
        if slots == NULL or values == NULL:
            patience_release(slots, size * 8)
            patience_release(values, size * 4)
            self.final = True
            self.limit = self.size * 3 // 4
            return self.count < self.limit
        self.memory.held += size * MAP_SLOT
        self.memory.note(self.count)
        cdef Py_ssize_t old_size = self.size, i, at
        cdef int shift = _shift(size)
        cdef Py_ssize_t mask = size - 1
        for i in range(old_size):
            if self.slots[i] != 0:
                at = <Py_ssize_t>(self.slots[i] >> shift)
                while slots[at] != 0:
                    at = (at + 1) & mask
                slots[at] = self.slots[i]
                values[at] = self.values[i]
        patience_release(self.slots, old_size * 8)
        patience_release(self.values, old_size * 4)
        self.memory.held -= old_size * MAP_SLOT
        self.slots, self.values, self.size, self.shift, self.limit = slots, values, size, shift, size * 3 // 4
        return True

    cdef void keep_only(self, const uint64_t* pinned, Py_ssize_t count) noexcept:
        """Evict: drop every entry but the ``pinned`` ones, which keep their values (a path too
        long for the bound is kept whole, as in DigestSet.keep_only)."""
        self.memory.note(self.count)
        self.memory.evictions += 1
        cdef int32_t* kept = <int32_t*>malloc(max(count, 1) * 4)
        cdef bint* known = <bint*>malloc(max(count, 1) * sizeof(bint))
        cdef Py_ssize_t i
        if kept == NULL or known == NULL:
            count = 0  # no memory even for that: keep nothing (a search only searches again)
        for i in range(count):
            known[i] = self.get(pinned[i], &kept[i])
        memset(self.slots, 0, self.size * 8)
        self.count = 0
        while self.limit < 2 * count + 16 and self._grow(True):
            pass
        for i in range(count):
            if known[i]:
                self.put(pinned[i], kept[i])
        free(kept)
        free(known)

    def __len__(self):
        return self.count

    def value(self, uint64_t digest):
        """The digest's value, or None."""
        cdef int32_t found
        return found if self.get(digest, &found) else None

    def raise_all(self, DigestSet keys not None, int32_t value):
        """Every digest of ``keys`` gets at least ``value``: those already here are raised to it,
        new ones added while the table has room (a floor table stops growing when full)."""
        cdef Py_ssize_t i
        cdef int32_t found
        cdef uint64_t digest, mask = <uint64_t>keys.size - 1
        # The slots are visited in a scattered order (an odd stride is a permutation of them). In
        # slot order the digests come sorted by their top bits, which are where this table puts
        # them too: while it is smaller than ``keys`` they all land in its first slots and pile up
        # into one cluster that each later digest walks, quadratic time (a hint on a hard
        # baroness-pysol deal ran for hours, deaf to Ctrl-C, in this loop; 800,000 digests took
        # 31 s, now a few milliseconds).
        for i in range(keys.size):
            digest = keys.slots[(<uint64_t>i * SCATTER) & mask]
            if digest == 0:
                continue
            if not self.get(digest, &found) or found < value:
                self.put(digest, value)
