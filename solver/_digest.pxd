# The compiled engine's digest of a layout key (the Python engine's is xxh3, in solver/table.py).

from libc.stdint cimport uint8_t, uint64_t

cdef extern from *:
    """
    #include <string.h>
    /* The digest of a layout key, written for this project. The key's 8-byte words go
       alternately into two running values (so that two multiplications are in flight at once),
       each word folded in by one multiplication: the two halves of the 128-bit product xored
       together. The two values are then folded into each other and once more, so every bit of
       the key reaches every bit of the digest. The constants are the fractional parts of the
       golden ratio, pi, sqrt(2), sqrt(3) and sqrt(5). 0 is never a digest: it marks an empty
       slot of a table. */
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
        uint64_t left = 0x243F6A8885A308D3ULL ^ (uint64_t)size, right = 0x13198A2E03707344ULL;
        uint64_t word;
        Py_ssize_t at = 0;
        for (; at + 16 <= size; at += 16) {
            memcpy(&word, key + at, 8);
            left = patience_fold(left ^ word, 0x9E3779B97F4A7C15ULL);
            memcpy(&word, key + at + 8, 8);
            right = patience_fold(right ^ word, 0x3C6EF372FE94F82BULL);
        }
        if (at + 8 <= size) {
            memcpy(&word, key + at, 8);
            left = patience_fold(left ^ word, 0x9E3779B97F4A7C15ULL);
            at += 8;
        }
        if (at < size) {
            /* The last 1 to 7 bytes, read as the key's last 8 bytes shifted down (a fixed-size
               load: a memcpy of a variable size was a call, a third of the digest's time). */
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (size >= 8) {
                memcpy(&word, key + size - 8, 8);
                word >>= 8 * (8 - (size - at));
            } else
    #endif
            {
                word = 0;
                for (Py_ssize_t byte = size - 1; byte >= at; byte--) word = word << 8 | key[byte];
            }
            right = patience_fold(right ^ word, 0x3C6EF372FE94F82BULL);
        }
        uint64_t value = patience_fold(left ^ 0x6A09E667F3BCC909ULL, right ^ 0xBB67AE8584CAA73BULL);
        value = patience_fold(value, 0x9E3779B97F4A7C15ULL);
        return value ? value : 1;
    }
    """
    uint64_t patience_fold(uint64_t a, uint64_t b) nogil
    uint64_t patience_digest(const uint8_t* key, Py_ssize_t size) nogil
