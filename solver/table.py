"""The transposition table: 60-bit xxh3 digests of layout keys in a memory-bounded set."""

from __future__ import annotations

import sys
from typing import Iterable

import xxhash

DIGEST_MASK = (1 << 60) - 1
#: Bytes one stored digest costs: the int object (32 bytes below 2**60) plus its set slot share.
BYTES_PER_ENTRY = 72


def digest(layout_key: bytes) -> int:
    """The table's name for a layout: its xxh3 64-bit hash cut to 60 bits (a compact Python int)."""
    return xxhash.xxh3_64_intdigest(layout_key) & DIGEST_MASK


class TranspositionTable:
    """States already searched, by digest (with the cost they were reached at, for IDA*),
    holding at most ``max_bytes`` of memory.

    When full, every entry is dropped except the pinned ones (the states on the current search
    path), so the search stays correct (it may only search a state again) and bounded.
    """

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.evictions = 0
        self.peak_entries = 0
        self.peak_bytes = 0
        self.entries: set[int] | dict[int, int] = set()
        self.capacity = self._capacity(BYTES_PER_ENTRY)

    def clear(self, with_costs: bool = False) -> None:
        """Drop every entry (recording the size reached first), and hold costs from now on if
        asked; the peak and the eviction count stay."""
        self.note_size()
        self.entries = {} if with_costs else set()
        self.capacity = self._capacity(BYTES_PER_ENTRY * 2 if with_costs else BYTES_PER_ENTRY)

    def _capacity(self, per_entry: int) -> int | None:
        return None if self.max_bytes is None else max(16, self.max_bytes // per_entry)

    def __contains__(self, entry: int) -> bool:
        return entry in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def full(self) -> bool:
        """Whether the memory bound is reached (checked by the search between insertions)."""
        return self.capacity is not None and len(self.entries) >= self.capacity

    def evict(self, pinned: Iterable[int]) -> None:
        """Drop every entry but the pinned ones, recording the size reached first."""
        self.note_size()
        if isinstance(self.entries, dict):
            self.entries = {entry: self.entries[entry] for entry in pinned}
        else:
            self.entries = set(pinned)
        self.evictions += 1

    def note_size(self) -> None:
        """Record the current size if it is the largest so far."""
        size = len(self.entries)
        if size > self.peak_entries:
            self.peak_entries = size
            self.peak_bytes = sys.getsizeof(self.entries) + 32 * size
