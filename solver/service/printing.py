"""Writing what a command prints whole or not at all: a record (a --json line, a deal's printout,
a CSV row), cut by Ctrl-C while a slow reader drained it, would reach a reader that reads records
line by line half written. Kept light: the console script uses it for every answer it prints."""

from __future__ import annotations

import os
import stat
import time
from typing import IO, Any

#: How long a record whose writing a Ctrl-C interrupted may take to finish, its reader not reading.
FINISH_SECONDS = 10.0


def write_whole(stream: IO[Any], data: str | bytes) -> None:
    """Write ``data`` to ``stream`` whole, or not at all. A Ctrl-C (or SIGTERM) while it is written
    to a pipe its reader drains slowly waits for the rest (up to :data:`FINISH_SECONDS`), one before
    its first byte leaves it unwritten; either way it is then raised."""
    stream.flush()  # what was written before goes first
    try:
        descriptor = stream.fileno()
        kind = os.fstat(descriptor).st_mode
    except (AttributeError, ValueError, OSError):  # not a real file (a test's capture): as it is
        stream.write(data)
        return
    if isinstance(data, str):
        data = data.encode(getattr(stream, "encoding", None) or "utf-8", getattr(stream, "errors", None) or "strict")
    if not (stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind)):  # a file or a terminal: never waits long
        while data:
            data = data[os.write(descriptor, data) :]
        return
    import _signal  # type: ignore[import-not-found]  # (not signal, whose enums take 0.7 ms to load)
    import select

    stops = {_signal.SIGINT, _signal.SIGTERM}
    # Held back while the record is written (the handler would otherwise raise between a write
    # and the count of what it wrote); delivered, and raised, when the mask is restored.
    before = _signal.pthread_sigmask(_signal.SIG_BLOCK, stops)
    try:
        done, deadline = 0, None
        while done < len(data):
            if deadline is None and stops & _signal.sigpending():
                if not done:
                    break  # nothing of it written: not at all
                deadline = time.monotonic() + FINISH_SECONDS
            if deadline is not None and time.monotonic() > deadline:
                break  # the reader reads no more: the stop comes first
            _, writable, _ = select.select([], [descriptor], [], 0.1)
            if writable:  # a pipe then takes PIPE_BUF bytes without waiting
                done += os.write(descriptor, data[done : done + select.PIPE_BUF])
    finally:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, before)


class Whole:
    """A stream each of whose writes is written whole (:func:`write_whole`): standard output as
    an export writes it, one CSV row or one document a write."""

    def __init__(self, stream: IO[Any]) -> None:
        self.stream = stream

    def write(self, data: str | bytes) -> int:
        write_whole(self.stream, data)
        return len(data)

    def flush(self) -> None:
        self.stream.flush()
