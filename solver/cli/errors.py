"""How every command ends: its exit codes, and the one line on stderr for bad input, a bug, an
interruption or a closed pipe (no traceback unless asked for with ``--debug``).

Kept light (no argparse, no rulesets), so that the console script can use it before anything
heavy is imported.
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Sequence
from enum import IntEnum

from solver.errors import SYSTEM_REFUSALS, UsageError, UserError

__all__ = ["ExitCode", "UsageError", "report", "say"]  # UsageError: defined in solver.errors, raised here

#: The environment variable that, set to anything but 0, shows the traceback of an internal error.
DEBUG_VARIABLE = "PATIENCE_DEBUG"
#: A word of a message longer than this (a pasted file, a 100 000-character name) is shown cut.
LONGEST_WORD = 200
#: The refusals a write to a stream meets (the others are about a file's name or permissions).
_WRITE_REFUSALS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class ExitCode(IntEnum):
    """The documented exit codes (docs/cli.md, "Exit codes"; the README sums them up)."""

    OK = 0
    INVALID = 1  # verify: a move is illegal, or the record claims what its moves do not bear out
    BAD_INPUT = 2  # bad input: nothing more was done after the error line
    BAD_LINES = 3  # some deals of a --file were bad (each named); the others were answered
    LOST = 4  # with --verdict-code: a deal was lost, none unknown
    UNKNOWN = 5  # with --verdict-code: a deal was left unknown by a limit
    INTERNAL = 70  # a bug: please report it
    RUN_LOST = 75  # survey: the Dask scheduler or a worker process went away; rerunning carries on
    INTERRUPTED = 130  # Ctrl-C: what was printed stands
    PIPE_CLOSED = 141  # standard output was closed early (say, by head): the rest is not printed


def one_line(text: str) -> str:
    """``text`` on a single line, each over-long word cut (a message must stay one readable line,
    whatever it quotes)."""
    line = " ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return re.sub(rf"(['\"]?)(\S{{{LONGEST_WORD + 1},}}?)([:;,.'\")\]]*)(?=\s|$)", _cut, line)


def _cut(word: re.Match[str]) -> str:
    """An over-long word: the quote that opened it, its start and its length (the quotes not
    counted), then the punctuation that ended it."""
    return f"{word[1]}{word[2][:40]}... ({len(word[2])} characters){word[3]}"


def say(message: str) -> None:
    """Write one line to stderr, after whatever stdout holds, so the two read in order."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    try:
        sys.stderr.write(one_line(message) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr is full or gone: nowhere to say it; the exit code still tells
        pass


def print_whole(text: str) -> None:
    """Print ``text`` and its line end whole, or not at all (see
    :func:`solver.service.printing.write_whole`): a reader reading records line by line never gets
    a cut one. (Interrupted, ``print`` left a record without its line end.)"""
    from solver.service.printing import write_whole

    write_whole(sys.stdout, text + "\n")


def debugging() -> bool:
    """Whether PATIENCE_DEBUG asks for the traceback of an internal error."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def report(error: BaseException, debug: bool = False, named: Sequence[str] = ()) -> int:
    """Say what ``error`` means to the user in one line, and return the exit code it calls for.
    ``named``: the command line's words, so that a file the system refuses counts as bad input
    only if the user named it."""
    if isinstance(error, KeyboardInterrupt):
        return interrupted()
    if isinstance(error, BrokenPipeError):
        return pipe_closed()
    if isinstance(error, UserError):
        say(f"patience: error: {error}")
        return ExitCode.BAD_INPUT
    refused = _refused(error, named) if isinstance(error, OSError) else None
    if refused is not None:
        say(f"patience: error: {refused}")
        return ExitCode.BAD_INPUT
    if debug or debugging():
        import traceback  # here, not at the top: loading it took about 0.7 ms of every start

        traceback.print_exception(error)
    hint = "" if debug or debugging() else f"; rerun with --debug or {DEBUG_VARIABLE}=1 for the traceback"
    say(f"patience: internal error: {type(error).__name__}: {error} (a bug: please report it{hint})")
    return ExitCode.INTERNAL


def _refused(error: OSError, named: Sequence[str]) -> str | None:
    """What the system refused (a full disk, too long a name, no permission, ...) and its fix, when
    it refused standard output or a file the user named; None otherwise: an error of another kind,
    or about another file, is a bug, not the user's doing."""
    fix = SYSTEM_REFUSALS.get(error.errno or 0)
    if fix is None:
        return None
    if error.filename is None:  # a write that names no file: standard output, the one stream written
        if error.errno not in _WRITE_REFUSALS:
            return None
        return f"cannot use standard output: {error.strerror}; {fix}"
    name = os.fsdecode(error.filename)
    if not any(name in (word, word.partition("=")[2]) for word in named):
        return None
    return f"cannot use {name}: {error.strerror}; {fix}"


def interrupted() -> int:
    """Ctrl-C: one line (a second Ctrl-C is ignored while it is written), exit code 130."""
    import signal  # here, not at the top: loading it (its enums) took about 0.7 ms of every start

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        say("patience: interrupted (what was printed stands)")
    except BrokenPipeError:
        pipe_closed()
    return ExitCode.INTERRUPTED


def pipe_closed() -> int:
    """Standard output was closed by its reader: end quietly, and keep Python from complaining
    when it flushes stdout on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing will complain
    return ExitCode.PIPE_CLOSED
