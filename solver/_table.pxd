# The compiled twin of solver/table.py: 64-bit digests of layout keys in open-addressing tables
# (one block of memory each, linear probing), held to one memory account per search.

from libc.stdint cimport int32_t, uint8_t, uint64_t

from solver._protocol cimport CostedKernel

cdef extern from *:
    """
    #include <string.h>
    /* The digest of a layout key, written for this project: each 8-byte word of the key is
       folded into the running value by one multiplication (the two halves of the 128-bit
       product xored together), and the end folded once more, so every bit of the key reaches
       every bit of the digest. The constants are the fractional parts of the golden ratio,
       pi, sqrt(2) and sqrt(3). 0 is never a digest: it marks an empty slot. */
    static inline uint64_t patience_fold(uint64_t a, uint64_t b) {
    #ifdef __SIZEOF_INT128__
        unsigned __int128 product = (unsigned __int128)a * b;
        return (uint64_t)product ^ (uint64_t)(product >> 64);
    #else
        uint64_t x = a * b;
        x ^= x >> 29; x *= 0x9E3779B97F4A7C15ULL; x ^= x >> 32;
        return x ^ (a >> 17);
    #endif
    }
    static inline uint64_t patience_digest(const uint8_t* key, Py_ssize_t size) {
        uint64_t value = 0x243F6A8885A308D3ULL ^ (uint64_t)size;
        uint64_t word;
        Py_ssize_t at = 0;
        for (; at + 8 <= size; at += 8) {
            memcpy(&word, key + at, 8);
            value = patience_fold(value ^ word, 0x9E3779B97F4A7C15ULL);
        }
        if (at < size) {
            word = 0;
            memcpy(&word, key + at, (size_t)(size - at));
            value = patience_fold(value ^ word, 0x9E3779B97F4A7C15ULL);
        }
        value = patience_fold(value ^ 0x6A09E667F3BCC909ULL, 0xBB67AE8584CAA73BULL);
        return value ? value : 1;
    }
    """
    uint64_t patience_fold(uint64_t a, uint64_t b) nogil
    uint64_t patience_digest(const uint8_t* key, Py_ssize_t size) nogil


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

    cdef bint contains(self, uint64_t digest) noexcept
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

    cdef bint get(self, uint64_t digest, int32_t* value) noexcept
    cdef bint put(self, uint64_t digest, int32_t value) noexcept
    cdef void keep_only(self, const uint64_t* pinned, Py_ssize_t count) noexcept
    cdef bint _grow(self, bint force) noexcept
