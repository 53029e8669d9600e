"""The survey store: one SQLite file per survey. The ``survey`` table holds the settings every row
shares (game, variant, options, limits, solver version), stored once; the ``deals`` table one
compact row per deal, keyed by its seed, or, in a survey of a file of deals, by its line in the
file, holding only what varies from deal to deal (verdict, score, limit, nodes, CPU time, peak
table bytes, redeals and the engine, each a small integer). A seed's deal is not stored: the seed
gives it. A survey of a file keeps each line's deal once, in the ``lines`` table (so that a resumed
run on a changed file is refused naming the first line that differs). A survey of seeds keeps the
seed ranges it was asked for in ``requested``, so that a report says what is still missing.

Rows are committed as they arrive (WAL journal, synchronous commits), so an interrupted survey --
Ctrl-C, ``kill -9``, a power cut, a full disk -- loses at most the deals being solved at that
moment. A run whose settings differ from the file's is refused rather than mixed in, and a file
that is refused is left exactly as it was. One run writes a file at a time (see :func:`_lock`);
reports read it meanwhile.
"""

from __future__ import annotations

import errno
import fcntl
import itertools
import json
import math
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from rulesets.cards import format_cards
from solver.errors import SYSTEM_REFUSALS
from solver.service.deal_file import DealFile
from solver.service.errors import StoreFault, SurveyBusy, SurveyError
from solver.service.seeds import Span
from solver.service.setup import MIN_MEMORY as _MIN_MEMORY
from solver.service.solving import Outcome

#: The survey format: 1 was written by 0.6.x (every row repeating the settings and the deal), 2
#: is the compact one (see the module's docstring).
SCHEMA_VERSION = 2

#: What the small integers of a stored row stand for: a verdict, the limit that stopped a search
#: (none is NULL), the engine that searched.
VERDICTS = ("won", "lost", "unknown")
LIMITS = (None, "max_nodes", "max_seconds")
ENGINES = ("python", "native")
_VERDICT_CODE = {name: code for code, name in enumerate(VERDICTS)}
_LIMIT_CODE = {name: code for code, name in enumerate(LIMITS)}
_ENGINE_CODE = {name: code for code, name in enumerate(ENGINES)}
_WON, _LOST, _UNKNOWN = range(3)


class Row(NamedTuple):
    """One deal of a survey as the Python API and exports give it: what its stored row holds,
    with the settings every row shares and the deal (a seed's dealt again from the seed)."""

    seed: int | None  # PySolFC game number: the key of a survey of seeds (None in one of a file)
    game: str
    variant: str
    options: str  # JSON object of every option's value
    deal: str | None  # the cards, first dealt first (None where this installation cannot deal the game)
    result: str  # won, lost or unknown
    score: int | None  # best score reached (lower is better), None if no end reached
    score_proven: int  # 1 if the score is the proven minimum (no limit stopped the search undecided)
    limit_hit: str | None  # the limit that stopped the search, if any
    nodes: int
    seconds: float  # CPU seconds of the search, to the microsecond
    peak_table_bytes: int
    solver_version: str
    redeals: int | None = None  # fewest-redeals surveys: the win's redeals (fewest if no limit was hit)
    line: int | None = None  # the deal's line: the key of a survey of a file of deals
    engine: str = "python"  # which engine searched: native (the compiled core) or python

    def record(self) -> dict[str, Any]:
        """The row as a JSON-ready dict (options as an object, ``score_proven`` a bool)."""
        return self._asdict() | {"options": json.loads(self.options), "score_proven": bool(self.score_proven)}


#: The stored columns of a deal, after its key: each a small integer (or NULL), so that a row of a
#: survey of seeds takes about 25 bytes on disk (see docs/surveys.md).
STORED = ("verdict", "score", "limit_hit", "nodes", "microseconds", "peak_table_bytes", "redeals", "engine")
#: The columns a survey's deals may be keyed by: PySolFC's seeds, or the lines of a file of deals.
KEYS = ("seed", "line")
#: Each stored column: whether it may be NULL.
_NULLABLE = {"verdict": False, "score": True, "limit_hit": True, "nodes": False, "microseconds": False}
_NULLABLE |= {"peak_table_bytes": False, "redeals": True, "engine": False}


#: A deal's stored values: its key, then the columns of :data:`STORED`.
Stored = tuple[int | None, ...]


def stored_row(outcome: Outcome, line: int | None = None) -> Stored:
    """The stored values of a solved deal (see :data:`STORED`), after its key: its seed, or its
    file's ``line``."""
    result = outcome.result
    assert outcome.deal is not None and (outcome.seed is None) != (line is None), "a row is of a seed or a line"
    key = outcome.seed if line is None else line
    return (
        key,
        _VERDICT_CODE[result.verdict.value],
        outcome.score(),
        None if result.limit is None else _LIMIT_CODE[result.limit],
        result.stats.nodes,
        round(result.stats.seconds * 1e6),
        result.stats.peak_table_bytes,
        outcome.cost(),
        _ENGINE_CODE[result.engine],
    )


def encode(row: Row) -> Stored:
    """The stored values of a :class:`Row` (its settings and deal aside: those are the survey's),
    as :func:`stored_row` gives them of a solved deal."""
    return (
        row.seed if row.line is None else row.line,
        _VERDICT_CODE[row.result],
        row.score,
        None if row.limit_hit is None else _LIMIT_CODE[row.limit_hit],
        row.nodes,
        round(row.seconds * 1e6),
        row.peak_table_bytes,
        row.redeals,
        _ENGINE_CODE[row.engine],
    )


def _deals_table(key: str) -> str:
    columns = ", ".join(f"{name} INTEGER{'' if _NULLABLE[name] else ' NOT NULL'}" for name in STORED)
    # The key is the table's rowid (INTEGER PRIMARY KEY): stored once, in the B-tree's cells, with
    # no index beside it; rows arriving in key order fill whole pages.
    return f"CREATE TABLE IF NOT EXISTS deals ({key} INTEGER PRIMARY KEY, {columns})"


