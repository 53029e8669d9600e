"""Writing what a command produces (exports, plots, replay pages) without ever leaving half a
file: a temporary file beside the target, renamed over it once complete."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from solver.service.errors import OutputError
from solver.service.store import status


@contextmanager
def replacing(target: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``target`` to: standard output for ``-``; a device or pipe (``/dev/stdout``)
    as it is; otherwise a temporary file beside it, renamed over it once complete, so that a
    failed export leaves no half-written file (the file a symbolic link names is replaced)."""
    if target == "-":
        yield sys.stdout.buffer if binary else sys.stdout
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
