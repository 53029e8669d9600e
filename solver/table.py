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
#: Bytes of the int object a digest is (below 2**60), which each entry holds beside its slot.
INT_BYTES = 32
_EMPTY_SET = sys.getsizeof(set())  # its first 8 slots are inside the object
_SET_SLOT = 16  # a hash and a pointer
_EMPTY_DICT = sys.getsizeof({})  # an empty dict shares one empty table
_DICT_ENTRY = 24  # a hash and two pointers, in each usable slot
_DICT_TABLE = sys.getsizeof({0: 0}) - _EMPTY_DICT - 8 - 5 * _DICT_ENTRY  # the table's own header

Entries = TypeVar("Entries", set[int], dict[int, int])


def digest(layout_key: bytes) -> int:
    """The table's name for a layout: its xxh3 64-bit hash cut to 60 bits (a compact Python int)."""
    return xxhash.xxh3_64_intdigest(layout_key) & DIGEST_MASK


def set_bytes(size: int) -> int:
    """The most bytes a set that never held more than ``size`` entries can take (their objects
    apart), whatever was removed: CPython resizes a set to the least power of two above 4 times
    its entries (2 times past 50,000), and once entries were removed it may resize at any size."""
    slots = max(_power_of_two_above(4 * min(size, 50_000)), _power_of_two_above(2 * size))
    return _EMPTY_SET + (_SET_SLOT * slots if slots > 8 else 0)


def set_peak_bytes(size: int) -> int:
    """The most bytes a set that never held more than ``size`` entries holds at once (their
    objects apart): while it resizes, CPython keeps the old slots beside the new ones until every
    entry has moved, and once entries were removed either may be as large as :func:`set_bytes`
    allows (a resize may then keep the size)."""
    return 2 * set_bytes(size) - _EMPTY_SET


def dict_bytes(size: int) -> int:
    """The bytes of a dict ``size`` keys were put in, none removed (their objects apart): CPython
    doubles its slots, from 8, when two thirds are used; a slot has a 1- to 8-byte index, and
    each usable one an entry."""
    return _EMPTY_DICT if size == 0 else _EMPTY_DICT + _dict_table(_dict_slots(size))


def dict_peak_bytes(size: int) -> int:
    """The most bytes a dict ``size`` keys were put in, none removed, holds at once (their
    objects apart): :func:`dict_bytes`, with the table it last grew from, held beside the new one
    while the entries moved over."""
    slots = _dict_slots(size)
    return dict_bytes(size) + (_dict_table(slots // 2) if slots > 8 else 0)


def _dict_slots(size: int) -> int:
    """The slots of a dict ``size`` keys were put in (at least 8)."""
    slots = 8
    while 2 * slots // 3 < size:
        slots *= 2
    return slots


def _dict_table(slots: int) -> int:
    """The bytes of a dict's table of ``slots`` slots: its header, the indexes, an entry per
    usable slot."""
    index = 1 if slots <= 1 << 7 else 2 if slots <= 1 << 15 else 4 if slots <= 1 << 31 else 8
    return _DICT_TABLE + index * slots + _DICT_ENTRY * (2 * slots // 3)


def object_bytes(item: object) -> int:
    """The bytes the allocator gives an object: its size rounded up to 16, the step of CPython's
    small-object allocator on 64-bit builds."""
    return -(-sys.getsizeof(item) // 16) * 16


def _power_of_two_above(number: int) -> int:
    """The least power of two above ``number`` and at least 8 (a set's least size)."""
    return max(8, 1 << number.bit_length())


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

    def capacity(self, container_bytes: Callable[[int], int]) -> int | None:
        """How many entries fit the bound (None: unbounded) in a container that takes
        ``container_bytes(n)`` at most while holding ``n``, their ints counted too: the largest
        the container grows to must fit, not only its average (a set just grown is 4 times what
        it holds)."""
        if self.max_bytes is None:
            return None
        fits, too_many = 0, self.max_bytes // INT_BYTES + 1
        while too_many - fits > 1:
            middle = (fits + too_many) // 2
            if container_bytes(middle) + INT_BYTES * middle <= self.max_bytes:
                fits = middle
            else:
                too_many = middle
        return max(16, fits)

    def note(self, entries: set[int] | dict[int, int]) -> None:
        """Record the size of ``entries`` if it is the largest so far, and the most bytes held,
        what is lent out (see :meth:`lend`) included."""
        size = len(entries)
        if size > self.peak_entries:
            self.peak_entries = size
        self.peak_bytes = max(self.peak_bytes, sys.getsizeof(entries) + INT_BYTES * size + self._lent())


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

    def __init__(self, memory: TableMemory, container_bytes: Callable[[int], int]) -> None:
        self.memory = memory
        self.capacity = memory.capacity(container_bytes)

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
        super().__init__(memory or TableMemory(), set_peak_bytes)
        self.entries = set()

    def _only(self, pinned: Iterable[int]) -> set[int]:
        return set(pinned)


class ValueTable(_Table[dict[int, int]]):
    """A number per layout, by digest: the cost IDA* entered it at, or a proven score floor."""

    def __init__(self, memory: TableMemory | None = None) -> None:
        super().__init__(memory or TableMemory(), dict_peak_bytes)
        self.entries = {}

    def _only(self, pinned: Iterable[int]) -> dict[int, int]:
        return {entry: self.entries[entry] for entry in pinned}