_SCHEMA = {
    key: (
        "CREATE TABLE IF NOT EXISTS survey (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        _deals_table(key),
        "CREATE TABLE IF NOT EXISTS requested (low INTEGER PRIMARY KEY, high INTEGER NOT NULL)"
        if key == "seed"
        else "CREATE TABLE IF NOT EXISTS lines (line INTEGER PRIMARY KEY, deal TEXT NOT NULL)",
    )
    for key in KEYS
}
#: The settings stored as JSON, and the types their values may have (a limit: a number, or none,
#: which older versions stored as NaN or infinity).
_LIMIT = (int, float, type(None))
_JSON_SETTINGS: dict[str, tuple[type, ...]] = {
    "options": (dict,),
    **dict.fromkeys(("max_nodes", "max_seconds", "max_memory"), _LIMIT),
}
_INSERT = {
    key: f"INSERT OR IGNORE INTO deals ({key}, {', '.join(STORED)}) VALUES ({', '.join('?' * (1 + len(STORED)))})"
    for key in KEYS
}


def text_of(column: str, codes: Sequence[str | None], quoted: bool = False) -> str:
    """SQL giving the text a coded ``column`` stands for (NULL for None), for exports; ``quoted``:
    as a JSON string."""
    mark = '"' if quoted else ""
    cases = " ".join(f"WHEN {code} THEN '{mark}{name}{mark}'" for code, name in enumerate(codes) if name is not None)
    return f"CASE {column} {cases} END"


#: SQL of each exported field of a row, in order after its key (see :mod:`solver.service.exports`).
EXPORTED = {
    "result": text_of("verdict", VERDICTS),
    "score": "score",
    "score_proven": f"verdict != {_UNKNOWN}",
    "limit_hit": text_of("limit_hit", LIMITS),
    "nodes": "nodes",
    "seconds": "microseconds / 1e6",
    "peak_table_bytes": "peak_table_bytes",
    "engine": text_of("engine", ENGINES),
    "redeals": "redeals",
}


def solver_version() -> str:
    """The installed patience-solver version, recorded with every survey row."""
    # Imported here: only surveys need it, and the command's startup stays quick.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("patience-solver")
    except PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
        return "unknown"


