"""Writing what a command produces (exports, plots, replay pages) without ever leaving half a
file (a temporary file beside the target, renamed over it once complete), nor writing over a file
the command reads; and any file name looked up (:func:`status`), a name the system cannot look up
refused as one the user can fix."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, cast

from solver.errors import SYSTEM_REFUSALS, OutputError, SurveyError
from solver.service.printing import Whole


def status(path: Path, given_to: str = "") -> os.stat_result | None:
    """The status of the file ``path`` names, None if there is none; a name the system cannot
    look up (too long, a NUL in it, a directory that may not be searched) is refused, naming the
    option it was ``given_to`` if any."""
    try:
        return path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as error:
        name = str(path) if len(str(path)) <= 60 else f"{str(path)[:40]}... ({len(str(path))} characters)"
        fix = SYSTEM_REFUSALS.get(error.errno or 0, "give another name") if isinstance(error, OSError) else _NUL_FIX
        given = given_to + " " if given_to else ""
        reason = getattr(error, "strerror", None) or error
        raise SurveyError(f"{given}{name!r}: cannot look this file name up ({reason}); {fix}") from None


#: A name with a NUL character in it (a ValueError, not the system's refusal).
_NUL_FIX = "give a name without a NUL character"


def check_writable(inputs: Sequence[Path], targets: dict[str, str | None], inputs_are: str) -> None:
    """Refuse the files a command is asked to write (by option name; None: not asked for, ``-``:
    standard output) that would overwrite one of its ``inputs`` (``inputs_are``: what they are,
    in words), each other, or cannot be written -- before anything is written: a command never
    alters a file it reads."""
    taken: dict[Path, str] = {}
    for option, target in targets.items():
        if target is None or target == "-":
            continue
        if not target:
            raise OutputError(f"{option} '' is an empty file name: give a file name")
        path = Path(target)
        found, parent = status(path, option), status(path.parent, option)
        if any(_same_file(path, given) for given in inputs):
            raise OutputError(f"{option} {target} would overwrite {inputs_are}: give another file name")
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise OutputError(f"{option} {target} is a directory: give a file name")
        if parent is None or not stat.S_ISDIR(parent.st_mode):
            raise OutputError(f"{option} {target}: there is no directory {path.parent}")
        for other, other_option in taken.items():
            if _same_file(path, other):
                raise OutputError(f"{other_option} and {option} both write to {target}: give each its own file")
        taken[path] = option
    to_stdout = [option for option, target in targets.items() if target == "-"]
    if len(to_stdout) > 1:
        raise OutputError(f"{' and '.join(to_stdout)} both write to standard output: send one of them to a file")


def _same_file(path: Path, other: Path) -> bool:
    """Whether two names are one file (the same path, or links to one file)."""
    if path.absolute() == other.absolute() or path.resolve() == other.resolve():
        return True
    return path.exists() and other.exists() and os.path.samefile(path, other)


@contextmanager
def replacing(target: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``target`` to: standard output for ``-``; a device or pipe (``/dev/stdout``)
    as it is; otherwise a temporary file beside it, renamed over it once complete, so that a
    failed export leaves no half-written file (the file a symbolic link names is replaced)."""
    if target == "-":  # each row, document or figure written whole: a Ctrl-C cuts none
        yield cast(IO[Any], Whole(sys.stdout.buffer if binary else sys.stdout))
        return
    found, path = status(Path(target)), Path(target).resolve()
    temporary: Path | None = None
    try:
        if found is not None and not stat.S_ISREG(found.st_mode):
            with _opened(os.open(target, os.O_WRONLY), binary) as out:
                yield out
            return
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        temporary = Path(name)
        with _opened(handle, binary) as out:
            yield out
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror}; it was left as it was") from None
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)


def _opened(handle: int, binary: bool) -> IO[Any]:
    """A file object over an open descriptor: bytes, or UTF-8 text with lines as written."""
    return os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", newline="", encoding="utf-8")


def _mode_for(path: Path) -> int:
    """The permissions of the file an export replaces, or those a new file gets (the umask's)."""
    if path.exists():
        return path.stat().st_mode & 0o7777
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
