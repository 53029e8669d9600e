# What other compiled modules call of the compiled engine (solver/_search.pyx): its clock, and one
# search of a full-information state, for a face-down stock (solver/_chance.pyx).

from libc.stdint cimport int64_t

from solver._protocol cimport Kernel
from solver._table cimport DigestSet


# How a run ended (solver.search._Run's verdict; CUT is None there: its restart cap cut it): what
# search_state answers.
cdef enum:
    WON = 0
    LOST = 1
    UNKNOWN = 2
    CUT = 3


# The process's CPU seconds (the clock of every limit of the compiled searches).
cdef double _cpu_seconds() noexcept


cdef int search_state(
    Kernel kernel, bytes start, DigestSet table, object max_nodes, object max_seconds, object restart_nodes,
    int64_t* nodes, list line, double clock=*,
) except -1
