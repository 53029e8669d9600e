"""Reading what the user points a command (or the Python API) at: a file, or standard input written ``-``.

Text is read as editors write it: UTF-8 with or without a byte-order mark, lines ending in LF or
CRLF. What is not text (a NUL byte, bytes that are not UTF-8, a line longer than any this program
writes) is refused in one line naming the file and the line, before it can fill the memory.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from solver.errors import InputError

STDIN = "-"
#: The longest line read (a deal or a move line is a few hundred characters at most).
MAX_LINE = 64 * 1024
#: The most text read whole (a solution file or a deal).
MAX_TEXT = 16 * 1024 * 1024


def name_of(source: str) -> str:
    """How a message names the file ``source``: standard input for ``-``, '' for no name at all."""
    return "standard input" if source == STDIN else source or "''"


def is_stream(source: str) -> bool:
    """Whether ``source`` (``-``: standard input) is read as it comes (a pipe, a terminal, a
    socket) rather than a file of a known size (a file that cannot be looked at is not: opening it
    says why)."""
    try:
        if source == STDIN:
            if sys.stdin is None:
                return False
            mode = os.fstat(sys.stdin.buffer.fileno()).st_mode
        else:
            mode = os.stat(source).st_mode
    except (AttributeError, OSError, ValueError):  # (a test's stand-in for standard input: a file)
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def text_lines(source: str, what: str) -> Iterator[str]:
    """The lines of the file ``source`` (or standard input), without their line ends, each read
    only when asked for, so that an endless input is answered as it comes."""
    with _opened(source, what) as stream:
        for number in range(1, sys.maxsize):
            raw = stream.readline(MAX_LINE + 2)  # the longest line, and its CRLF
            if not raw:
                return
            if len(raw.rstrip(b"\r\n") if raw.endswith(b"\n") else raw) > MAX_LINE:
                raise InputError(
                    f"{what} {name_of(source)}: line {number} is longer than {MAX_LINE} bytes; is it a text file?"
                )
            yield _decoded(raw, source, what, number=number).rstrip("\r\n")


def read_text(source: str, what: str) -> str:
    """The whole text of the file ``source`` (or standard input), up to :data:`MAX_TEXT` bytes."""
    with _opened(source, what) as stream:
        raw = stream.read(MAX_TEXT + 1)
    if len(raw) > MAX_TEXT:
        raise InputError(f"{what} {name_of(source)} is larger than {MAX_TEXT // 2**20} MiB; is it the right file?")
    lines = raw.splitlines(keepends=True) or [b""]
    return "".join(_decoded(line, source, what, number=number) for number, line in enumerate(lines, 1))


def without_bom(text: str) -> str:
    """Text given on the command line, without the byte-order mark a pasted text may carry."""
    return text.removeprefix("\ufeff")


def _decoded(raw: bytes, source: str, what: str, *, number: int) -> str:
    """One line of ``source`` as text (its byte-order mark dropped on line 1), or a InputError."""
    if b"\0" in raw:
        raise InputError(f"{what} {name_of(source)}: line {number} holds a NUL byte; it is not a text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} {name_of(source)}: line {number} is not UTF-8 text; save the file as UTF-8") from None
    return without_bom(text) if number == 1 else text


@contextmanager
def _opened(source: str, what: str) -> Iterator[BinaryIO]:
    """The file opened for reading bytes (standard input for ``-``, left open), or a InputError
    saying why it cannot be."""
    try:
        if source == STDIN:
            if sys.stdin is None:
                raise InputError(f"cannot read {what} from standard input: it is closed")
            try:
                descriptor = os.dup(sys.stdin.buffer.fileno())
            except (AttributeError, ValueError):  # not a real file (a test's stand-in): read as it is
                yield sys.stdin.buffer
                return
            # A reader of its own: a survey reads a stream in a thread, which may still wait on it
            # when the program ends, and Python's own sys.stdin must then not be held (a fatal
            # error at exit: "could not acquire lock for <stdin> at interpreter shutdown").
            with open(descriptor, "rb") as stream:
                yield stream
            return
        with open(source, "rb") as stream:
            yield stream
    except OSError as error:  # opening or reading: the reads are the only code run in the block
        fix = "name a file, not a directory" if isinstance(error, IsADirectoryError) else "give a file that can be read"
        raise InputError(f"cannot read {what} {name_of(source)}: {error.strerror or error}; {fix}") from None
