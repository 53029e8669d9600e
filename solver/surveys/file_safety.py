"""The survey file on disk, kept safe from what the file system can do to it: a name that cannot
be looked up, a symbolic link (a file is opened by its real path: SQLite keeps its last commits in
NAME-wal and NAME-shm beside the name it opens), a second hard link, a file that is not SQLite, two
runs writing one file (an ``flock``), a half-made file (made whole under a temporary name, then
linked into place), a read-only or full disk; and the failures of SQLite and the system said as
what the user can do about them (:func:`fault`).
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from solver.errors import StoreFault, SurveyBusy, SurveyError
from solver.service.output import status

SQLITE_HEADER = b"SQLite format 3\x00"


def side_files(path: Path) -> tuple[Path, ...]:
    """The files SQLite keeps beside a database: its write-ahead log, shared memory and journal
    (none beside a name such as ``/`` or ``.``, a directory, which is refused as one)."""
    if not path.name:
        return ()
    return tuple(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal"))


def real_path(path: Path) -> Path:
    """The file ``path`` names, every symbolic link followed (a dangling link: the file it would
    make); the name itself if the system cannot look it up (:func:`~solver.service.output.status` then says why)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


def survey_header(name: Path, path: Path, fix: str = "", *, writing: bool = False) -> bytes:
    """The first bytes of the existing survey file ``path`` (named ``name`` by the user), once it
    is found a regular file, not empty, of one name, and an SQLite file (``fix``: what to add to
    the message refusing a file that is not a survey); ``writing``: this run holds its lock."""
    found = status(name)
    if found is None:
        raise SurveyError(f"{name}: no such survey file")
    if stat.S_ISDIR(found.st_mode):
        raise SurveyError(f"{name} is a directory, not a survey file")
    if not stat.S_ISREG(found.st_mode):  # SQLite reads files: a device reads as empty or endless
        raise SurveyError(f"{name} is a device, pipe or socket, not a survey file")
    if found.st_size == 0:
        raise SurveyError(f"{name} is empty, not a survey file{fix}")
    refuse_links(name, path, found)
    if not writing and (found.st_dev, found.st_ino) in _WRITING:
        # Being written by this process (by another Store): a survey file, in WAL mode. Not
        # opened here to read its header: closing a descriptor would drop the writer's POSIX locks.
        header = SQLITE_HEADER
    else:
        try:
            with open(path, "rb") as file:
                header = file.read(20)
        except OSError as error:
            raise SurveyError(f"cannot read {name}: {error.strerror}") from None
    if not header.startswith(SQLITE_HEADER):
        raise SurveyError(f"{name} is not a survey file (nor any SQLite file){fix}")
    return header


def refuse_links(name: Path, path: Path, found: os.stat_result) -> None:
    """Refuse a survey file with more than one hard link: SQLite keeps its last commits in a -wal
    file beside the name it was opened by, so under another name they are missed (a report counts
    too few deals, a resumed run solves them again) or a second -wal is begun beside them. A run
    linking a new file into place holds two names for a moment: that is waited for."""
    links = found.st_nlink
    for _ in range(50):
        if links <= 1 or not _temporaries(path):
            break
        time.sleep(0.02)
        try:
            links = path.stat().st_nlink
        except OSError:
            break
    if links > 1:
        raise SurveyError(
            f"{name} has {links} hard links (names of the same file): SQLite keeps a survey's last rows in a -wal "
            "file beside the name it is opened by, and under another name they would be lost or hidden; remove the "
            f"other names (find them with: find / -xdev -samefile {name}), keeping the one the survey ran under"
        )


def _temporaries(path: Path) -> list[tuple[Path, int]]:
    """The temporary files beside ``path`` that runs make it under (see :func:`make_whole`),
    each with its maker's process number."""
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    found = []
    for name in names:
        numbers = name[len(prefix) : -len(".new")].split(".") if name.startswith(prefix) else []
        if name.endswith(".new") and 1 <= len(numbers) <= 2 and all(n.isascii() and n.isdigit() for n in numbers):
            found.append((path.with_name(name), int(numbers[0])))
    return found


