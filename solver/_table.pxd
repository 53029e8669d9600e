# The compiled twin of solver/table.py: 64-bit digests of layout keys in open-addressing tables
# (one block of memory each, linear probing), held to one memory account per search; the
# digest is solver/_digest.pxd's.

from libc.stdint cimport int32_t, uint8_t, uint64_t

from solver._protocol cimport CostedKernel

from solver._digest cimport patience_digest, patience_fold

cdef extern from *:
    """
    #define patience_prefetch(address) __builtin_prefetch(address)
    """
    void patience_prefetch(const void* address) nogil


cdef class TableMemory:
    # The bound shared by the tables of one search (-1: none), what they hold now, and the most
    # they held (with what a kernel's bound cache held, when one is lent a share).
    cdef public Py_ssize_t max_bytes
    cdef public Py_ssize_t held
    cdef public Py_ssize_t peak_bytes
    cdef public Py_ssize_t peak_entries
    cdef public Py_ssize_t evictions
    cdef CostedKernel lender

    cdef bint fits(self, Py_ssize_t more) noexcept
    cdef void note(self, Py_ssize_t entries) noexcept


cdef class DigestSet:
    # The layouts a search has searched (or is searching: those on its path).
    cdef uint64_t* slots
    cdef Py_ssize_t size        # slots (a power of two)
    cdef int shift              # 64 - log2(size): a digest's top bits are its home slot
    cdef Py_ssize_t count
    cdef Py_ssize_t limit       # the count at which the table grows, or (when it cannot) is full
    cdef bint final             # no room to grow: ``limit`` is the most it holds
    cdef TableMemory memory

    # Inline (here, in the declarations) so that the search's loop calls no function for them:
    # a probe is the one cache miss of nearly every state, and a prefetch issued as soon as the
    # digest is known lets the kernel's bound overlap it.
    cdef inline void prefetch(self, uint64_t digest) noexcept:
        patience_prefetch(&self.slots[<Py_ssize_t>(digest >> self.shift)])

    cdef inline bint contains(self, uint64_t digest) noexcept:
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(digest >> self.shift)
        cdef uint64_t found
        while True:
            found = self.slots[at]
            if found == digest:
                return True
            if found == 0:
                return False
            at = (at + 1) & mask

    cdef bint add(self, uint64_t digest) noexcept
    cdef void discard(self, uint64_t digest) noexcept
    cdef void keep_only(self, const uint64_t* pinned, Py_ssize_t count) noexcept
    cdef bint _grow(self, bint force) noexcept


cdef class DigestMap:
    # A number per layout: the cost IDA* entered it at, or a proven floor on its score.
    cdef uint64_t* slots
    cdef int32_t* values
    cdef Py_ssize_t size
    cdef int shift
    cdef Py_ssize_t count
    cdef Py_ssize_t limit
    cdef bint final
    cdef TableMemory memory

    cdef inline void prefetch(self, uint64_t digest) noexcept:
        patience_prefetch(&self.slots[<Py_ssize_t>(digest >> self.shift)])

    cdef inline bint get(self, uint64_t digest, int32_t* value) noexcept:
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(digest >> self.shift)
        cdef uint64_t found
        while True:
            found = self.slots[at]
            if found == digest:
                value[0] = self.values[at]
                return True
            if found == 0:
                return False
            at = (at + 1) & mask

    cdef bint put(self, uint64_t digest, int32_t value) noexcept
    cdef void keep_only(self, const uint64_t* pinned, Py_ssize_t count) noexcept
    cdef bint _grow(self, bint force) noexcept
