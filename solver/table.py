"""Transposition tables: 60-bit xxh3 digests of layout keys, held to a memory bound.

Two kinds: :class:`TranspositionTable`, the set of layouts a search has searched, and
:class:`ValueTable`, a number per layout (the cost IDA* entered it at, or a proven floor on its
score). The tables of one search share one :class:`TableMemory`: its bound and what they used.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

import xxhash

DIGEST_MASK = (1 << 60) - 1
#: Bytes one stored digest costs: the int object (32 bytes below 2**60) plus its set slot share.
BYTES_PER_ENTRY = 72

Entries = TypeVar("Entries", set[int], dict[int, int])


def digest(layout_key: bytes) -> int:
    """The table's name for a layout: its xxh3 64-bit hash cut to 60 bits (a compact Python int)."""
    return xxhash.xxh3_64_intdigest(layout_key) & DIGEST_MASK


class TableMemory:
    """The memory bound shared by the tables of one search, and the most they held."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.evictions = 0
        self.peak_entries = 0
        self.peak_bytes = 0
        self._lent: Callable[[], int] = _nothing

    def lend(self, holder: Callable[[int | None], Callable[[], int]]) -> None:
        """Give a quarter of the bound (None when unbounded) to another holder of memory, a
        cost bound's cache: ``holder`` keeps within what it is given and returns how to measure
        what it holds, which the peak then counts. Call it before making the tables."""
        share = None
        if self.max_bytes is not None:
            share = self.max_bytes // 4
            self.max_bytes -= share
        self._lent = holder(share)

    def capacity(self, per_entry: int) -> int | None:
        """How many entries of ``per_entry`` bytes fit the bound (None: unbounded)."""
        return None if self.max_bytes is None else max(16, self.max_bytes // per_entry)

    def note(self, entries: set[int] | dict[int, int]) -> None:
        """Record the size of ``entries`` if it is the largest so far, and the most bytes held,
        what is lent out (see :meth:`lend`) included."""
        size = len(entries)
        if size > self.peak_entries:
            self.peak_entries = size
        self.peak_bytes = max(self.peak_bytes, sys.getsizeof(entries) + 32 * size + self._lent())


def _nothing() -> int:
    """The bytes lent out before anything is lent: none."""
    return 0


class _Table(Generic[Entries]):
    """Digests in a container that may hold at most ``capacity`` of them.

    When full, every entry is dropped except the pinned ones (the states on the current search
    path), so a search stays correct (it may only search a state again) and bounded. The search's
    hot loop reads and writes ``entries`` directly.
    """

    entries: Entries

    def __init__(self, memory: TableMemory, per_entry: int) -> None:
        self.memory = memory
        self.capacity = memory.capacity(per_entry)

    def __contains__(self, entry: int) -> bool:
        return entry in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def room(self) -> float:
        """How many entries may still be added before the table is full."""
        return float("inf") if self.capacity is None else self.capacity - len(self.entries)

    def full(self) -> bool:
        """Whether the memory bound is reached (checked by the search between insertions)."""
        return self.room() <= 0

    def evict(self, pinned: Iterable[int]) -> None:
        """Drop every entry but the pinned ones, recording the size reached first."""
        self.note_size()
        self.entries = self._only(pinned)
        self.memory.evictions += 1

    def _only(self, pinned: Iterable[int]) -> Entries:
        raise NotImplementedError

    def note_size(self) -> None:
        """Record the current size if it is the largest so far."""
        self.memory.note(self.entries)


class TranspositionTable(_Table[set[int]]):
    """The layouts a search has searched (or is searching: the states on its path)."""

    def __init__(self, memory: TableMemory | None = None) -> None:
        super().__init__(memory or TableMemory(), BYTES_PER_ENTRY)
        self.entries = set()

    def _only(self, pinned: Iterable[int]) -> set[int]:
        return set(pinned)


class ValueTable(_Table[dict[int, int]]):
    """A number per layout, by digest: the cost IDA* entered it at, or a proven score floor."""

    def __init__(self, memory: TableMemory | None = None) -> None:
        super().__init__(memory or TableMemory(), 2 * BYTES_PER_ENTRY)
        self.entries = {}

    def _only(self, pinned: Iterable[int]) -> dict[int, int]:
        return {entry: self.entries[entry] for entry in pinned}