class Store:
    """A survey file: settings checked on open, rows inserted (never replaced) as they arrive.

    Open with ``identity`` (the settings a run is keyed on) to create or resume a survey -- of
    seeds, or of the deals of a file (``deals``, whose every line the file records) --; without it
    to read one, read-only (a report never alters the file, and reads one on read-only storage).
    Either way a file that is not a survey, or is damaged, or was written with other settings or
    on other deals is refused before anything is written to it. Failures of the file under use
    (disk full, read-only, damaged, I/O) are raised as :class:`StoreFault`.
    """

    def __init__(
        self,
        path: Path,
        identity: dict[str, str] | None = None,
        deals: DealFile | None = None,
        requested: Sequence[Span] = (),
    ) -> None:
        """``requested``: the seed ranges a run of a survey of seeds asks for, added to the file's."""
        self.path = Path(path)  # as the user gave it: messages name it so
        # Every file is opened by its real path: SQLite keeps the last commits in NAME-wal beside
        # the name a file is opened by, so a symbolic link's name would miss (or make) another one.
        self.real = real_path(self.path)
        self._lock: int | None = None  # the descriptor holding a writer's lock (see _lock)
        self._new_lines: list[tuple[int, str]] = []  # a stream's deals read, to record (see read_line)
        try:
            if identity is None:
                self.db = self._open_to_read()
            else:
                # Only a survey of a file records its key: surveys of seeds, older ones too, lack it.
                identity = identity if deals is None else {**identity, "key": "line"}
                self.db = self._open_to_write(identity, deals, requested)
            with self._faults("read"):
                self.meta: dict[str, str] = dict(self.db.execute("SELECT key, value FROM survey"))
            self.key = self.meta.get("key", "seed")  # the column the deals are keyed by
            if self.key not in KEYS:
                raise SurveyError(
                    f"{self.path} is a survey of deals keyed by {self.key!r}, which this version cannot read"
                )
            if identity is not None:  # again: another run may have created the file meanwhile
                self._check(identity, self.meta)
                if deals is not None:
                    with self._faults("read"):
                        self._check_lines(self.db, deals)
        except BaseException:
            self.close()  # the lock too: a refused run in a longer program must not keep it
            raise

    def _open_to_read(self, fix: str = "") -> sqlite3.Connection:
        """A read-only connection to an existing survey file, checked whole (``fix``: what to add
        to the message refusing a file that is not a survey)."""
        path, found = self.path, status(self.path)
        if found is None:
            raise SurveyError(f"{path}: no such survey file")
        if stat.S_ISDIR(found.st_mode):
            raise SurveyError(f"{path} is a directory, not a survey file")
        if not stat.S_ISREG(found.st_mode):  # SQLite reads files: a device reads as empty or endless
            raise SurveyError(f"{path} is a device, pipe or socket, not a survey file")
        if found.st_size == 0:
            raise SurveyError(f"{path} is empty, not a survey file{fix}")
        _refuse_links(path, self.real, found)
        if self._lock is None and (found.st_dev, found.st_ino) in _WRITING:
            # Being written by this process (by another Store): a survey file, in WAL mode. Not
            # opened here to read its header: closing a descriptor would drop the writer's POSIX locks.
            header = _SQLITE_HEADER
        else:
            try:
                with open(self.real, "rb") as file:
                    header = file.read(20)
            except OSError as error:
                raise SurveyError(f"cannot read {path}: {error.strerror}") from None
        if not header.startswith(_SQLITE_HEADER):
            raise SurveyError(f"{path} is not a survey file (nor any SQLite file){fix}")
        db = _connect(self.real, "immutable" if _at_rest(self.real, header) else "ro", path)
        try:
            with self._faults("read"):
                try:
                    db.execute("SELECT 1 FROM sqlite_master").fetchall()
                except sqlite3.OperationalError:  # read-only storage and no -shm file: read as is
                    db.close()
                    db = _connect(self.real, "immutable", path)
                state, began = _file_state(self.real), time.time()
                if state is None or _CHECKED.get(self.real) != state:
                    self._check_survey(db, fix)
                    # Kept only for a file last written over a second before it was looked at: a
                    # write after that then has a later time, whatever the clock's grain.
                    settled = state is not None and began - max(state[3], state[6]) / 1e9 > 1
                    if settled and state == _file_state(self.real):
                        _CHECKED[self.real] = state
        except BaseException:
            db.close()
            raise
        return db

    def _check_survey(self, db: sqlite3.Connection, fix: str) -> None:
        """Refuse a file that is not a survey, is of the format 0.6.x wrote, or is damaged."""
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"survey", "deals"} <= tables:
            raise SurveyError(
                f"{self.path} is an SQLite file but not a survey file (it has no survey and deals tables){fix}"
            )
        problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise _damaged(self.path, " ".join(problem.split()))
        meta = dict(db.execute("SELECT key, value FROM survey"))
        if meta.get("schema") == "1":
            raise _older_format(self.path, meta)
        altered = (
            _bad_object(db, meta)
            or _bad_setting(meta)
            or _bad_row(db, meta)
            or _bad_requested(db, meta)
            or _bad_line(db, meta)
        )
        if altered is not None:
            raise _altered(self.path, altered)

    def _open_to_write(
        self, identity: dict[str, str], deals: DealFile | None, requested: Sequence[Span]
    ) -> sqlite3.Connection:
        """A connection to write to, the file created if new; an existing file is first read and
        checked read-only, so that a foreign, damaged or mismatched one is left as it was."""
        path, real = self.path, self.real
        found, parent = status(path), status(real.parent)
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise SurveyError(f"{path} is a directory: give a file name for --out")
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise SurveyError(f"{path} is a device, pipe or socket: give a file name for --out")
        if parent is None or not stat.S_ISDIR(parent.st_mode):
            if real != path.absolute() and os.path.islink(path):
                raise SurveyError(
                    f"{path} is a symbolic link to {real}, and there is no directory {real.parent}: "
                    "give --out a file in a directory that exists"
                )
            raise SurveyError(f"cannot create {path}: there is no directory {path.parent}")
        if found is not None:
            _remove_abandoned(real)  # one killed between linking the file and unlinking it is a second name
            _refuse_links(path, real, status(path) or found)
        else:
            self._create(identity, deals, requested)
        self._lock = _lock(real, path)  # before anything is read or written: another run may be writing
        if found is not None and found.st_size > 0:
            existing = self._open_to_read("; give another --out file")
            try:
                with self._faults("read"):
                    self._check(identity, dict(existing.execute("SELECT key, value FROM survey")))
                    if deals is not None:
                        self._check_lines(existing, deals)
            finally:
                existing.close()
        _refuse_read_only(path, real)  # before SQLite makes -wal and -shm files a rerun could not use
        self._check_room()
        db = _connect(real, "rw", path)
        try:
            with self._faults("write to"):
                self._set_up(db, identity, deals, requested, "WAL")
        except BaseException:
            db.close()
            raise
        return db

    def _create(self, identity: dict[str, str], deals: DealFile | None, requested: Sequence[Span]) -> None:
        """Make a new survey file whole under a temporary name, then link it into place: a run
        killed while it makes the file leaves no half-made survey file that a rerun would refuse
        (at worst the hidden temporary one). If another run made the file meanwhile, that file
        stands, and the checks that follow hold this run to it."""
        path, real = self.path, self.real
        _remove_abandoned(real)
        # Named by process and thread: two threads of one program may be making the same file.
        temporary = real.with_name(f".{real.name}.{os.getpid()}.{threading.get_ident()}.new")
        _remove(temporary, *side_files(temporary))  # a dead process's, whose number this one got
        held: int | None = None
        try:
            try:  # held locked while it is made: a later run removes only what no run is making
                held = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                raise _fault(path, error, "create") from None
            db = _connect(temporary, "rw", path)  # named as the user gave it, not by its hidden temporary
            try:
                with self._faults("write to"):
                    # A rollback journal, not the WAL: made whole in the file itself (a full disk
                    # raises as it is written), with no -shm file mapped into memory, whose pages a
                    # full disk cannot back (SIGBUS, seen on ext4 of 1 KiB blocks).
                    self._set_up(db, identity, deals, requested, "DELETE", new=True)
            finally:
                db.close()
            try:
                os.link(temporary, real)
            except FileExistsError:
                pass
            except OSError as error:
                if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or real.exists():
                    raise _fault(path, error, "create") from None
                os.rename(temporary, real)  # a file system without hard links
        finally:
            _remove(temporary, *side_files(temporary))
            if held is not None:
                os.close(held)  # after SQLite closed the file: this descriptor holds none of its locks

    def _set_up(
        self,
        db: sqlite3.Connection,
        identity: dict[str, str],
        deals: DealFile | None,
        requested: Sequence[Span],
        journal: str,
        new: bool = False,
    ) -> None:
        """The schema, the settings, a file's lines and the seeds requested (each kept if already
        there), in the ``journal`` mode (WAL to run the survey, DELETE to make a ``new`` file)."""
        (mode,) = db.execute(f"PRAGMA journal_mode={journal}").fetchone()
        if journal == "DELETE" and mode != "delete":  # (where WAL is not to be had, SQLite keeps its own)
            raise StoreFault(self.path, "the new file could not be made", "rerun the same command")
        db.execute("PRAGMA synchronous=FULL")
        key = identity.get("key", "seed")
        with _Transaction(db):  # IF NOT EXISTS / OR IGNORE: another run may be creating it too
            for statement in _SCHEMA[key]:
                db.execute(statement)
            db.executemany(
                "INSERT OR IGNORE INTO survey (key, value) VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), *identity.items(), ("digest", settings_digest(identity))],
            )
            if requested:
                _request(db, requested)
            if deals is not None:
                db.executemany("INSERT OR IGNORE INTO lines (line, deal) VALUES (?, ?)", deals.deals)
                if deals.more is None:  # every deal of the file is recorded now
                    db.execute("DELETE FROM survey WHERE key = 'lines'")
                elif new:  # a stream: its deals are recorded as they are read
                    db.execute("INSERT OR IGNORE INTO survey (key, value) VALUES ('lines', 'open')")

    def _check(self, identity: dict[str, str], meta: dict[str, str]) -> None:
        """Refuse a run whose settings differ from the file's ``meta`` (a setting either lacks counts),
        or whose deals are of the other kind (seeds, or the lines of a file)."""
        kinds = {"seed": "seeds", "line": "the deals of a file"}
        theirs, ours = meta.get("key", "seed"), identity.get("key", "seed")
        if theirs != ours:
            raise SurveyError(
                f"{self.path} holds a survey of {kinds.get(theirs, theirs)} and this run surveys {kinds[ours]}: "
                "the two are not mixed: give another --out"
            )
        keys = [*identity, *(k for k in meta if k not in identity and k not in _BOOKKEEPING)]
        differ = [k for k in keys if meta.get(k) != identity.get(k)]
        if differ:
            raise SurveyError(
                f"{self.path} holds a survey with other settings ("
                + "; ".join(f"{k}: file has {meta.get(k)}, this run {identity.get(k)}" for k in differ)
                + "); results of different rules, options, limits or solver versions are not mixed: give another --out"
            )

    def _check_lines(self, db: sqlite3.Connection, deals: DealFile) -> None:
        """Refuse a file of deals that is not the one the survey began on (the same deal on each
        line), naming its first line that differs. Of a stream only the deals read so far are
        compared (the rest are as they come: see :meth:`surveyed_lines`); a survey whose stream
        was cut short (its lines ``open``) takes any more deals after the ones it holds."""
        cut_short = db.execute("SELECT 1 FROM survey WHERE key = 'lines' AND value = 'open'").fetchone() is not None
        surveyed = db.execute("SELECT line, deal FROM lines ORDER BY line")
        for was, now in itertools.zip_longest(surveyed, deals.deals):
            if was == now:
                continue
            if (now is None and deals.more is not None) or (was is None and cut_short):
                return
            raise changed_file(self.path, deals.name, was, now)

    @property
    def lines_open(self) -> bool:
        """Whether the survey's file of deals was a stream cut short: more deals may follow."""
        return self.meta.get("lines") == "open"

    def surveyed_lines(self, after: int, count: int = 1000) -> list[tuple[int, str, str | None]]:
        """The surveyed file's deals after line ``after`` (at most ``count``), by line, each with
        its stored verdict (None if not stored yet): what a stream read again is held to."""
        with self._faults("read"):
            return self.db.execute(
                "SELECT lines.line, lines.deal, deals.verdict FROM lines LEFT JOIN deals ON deals.line = lines.line "
                "WHERE lines.line > ? ORDER BY lines.line LIMIT ?",
                (after, count),
            ).fetchall()

    def count_lines(self) -> int:
        """How many deals of its file of deals the survey holds (of a stream: read so far)."""
        with self._faults("read"):
            return int(self.db.execute("SELECT COUNT(*) FROM lines").fetchone()[0])

    def read_line(self, line: int, deal: str) -> None:
        """A deal of a stream beyond the lines the survey holds: recorded with the next rows stored."""
        self._new_lines.append((line, deal))

    def end_of_lines(self) -> None:
        """The stream ended: its last deals recorded, and the survey's lines no longer open."""
        with self._faults("write to"), _Transaction(self.db):
            self.db.executemany("INSERT OR IGNORE INTO lines (line, deal) VALUES (?, ?)", self._new_lines)
            self.db.execute("DELETE FROM survey WHERE key = 'lines'")
        self._new_lines = []
        self.meta.pop("lines", None)

    @contextmanager
    def _faults(self, doing: str) -> Iterator[None]:
        """Raise SQLite's and the system's failures of this file as :class:`StoreFault`."""
        try:
            yield
        except (sqlite3.Error, OSError) as error:
            raise _fault(self.path, error, doing) from None

    def stored_in(self, low: int, high: int) -> set[int]:
        """The stored keys (seeds, or lines) from ``low`` to ``high``."""
        with self._faults("read"):
            return {
                key
                for (key,) in self.db.execute(
                    f"SELECT {self.key} FROM deals WHERE {self.key} BETWEEN ? AND ?", (low, high)
                )
            }

    def count_in(self, spans: Sequence[Span]) -> dict[str, int]:
        """The stored deals within the ranges of keys (seeds, or lines), counted by verdict."""
        counts: dict[str, int] = {}
        with self._faults("read"):
            for low, high in spans:
                for verdict, n in self.db.execute(
                    f"SELECT verdict, COUNT(*) FROM deals WHERE {self.key} BETWEEN ? AND ? GROUP BY verdict",
                    (low, high),
                ):
                    counts[VERDICTS[verdict]] = counts.get(VERDICTS[verdict], 0) + n
        return counts

    def missing(self, spans: Sequence[Span], block: int = 10000) -> Iterator[int]:
        """The seeds of the ranges not stored yet, in increasing order (memory bounded by ``block``)."""
        for low, high in spans:
            for start in range(low, high + 1, block):
                end = min(high, start + block - 1)
                stored = self.stored_in(start, end)
                yield from (seed for seed in range(start, end + 1) if seed not in stored)

    def requested(self) -> list[Span]:
        """The seed ranges the survey's runs asked for, merged, in order (none of a file's survey)."""
        if self.key != "seed":
            return []
        with self._faults("read"):
            return [(low, high) for low, high in self.db.execute("SELECT low, high FROM requested ORDER BY low")]

    def coverage(self, first: int = 10) -> dict[str, Any]:
        """What the survey was asked for and what of it is stored: the deals requested (seeds, or
        the file's lines), how many are stored and missing, and the ``first`` missing ones (seeds
        as ranges ``[low, high]``, lines one by one); ``open``: a stream cut short, more may come.
        Counted in SQL, a pass over the keys (about 0.3 s for ten million)."""
        with self._faults("read"):
            if self.key == "line":
                requested = int(self.db.execute("SELECT COUNT(*) FROM lines").fetchone()[0])
                stored = int(self.db.execute("SELECT COUNT(*) FROM deals").fetchone()[0])
                gaps = [
                    [line, line]
                    for (line,) in self.db.execute(
                        "SELECT line FROM lines WHERE line NOT IN (SELECT line FROM deals) ORDER BY line LIMIT ?",
                        (first,),
                    )
                ]
            else:
                requested = stored = 0
                gaps = []
                for low, high in self.requested():
                    requested += high - low + 1
                    count, least, most = self.db.execute(
                        "SELECT COUNT(*), MIN(seed), MAX(seed) FROM deals WHERE seed BETWEEN ? AND ?", (low, high)
                    ).fetchone()
                    stored += count
                    if count < high - low + 1 and len(gaps) < first:
                        gaps += _gaps(self.db, low, high, least, most, first - len(gaps))
        return {
            "deals": requested,
            "stored": stored,
            "missing": requested - stored,
            "first_missing": gaps[:first],
            "open": self.lines_open,
        }

    def add(self, rows: Iterable[Stored]) -> None:
        """Store rows (of :func:`stored_row`) in one transaction (a deal already stored keeps its
        row), with the lines of a stream read since the last (see :meth:`read_line`)."""
        rows = list(rows)
        self._check_room(len(rows) + len(self._new_lines))
        with self._faults("write to"), _Transaction(self.db):
            if self._new_lines:
                self.db.executemany("INSERT OR IGNORE INTO lines (line, deal) VALUES (?, ?)", self._new_lines)
            self.db.executemany(_INSERT[self.key], rows)
        self._new_lines = []

    def _check_room(self, rows: int = 0) -> None:
        """Refuse to write on a disk too full to back the -shm file SQLite maps into memory: where
        the file system's blocks are smaller than a page (ext4 of 1 KiB blocks), SQLite leaves
        holes in it, and filling one on a full disk kills the process (SIGBUS, nothing said).
        Raised as a full disk, with :data:`_ROOM` and a KiB a row kept spare."""
        try:
            found = os.statvfs(self.real.parent)
        except OSError:
            return
        if found.f_frsize >= os.sysconf("SC_PAGE_SIZE"):
            return  # every page of the -shm file is whole blocks, allocated as SQLite extends it
        free, spare = found.f_bavail * found.f_frsize, _ROOM + 1024 * rows
        if free < spare:
            raise StoreFault(
                self.path,
                f"the disk is full ({free // 1024} KiB free, where a survey keeps {spare // 1024} KiB spare "
                f"on a file system of {found.f_frsize}-byte blocks)",
                "free some space",
            )

    def query(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of a read-only query of the file (for reports)."""
        with self._faults("read"):
            return self.db.execute(sql, parameters).fetchall()

    def each(self, sql: str, parameters: Sequence[Any] = ()) -> Iterator[Any]:
        """The rows of a read-only query, read as they are consumed (for reports of any size)."""
        with self._faults("read"):
            yield from self.db.execute(sql, parameters)

    def blocks(self, sql: str, size: int = 10000) -> Iterator[list[Any]]:
        """The rows of a read-only query in lists of ``size`` (the last shorter): fetched so,
        a quarter of the CPU of one row at a time through a generator (measured)."""
        with self._faults("read"):
            cursor = self.db.execute(sql)
            while block := cursor.fetchmany(size):
                yield block

    def rows(self) -> Iterator[Row]:
        """Every stored deal as a :class:`Row`, by seed or line: the settings every row shares, and
        the deal (a seed's dealt again, where this installation knows the game: about 20 us each)."""
        meta, key = self.meta, self.key
        shared = {name: meta[name] for name in ("game", "variant", "options", "solver_version")}
        deal_of = _dealer(meta)
        sql = f"SELECT {key}, {', '.join(STORED)} FROM deals ORDER BY {key}"
        if key == "line":
            sql = (
                f"SELECT deals.line, {', '.join('deals.' + c for c in STORED)}, lines.deal FROM deals "
                "JOIN lines ON lines.line = deals.line ORDER BY deals.line"
            )
        with self._faults("read"):
            for number, verdict, score, limit, nodes, micros, peak, redeals, engine, *deal in self.db.execute(sql):
                yield Row(
                    seed=number if key == "seed" else None,
                    deal=deal[0] if deal else deal_of(number),
                    result=VERDICTS[verdict],
                    score=score,
                    score_proven=int(verdict != _UNKNOWN),
                    limit_hit=LIMITS[limit or 0],
                    nodes=nodes,
                    seconds=micros / 1e6,
                    peak_table_bytes=peak,
                    redeals=redeals,
                    line=number if key == "line" else None,
                    engine=ENGINES[engine],
                    **shared,
                )

    def close(self) -> None:
        """Close the file, then let another run write it. In that order: closing any descriptor of
        the file drops the POSIX locks SQLite holds on it in this process."""
        db = getattr(self, "db", None)  # none if opening the file failed
        try:
            if db is not None:
                db.close()
        finally:  # the lock goes whatever closing the connection raised
            if self._lock is not None:
                with _WRITING_LOCK:
                    found = os.fstat(self._lock)
                    _WRITING.discard((found.st_dev, found.st_ino))
                    os.close(self._lock)
                    self._lock = None


# SQLite's primary result codes, and what each says about the file.
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


def _fault(path: Path, error: sqlite3.Error | OSError, doing: str) -> StoreFault:
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
        return _damaged(path, str(error))
    if code == _SQLITE_IOERR and _nearly_full(path):  # SQLite's own write failed, its errno unsaid
        return StoreFault(path, "the disk is full", "free some space")
    if code == _SQLITE_CANTOPEN:
        return StoreFault(
            path,
            f"cannot open the file or create its -wal and -shm files beside it ({error})",
            "check that its directory is writable",
        )
    return StoreFault(path, f"cannot {doing} the file ({error})", "check the disk")


_MODES = {"rw": "mode=rwc", "ro": "mode=ro", "immutable": "immutable=1"}


#: The survey's settings that are its own bookkeeping, not what a run is keyed on: the schema's
#: version, and whether a stream of deals was cut short (``lines``: ``open``).
_BOOKKEEPING = ("schema", "lines", "digest")


def settings_digest(settings: dict[str, str]) -> str:
    """A digest of a survey's settings (its bookkeeping aside), stored beside them: every row
    holds them once now, so a setting damaged or altered in place (an option's true turned false)
    has no copy left in the rows to be caught against, and is caught by this."""
    import hashlib

    named = sorted((name, value) for name, value in settings.items() if name not in _BOOKKEEPING)
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()[:32]


def changed_file(path: Path, name: str, was: tuple[int, str] | None, now: tuple[int, str] | None) -> SurveyError:
    """A file of deals that is not the one surveyed in ``path``: (line, deal) ``was`` surveyed,
    ``now`` the file's, the first two that differ (None: the one has no more deals)."""
    line = min(found[0] for found in (was, now) if found is not None)
    if was is not None and now is not None and was[0] == now[0]:
        what = "holds another deal than the one surveyed there"
    elif now is not None and now[0] == line:
        what = "holds a deal where the surveyed file had none"
    else:
        what = "holds no deal where the surveyed file had one"
    return SurveyError(
        f"{path} is a survey of another file of deals: {name} line {line} {what}; "
        "a changed file is not mixed in: give another --out (or restore the file)"
    )


def _damaged(path: Path, problem: str) -> StoreFault:
    """A damaged file: rerunning cannot mend it, but SQLite's shell can copy what is readable."""
    recovered = path.with_name(f"{path.stem}-recovered{path.suffix}")
    return StoreFault(
        path,
        f"the file is damaged ({problem})",
        f"copy what is readable with: sqlite3 {path} .recover | sqlite3 {recovered}",
        resumable=False,
    )


_SQLITE_HEADER = b"SQLite format 3\x00"

#: The survey files this process found whole, each with its state then (see :func:`_file_state`):
#: a report opens its survey once for its text and again for each export, and the checks read
#: every row (about 1 s a million), so a file unchanged since is not checked again.
_CHECKED: dict[Path, tuple[int, ...] | None] = {}


def _file_state(path: Path) -> tuple[int, ...] | None:
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


def _at_rest(path: Path, header: bytes) -> bool:
    """Whether ``path``, whose file begins with ``header``, is a WAL database no one has open:
    then it is read as an immutable file, and a reader leaves no -wal and -shm files behind
    (SQLite's read-only mode would). A WAL database being written always has its -wal file."""
    return header[18:20] == b"\x02\x02" and not side_files(path)[0].exists()


def _connect(path: Path, mode: str, name: Path) -> sqlite3.Connection:
    """A connection to ``path``: ``rw`` (created if missing), ``ro`` (read-only, sees a running
    survey's writes) or ``immutable`` (read-only storage: read as it lies); a failure names the
    file as the user gave it (``name``)."""
    # The name's bytes, percent-quoted: a name that is not UTF-8 (os.fsdecode's surrogates) is
    # opened as the system spells it, where quoting its text would fail.
    uri = f"file:{quote(os.fsencode(path.absolute()))}?{_MODES[mode]}"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
    except sqlite3.Error as error:
        raise _fault(name, error, "open") from None
    try:
        db.execute("SELECT log10(10)")
    except sqlite3.OperationalError:  # an SQLite built without its math functions: the figures' bins need one
        db.create_function("log10", 1, math.log10, deterministic=True)
    return db


def _lock(path: Path, name: Path) -> int:
    """Lock the survey file ``path`` (named ``name`` by the user) for this run's writing, or
    refuse: two runs writing one file would both solve every deal neither had stored. An
    ``flock`` on the file itself, which SQLite's own (POSIX) locks never meet and readers never
    ask for, and which the system drops when the run ends however it ends, ``kill -9`` too: no
    lock file is left behind. Returns its descriptor, closed by :meth:`Store.close` (not
    inherited: workers are spawned, not forked)."""
    busy = SurveyBusy(f"{name}: another survey is writing this file; wait for it to end, or write to another file")
    with _WRITING_LOCK:  # threads of one program: the check, the lock and the note are one step
        try:
            found = path.stat()
        except OSError as error:
            raise _fault(name, error, "open") from None
        if (found.st_dev, found.st_ino) in _WRITING:
            # Written by this process: refused before a descriptor is opened, as closing one (on
            # a refusal) would drop the POSIX locks SQLite holds on the file for the writer.
            raise busy
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as error:
            raise _fault(name, error, "open") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise busy from None
            raise _fault(name, error, "lock") from None
        _WRITING.add((found.st_dev, found.st_ino))
        return descriptor


#: The survey files this process holds a writer's lock on, by device and inode (see :func:`_lock`).
_WRITING: set[tuple[int, int]] = set()
_WRITING_LOCK = threading.Lock()


def real_path(path: Path) -> Path:
    """The file ``path`` names, every symbolic link followed (a dangling link: the file it would
    make); the name itself if the system cannot look it up (:func:`status` then says why)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


def _refuse_links(name: Path, path: Path, found: os.stat_result) -> None:
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
    """The temporary files beside ``path`` that runs make it under (see :meth:`Store._create`),
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


def _remove_abandoned(path: Path) -> None:
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
            _remove(temporary, *side_files(temporary))
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


def _refuse_read_only(name: Path, path: Path) -> None:
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


#: The room a survey keeps free where its -shm file's pages may be holes (see Store._check_room).
_ROOM = 128 * 1024


def _remove(*paths: Path) -> None:
    """Remove what is left of a temporary file, as far as the system lets: this runs while an
    error may be on its way (a read-only or failing disk refuses the unlink too), and must never
    hide that error behind its own."""
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


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


def side_files(path: Path) -> tuple[Path, ...]:
    """The files SQLite keeps beside a database: its write-ahead log, shared memory and journal
    (none beside a name such as ``/`` or ``.``, a directory, which is refused as one)."""
    if not path.name:
        return ()
    return tuple(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal"))


def _bad_object(db: sqlite3.Connection, meta: dict[str, str]) -> str | None:
    """What the file holds that no survey makes, None if nothing: a trigger (one deleting the rows
    a resumed run inserts made it say every deal was stored), a view, an index, another table, or
    a column its tables were not made with."""
    key = meta.get("key", "seed")
    made = {"survey", "deals", "requested" if key == "seed" else "lines"}
    for kind, name, table in db.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY rowid"):
        if name.startswith("sqlite_") and table in made | {name}:  # SQLite's own (a key's index, statistics)
            continue
        if kind != "table" or name not in made:
            return f"it holds the {kind} {name}"
    expected = {
        "survey": {"key": ("TEXT", 0, 1), "value": ("TEXT", 1, 0)},
        "lines": {"line": ("INTEGER", 0, 1), "deal": ("TEXT", 1, 0)},
        "requested": {"low": ("INTEGER", 0, 1), "high": ("INTEGER", 1, 0)},
        "deals": {key: ("INTEGER", 0, 1), **{name: ("INTEGER", int(not _NULLABLE[name]), 0) for name in STORED}},
    }
    for table in sorted(made):
        columns = db.execute(f"SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo('{table}')")
        found = 0
        for name, kind, not_null, primary, hidden in columns:
            found += 1
            if expected[table].get(name) != (kind.upper(), not_null, primary) or hidden:
                return f"its {table} table has the column {name} {kind}"
        if found != len(expected[table]):
            return f"its {table} table lacks a column"
    return None


#: The settings a survey keeps: each run's, and its own bookkeeping (see _BOOKKEEPING) with the
#: few that only some keep, each with the values it may hold.
_SETTINGS = (
    "schema",
    "game",
    "variant",
    "options",
    "max_nodes",
    "max_seconds",
    "max_memory",
    "solver_version",
    "digest",
)
_SOME_SETTINGS = {"fewest_redeals": ("true",), "key": KEYS, "lines": ("open",)}
#: The largest count a row may hold (about 9 years of a search's states at a million a second), a
#: score or a count of redeals (beyond any deck), and CPU seconds (beyond 30,000 years).
_MOST_COUNT, _MOST_SCORE, _MOST_SECONDS = 2**48, 65535, 1e12
_MOST = 2**63 - 1


def _bad_setting(meta: dict[str, str]) -> str | None:
    """What is wrong with the stored settings, None if nothing: one missing or one no run keeps,
    JSON that does not parse, a value of the wrong type or beyond what a run writes."""
    for name in _SETTINGS:
        if name not in meta:
            return f"its setting {name} is missing"
    for name in meta:
        if name not in _SETTINGS and meta[name] not in _SOME_SETTINGS.get(name, ()):
            return f"its setting {name} is {meta[name]!r}"
    if meta["schema"] != str(SCHEMA_VERSION):
        return f"its setting schema is {meta['schema']!r}"
    for name in ("game", "variant", "solver_version"):
        if not meta[name] or not meta[name].isprintable():
            return f"its setting {name} is {meta[name]!r}"
    for name, kinds in _JSON_SETTINGS.items():
        try:
            value = json.loads(meta[name])
        except (TypeError, ValueError):
            return f"its setting {name} is not JSON: {meta[name]!r}"
        if isinstance(value, bool) or not isinstance(value, kinds) or not _written_setting(name, value):
            return f"its setting {name} is {meta[name]!r}"
    if meta["digest"] != settings_digest(meta):
        return "its settings differ from those it was made with (their digest)"
    return None


def _written_setting(name: str, value: Any) -> bool:
    """Whether a run writes the setting ``name`` so (limits: positive, whole where they count;
    none is null, or NaN or infinity from older versions)."""
    if name == "options":
        return all(isinstance(option, (bool, int, str)) for option in value.values())
    if value is None or isinstance(value, float) and not math.isfinite(value):
        return True
    least = {"max_nodes": 1, "max_memory": _MIN_MEMORY}.get(name, 0)
    whole = name != "max_seconds"
    return (isinstance(value, int) or not whole) and least <= value <= _MOST and value > 0


def _bad_requested(db: sqlite3.Connection, meta: dict[str, str]) -> str | None:
    """What is wrong with the seed ranges a survey of seeds was asked for, None if nothing: a
    range that is not whole numbers from 1 up, ranges that overlap or touch (runs merge them), or
    a stored deal outside them (every run records its ranges before it stores a deal)."""
    if meta.get("key", "seed") != "seed":
        return None
    spans = db.execute("SELECT low, high FROM requested ORDER BY low").fetchall()
    previous = 0
    for low, high in spans:
        lowest = previous + 2 if previous else 1  # ranges that touch are merged into one
        if not (isinstance(low, int) and isinstance(high, int) and lowest <= low <= high <= _MOST):
            return f"its requested seeds hold the range {low!r}-{high!r}"
        previous = high
    inside = sum(
        db.execute("SELECT COUNT(*) FROM deals WHERE seed BETWEEN ? AND ?", span).fetchone()[0] for span in spans
    )
    if inside != db.execute("SELECT COUNT(*) FROM deals").fetchone()[0]:
        ranges = " OR ".join(f"seed BETWEEN {low} AND {high}" for low, high in spans) or "0"
        (seed,) = db.execute(f"SELECT seed FROM deals WHERE NOT ({ranges}) LIMIT 1").fetchone()
        return f"the deal of seed {seed!r} lies outside the seeds requested"
    return None


def _bad_row(db: sqlite3.Connection, meta: dict[str, str]) -> str | None:
    """What is wrong with the first stored deal that holds a value no run writes and a report or
    a resumed run would trip on or believe, None if none does: a text where a number goes, a
    number beyond what a run writes (CPU time of 30,000 years, a score of 2**63-1 that a sum
    overflows), a code that stands for nothing, a verdict its proof and limit deny, redeals where
    no win's are. One pass in SQL (about 0.5 s a million deals)."""
    key = meta.get("key", "seed")
    # Each check: the column it names, and the SQL that is true of a row it refuses.
    kinds = {c: "'integer', 'null'" if _NULLABLE.get(c) else "'integer'" for c in (key, *STORED)}
    checks = [(c, f"typeof({c}) NOT IN ({kinds[c]})") for c in (key, *STORED)]
    checks += [
        ("verdict", f"verdict NOT BETWEEN 0 AND {len(VERDICTS) - 1}"),
        ("limit_hit", f"limit_hit NOT BETWEEN 1 AND {len(LIMITS) - 1}"),
        ("engine", f"engine NOT BETWEEN 0 AND {len(ENGINES) - 1}"),
        ("score", f"score NOT BETWEEN 0 AND {_MOST_SCORE}"),
        ("nodes", f"nodes NOT BETWEEN 0 AND {_MOST_COUNT}"),
        ("microseconds", f"microseconds NOT BETWEEN 0 AND {round(_MOST_SECONDS * 1e6)}"),
        ("peak_table_bytes", f"peak_table_bytes NOT BETWEEN 0 AND {_MOST}"),
        ("redeals", f"redeals NOT BETWEEN 0 AND {_MOST_SCORE}"),
        ("limit_hit", f"verdict = {_UNKNOWN} AND limit_hit IS NULL OR verdict = {_LOST} AND limit_hit IS NOT NULL"),
        ("redeals", f"(redeals IS NULL) = (verdict = {_WON} AND {int('fewest_redeals' in meta)})"),
        (key, f"{key} NOT BETWEEN 1 AND {_MOST}"),
    ]
    found = db.execute(
        f"SELECT {key} FROM deals WHERE {' OR '.join(f'({test})' for _, test in checks)} LIMIT 1"
    ).fetchone()
    if found is None:
        return None
    row = dict(
        zip(
            (key, *STORED),
            db.execute(f"SELECT {key}, {', '.join(STORED)} FROM deals WHERE {key} IS ?", found).fetchone(),
        )
    )
    name = next(
        column
        for column, test in checks
        if db.execute(f"SELECT 1 FROM deals WHERE {key} IS ? AND ({test})", found).fetchone()
    )
    return f"the deal of {key} {row[key]!r} has {name} {row[name]!r}"


def _bad_line(db: sqlite3.Connection, meta: dict[str, str]) -> str | None:
    """What is wrong with the first of a file's lines that a resumed run compares with the file
    (a line number that is no line's, or a deal that is not text), or the first deal stored of a
    line the file did not have; None if nothing."""
    if meta.get("key") != "line":
        return None
    found = db.execute(
        f"SELECT line, deal FROM lines WHERE typeof(line) != 'integer' OR line NOT BETWEEN 1 AND {_MOST} "
        "OR typeof(deal) != 'text' LIMIT 1"
    ).fetchone()
    if found is not None:
        return f"its file's line {found[0]!r} holds {found[1]!r}"
    stray = db.execute("SELECT line FROM deals WHERE line NOT IN (SELECT line FROM lines) LIMIT 1").fetchone()
    return None if stray is None else f"the deal of line {stray[0]!r} is of no line of its file"


def _older_format(path: Path, meta: dict[str, str]) -> SurveyError:
    """A survey file of the format 0.6.x wrote (every row repeating its settings and deal), which
    this version does not read: one line naming the version that wrote it, and what to do."""
    wrote = meta.get("solver_version", "0.6") if str(meta.get("solver_version", "")).isprintable() else "0.6"
    return SurveyError(
        f"{path} is a survey written by patience-solver {wrote} (survey format 1), which this version "
        f"({solver_version()}, format {SCHEMA_VERSION}) does not read: report it with patience-solver {wrote}, "
        "or survey its deals again into a new --out file with this version"
    )


def _request(db: sqlite3.Connection, spans: Sequence[Span]) -> None:
    """Add seed ranges to those the survey was asked for, merged with them (ranges that overlap
    or touch become one)."""
    merged: list[list[int]] = []
    for low, high in sorted([*db.execute("SELECT low, high FROM requested"), *spans]):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    db.execute("DELETE FROM requested")
    db.executemany("INSERT INTO requested (low, high) VALUES (?, ?)", merged)


def _gaps(
    db: sqlite3.Connection, low: int, high: int, least: int | None, most: int | None, first: int
) -> list[list[int]]:
    """The first ``first`` ranges of seeds from ``low`` to ``high`` not stored, given the least and
    most stored there (None: none is): one pass over the stored keys in order (SQLite's window
    function over the table's own order: nothing sorted, nothing held)."""
    if least is None or most is None:
        return [[low, high]]
    gaps = [[low, least - 1]] if least > low else []
    gaps += [
        [after + 1, seed - 1]
        for after, seed in db.execute(
            "SELECT previous, seed FROM (SELECT seed, LAG(seed) OVER (ORDER BY seed) AS previous FROM deals "
            "WHERE seed BETWEEN ? AND ?) WHERE seed > previous + 1 LIMIT ?",
            (least, most, first),
        )
    ]
    if most < high:
        gaps.append([most + 1, high])
    return gaps[:first]


def _dealer(meta: dict[str, str]) -> Any:
    """A function of a seed giving its deal's cards as text, for a survey's settings (None for
    every seed where this installation cannot deal the game)."""
    try:
        from solver.service.setup import Setup

        options = [f"{name}={_spelt(value)}" for name, value in json.loads(meta["options"]).items()]
        setup = Setup.of(meta["game"], meta["variant"], options)
    except Exception:  # noqa: BLE001 - a game or option this installation lacks: rows without deals
        return lambda seed: None
    return lambda seed: format_cards(setup.deal(seed=seed))


def _spelt(value: Any) -> str:
    from rulesets.family import spell

    return spell(value)


def _altered(path: Path, problem: str) -> StoreFault:
    """A file whose settings or rows hold what no run writes: altered by hand or by another program."""
    return StoreFault(
        path,
        f"the file is damaged ({problem}, which no survey writes)",
        "survey again into a new file, or mend that value with sqlite3",
        resumable=False,
    )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raised (unless SQLite has
    rolled back already, as it does on some errors such as a full disk)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        elif self.db.in_transaction:
            self.db.execute("ROLLBACK")
