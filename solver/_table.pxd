# The compiled twin of solver/table.py: 64-bit digests of layout keys in open-addressing tables
# (one block of memory each, linear probing), held to one memory account per search; the
# digest is solver/_digest.pxd's.

from libc.stdint cimport int32_t, uint8_t, uint64_t

from solver._protocol cimport CostedKernel

from solver._digest cimport patience_digest, patience_fold

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <sys/mman.h>
    #define patience_prefetch(address) __builtin_prefetch(address)
    /* A table's block, zero-filled. From 1 MiB up it is a mapping of its own, so that, freed,
       it goes back to the system at once: glibc keeps a freed block below its mmap threshold
       (which rises to 32 MiB as blocks are freed) in its heap, still resident, which let a
       hint's searches under --max-memory 32M hold 10 MiB more. (From 64 KiB up, the fresh pages
       of the mid-sized tables of 1,000 orders' searches cost 0.25 CPU s more than the heap's,
       a sixth; from 1 MiB, 0.05 s, and the heap keeps under 1 MiB.) From 2 MiB up it is aligned
       to 2 MiB and marked for transparent huge pages where Linux offers them (madvise mode), so
       that the random probes of a large table miss the TLB far less often. */
    #define PATIENCE_MAPPED ((size_t)1 << 20)
    #define PATIENCE_HUGE ((size_t)1 << 21)
    static void* patience_block(size_t size) {
        size_t room = size, head = 0;
        char* mapped;
        if (size < PATIENCE_MAPPED)
            return calloc(size, 1);
    #if defined(MADV_HUGEPAGE)
        if (size >= PATIENCE_HUGE)
            room = size + PATIENCE_HUGE;  /* room to start at a multiple of 2 MiB */
    #endif
        mapped = (char*)mmap(NULL, room, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED)
            return NULL;
    #if defined(MADV_HUGEPAGE)
        if (room > size) {
            head = (PATIENCE_HUGE - ((uintptr_t)mapped & (PATIENCE_HUGE - 1))) & (PATIENCE_HUGE - 1);
            if (head)
                munmap(mapped, head);
            munmap(mapped + head + size, room - head - size);
            madvise(mapped + head, size, MADV_HUGEPAGE);
        }
    #endif
        return mapped + head;
    }
    static void patience_release(void* block, size_t size) {
        if (block == NULL)
            return;
        if (size < PATIENCE_MAPPED)
            free(block);
        else
            munmap(block, size);
    }
    """
    void patience_prefetch(const void* address) nogil
    void* patience_block(size_t size) nogil
    void patience_release(void* block, size_t size) nogil


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