def remove_abandoned(path: Path) -> None:
    """Remove the temporary files that runs killed while making ``path`` left (``kill -9``, a
    signal such as SIGBUS): one whose maker's process is gone and which no run holds locked."""
    for temporary, maker in _temporaries(path):
        if maker == os.getpid() or _alive(maker):
            continue
        try:
            held = os.open(temporary, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # being made after all (by a process this one cannot see)
        else:
            remove(temporary, *side_files(temporary))
        finally:
            os.close(held)


def _alive(process: int) -> bool:
    """Whether the process numbered ``process`` exists (if it is another user's, it does)."""
    if process <= 0:
        return False
    try:
        os.kill(process, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def refuse_read_only(name: Path, path: Path) -> None:
    """Refuse to write a survey file that cannot be written, before SQLite opens it: it would make
    its -wal and -shm files read-only like the file, and a rerun once the file is made writable
    would still be refused by them."""
    try:
        read_only_disk = bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_disk = False
    if read_only_disk:
        raise StoreFault(name, "the disk is read-only (mounted so)", "write the survey elsewhere")
    for file in (path, *side_files(path)[:2]):
        if file.exists() and not os.access(file, os.W_OK):
            what = "the file" if file == path else f"its {file.name.removeprefix(path.name)} file {file}"
            raise StoreFault(name, f"{what} is read-only", f"make it writable (chmod u+w {file})")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreFault(name, f"its directory {path.parent} is read-only", "make it writable")


#: The room a survey keeps free where its -shm file's pages may be holes (see :func:`check_room`).
ROOM = 128 * 1024


def check_room(path: Path, name: Path, rows: int = 0) -> None:
    """Refuse to write on a disk too full to back the -shm file SQLite maps into memory: where
    the file system's blocks are smaller than a page (ext4 of 1 KiB blocks), SQLite leaves
    holes in it, and filling one on a full disk kills the process (SIGBUS, nothing said).
    Raised as a full disk, with :data:`ROOM` and a KiB a row kept spare."""
    try:
        found = os.statvfs(path.parent)
    except OSError:
        return
    if found.f_frsize >= os.sysconf("SC_PAGE_SIZE"):
        return  # every page of the -shm file is whole blocks, allocated as SQLite extends it
    free, spare = found.f_bavail * found.f_frsize, ROOM + 1024 * rows
    if free < spare:
        raise StoreFault(
            name,
            f"the disk is full ({free // 1024} KiB free, where a survey keeps {spare // 1024} KiB spare "
            f"on a file system of {found.f_frsize}-byte blocks)",
            "free some space",
        )


def remove(*paths: Path) -> None:
    """Remove what is left of a temporary file, as far as the system lets: this runs while an
    error may be on its way (a read-only or failing disk refuses the unlink too), and must never
    hide that error behind its own."""
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


def make_whole(path: Path, name: Path, make: Callable[[Path], None]) -> None:
    """Make the file ``path`` (named ``name`` by the user) whole under a temporary name (``make``
    writes it), then link it into place: a run killed while it makes the file leaves no half-made
    file (at worst the hidden temporary one, which a later run removes). If another run made the
    file meanwhile, that file stands."""
    remove_abandoned(path)
    # Named by process and thread: two threads of one program may be making the same file.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    remove(temporary, *side_files(temporary))  # a dead process's, whose number this one got
    held: int | None = None
    try:
        try:  # held locked while it is made: a later run removes only what no run is making
            held = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            raise fault(name, error, "create") from None
        make(temporary)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or path.exists():
                raise fault(name, error, "create") from None
            os.rename(temporary, path)  # a file system without hard links
    finally:
        remove(temporary, *side_files(temporary))
        if held is not None:
            os.close(held)  # after SQLite closed the file: this descriptor holds none of its locks


def lock(path: Path, name: Path) -> int:
    """Lock the survey file ``path`` (named ``name`` by the user) for this run's writing, or
    refuse: two runs writing one file would both solve every deal neither had stored. An
    ``flock`` on the file itself, which SQLite's own (POSIX) locks never meet and readers never
    ask for, and which the system drops when the run ends however it ends, ``kill -9`` too: no
    lock file is left behind. Returns its descriptor, closed by :func:`unlock` (not
    inherited: workers are spawned, not forked)."""
    busy = SurveyBusy(f"{name}: another survey is writing this file; wait for it to end, or write to another file")
    with _WRITING_LOCK:  # threads of one program: the check, the lock and the note are one step
        try:
            found = path.stat()
        except OSError as error:
            raise fault(name, error, "open") from None
        if (found.st_dev, found.st_ino) in _WRITING:
            # Written by this process: refused before a descriptor is opened, as closing one (on
            # a refusal) would drop the POSIX locks SQLite holds on the file for the writer.
            raise busy
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as error:
            raise fault(name, error, "open") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise busy from None
            raise fault(name, error, "lock") from None
        _WRITING.add((found.st_dev, found.st_ino))
        return descriptor


#: The survey files this process holds a writer's lock on, by device and inode (see :func:`lock`).
_WRITING: set[tuple[int, int]] = set()
_WRITING_LOCK = threading.Lock()


def unlock(descriptor: int) -> None:
    """Let another run write the survey file locked by :func:`lock` as ``descriptor``."""
    with _WRITING_LOCK:
        found = os.fstat(descriptor)
        _WRITING.discard((found.st_dev, found.st_ino))
        os.close(descriptor)


def file_state(path: Path) -> tuple[int, ...] | None:
    """What changes whenever a survey file or its -wal is written: their device, inode, size and
    modification time (None if either cannot be looked up)."""
    try:
        found = path.stat()
        wal = side_files(path)[0]
        log = wal.stat() if wal.exists() else None
    except OSError:
        return None
    state = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
    return state + ((log.st_ino, log.st_size, log.st_mtime_ns) if log is not None else (0, 0, 0))


def at_rest(path: Path, header: bytes) -> bool:
    """Whether ``path``, whose file begins with ``header``, is a WAL database no one has open:
    then it is read as an immutable file, and a reader leaves no -wal and -shm files behind
    (SQLite's read-only mode would). A WAL database being written always has its -wal file."""
    return header[18:20] == b"\x02\x02" and not side_files(path)[0].exists()


_SQLITE_BUSY, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = (
    5,
    8,
    10,
    11,
    13,
    14,
    26,
)


def _nearly_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has less than a MiB left to ordinary users: then an I/O
    error of SQLite's (whose errno it does not say: extending its -shm file, say) is the disk
    filling up."""
    try:
        found = os.statvfs(real_path(Path(path)).parent)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < 1024 * 1024


def fault(path: Path, error: sqlite3.Error | OSError, doing: str) -> StoreFault:
    """The fault of the file that ``error`` reports, with what the user can do about it."""
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    number = getattr(error, "errno", None)
    if code == _SQLITE_FULL or number in (errno.ENOSPC, errno.EDQUOT):
        return StoreFault(path, "the disk is full", "free some space")
    if code == _SQLITE_READONLY or number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return StoreFault(path, "the file or its directory is read-only", "make both writable")
    if code == _SQLITE_BUSY:
        return StoreFault(path, "another process keeps the file locked", "wait until it ends")
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return damaged(path, str(error))
    if code == _SQLITE_IOERR and _nearly_full(path):  # SQLite's own write failed, its errno unsaid
        return StoreFault(path, "the disk is full", "free some space")
    if code == _SQLITE_CANTOPEN:
        return StoreFault(
            path,
            f"cannot open the file or create its -wal and -shm files beside it ({error})",
            "check that its directory is writable",
        )
    return StoreFault(path, f"cannot {doing} the file ({error})", "check the disk")


def damaged(path: Path, problem: str) -> StoreFault:
    """A damaged file: rerunning cannot mend it, but SQLite's shell can copy what is readable."""
    recovered = path.with_name(f"{path.stem}-recovered{path.suffix}")
    return StoreFault(
        path,
        f"the file is damaged ({problem})",
        f"copy what is readable with: sqlite3 {path} .recover | sqlite3 {recovered}",
        resumable=False,
    )
