# What other compiled modules call of the compiled engine (solver/_search.pyx): one search of a
# full-information state, for the orders of a face-down stock (solver/_chance.pyx).

from libc.stdint cimport int64_t

from solver._protocol cimport Kernel
from solver._table cimport DigestSet


cdef int search_state(
    Kernel kernel, bytes start, DigestSet table, object max_nodes, object max_seconds, object restart_nodes,
    int64_t* nodes, list line,
) except -1
