"""The deals a survey hands its workers: pending seeds or lines cut into chunks sized to the time
they take (:class:`Chunker`), and a stream of deals read by a thread as it comes and held to the
lines the survey file holds (:class:`Stream`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from solver.service.deal_file import DealFile
from solver.surveys.resume import changed_file
from solver.surveys.store import Store
from solver.surveys.work import Batch, RunTally


class Stream:
    """The deals of a stream (a pipe, a terminal) as they come: read by a thread of their own, so
    that the deals read are solved and stored while the next are awaited (read whole first, an
    endless one grew without bound and nothing was solved). Each deal read is held to the survey
    file's lines: the same deal on a line the file holds (skipped if stored), a deal after them
    only where the surveyed stream was cut short. A bad or changed line ends the stream: the deals
    read before it are still solved and stored, then :attr:`error` is raised."""

    #: How many deals read may wait to be solved (the stream's writer then waits).
    WAITING = 10000

    def __init__(self, deals: DealFile, store: Store, tally: RunTally) -> None:
        self.name, self.store, self.tally = deals.name, store, tally
        self.first = list(deals.deals)
        self.error: Exception | None = None
        self.ended = False
        self.queue: queue.Queue[Any] = queue.Queue(self.WAITING)
        self.surveyed: list[tuple[int, str, str | None]] = []  # the file's lines, read ahead in blocks
        self.after = 0  # the last line of the file read so far
        self.beyond = False  # past the last of the file's lines the survey held
        assert deals.more is not None, "a stream has more deals to come"
        threading.Thread(target=self._read, args=(deals.more,), daemon=True).start()

    def _read(self, more: Iterator[tuple[int, str]]) -> None:
        try:
            for deal in more:
                self.queue.put(deal)
        except Exception as error:  # a bad line, a stream that is not text: raised where it is taken
            self.queue.put(error)
        else:
            self.queue.put(None)

    def ready(self) -> bool:
        """Whether a deal (or the end) can be taken without waiting."""
        return bool(self.first) or not self.queue.empty()

    def take(self, block: bool) -> tuple[int, str] | None:
        """The next deal to solve; None if none is ready (``block``: wait for one) or at the end."""
        while not self.ended:
            if self.first:
                found = self.first.pop(0)
            else:
                try:
                    found = self.queue.get(block=block)
                except queue.Empty:
                    return None
            if isinstance(found, Exception) or found is None:
                self._end(found)
                return None
            if self._new(found):
                return found
        return None

    def _new(self, deal: tuple[int, str]) -> bool:
        """Hold a deal read to the survey's lines: whether it is still to be solved (the tally
        counts the deals the survey holds, stored or not, and each new one read)."""
        line, cards = deal
        while not self.beyond:
            if not self.surveyed:
                self.surveyed = self.store.surveyed_lines(self.after)[::-1]
                self.beyond = not self.surveyed
            if not self.surveyed or self.surveyed[-1][0] > line:
                break
            was, was_cards, result = self.surveyed.pop()
            if was < line:  # a deal the surveyed file had on a line that now has none
                return self._changed((was, was_cards), deal)
            self.after = line
            if was_cards != cards:
                return self._changed((was, was_cards), deal)
            return result is None
        if self.surveyed or not self.store.lines_open:  # a deal where the surveyed file had none
            return self._changed(None, deal)
        self.after = line  # beyond the deals of a stream cut short: a new one
        self.store.read_line(line, cards)
        self.tally.total += 1
        return True

    def _changed(self, was: tuple[int, str] | None, now: tuple[int, str] | None) -> bool:
        self._end(changed_file(self.store.path, self.name, was, now=now))
        return False

    def _end(self, error: Exception | None) -> None:
        """The stream ended, or stopped at ``error``; at its end, the file's lines must all have
        been read again, and are then complete."""
        self.ended = True
        if error is None:
            rest = self.surveyed[-1:] or ([] if self.beyond else self.store.surveyed_lines(self.after, 1))
            if rest:
                error = changed_file(self.store.path, self.name, rest[-1][:2], now=None)
        if error is None:
            self.store.end_of_lines()
        self.error = error


class Chunker:
    """Splits the pending deals (seeds, or a file's lines) into chunks sized to take about
    ``target`` seconds each; of a stream, the deals ready, never waiting for a whole chunk."""

    def __init__(self, pending: Iterator[Any] | Stream, target: float, first: int = 2, *, most: int = 500) -> None:
        self.pending, self.target, self.size, self.most = pending, target, first, most
        self.per_deal: float | None = None
        self.exhausted = False
        #: How long a wait for finished work may take before the stream is looked at again.
        self.poll = 0.1 if isinstance(pending, Stream) else None

    def learn(self, batch: Batch) -> None:
        if batch.rows:
            mean = batch.seconds() / len(batch.rows) + 0.0002
            self.per_deal = mean if self.per_deal is None else 0.7 * self.per_deal + 0.3 * mean
            self.size = max(1, min(self.most, int(self.target / self.per_deal)))

    def ready(self) -> bool:
        """Whether a chunk can be had without waiting (always, but of a stream)."""
        return not isinstance(self.pending, Stream) or self.pending.ready()

    def next(self, block: bool = True) -> list[Any]:
        """The next chunk: empty once every deal is taken (or, not ``block``ing, if a stream has
        none ready)."""
        chunk: list[Any] = []
        while len(chunk) < self.size and not self.exhausted:
            if isinstance(self.pending, Stream):
                deal = self.pending.take(block and not chunk)
                self.exhausted = self.pending.ended
            else:
                deal = next(self.pending, None)
                self.exhausted = deal is None
            if deal is None:
                break
            chunk.append(deal)
        return chunk
