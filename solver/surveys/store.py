"""The survey store: one SQLite file per survey. The ``survey`` table holds the settings every row
shares (game, variant, options, limits, solver version), stored once; the ``deals`` table one
compact row per deal, keyed by its seed, or, in a survey of a file of deals, by its line in the
file, holding only what varies from deal to deal (verdict, score, limit, nodes, CPU time, peak
table bytes, redeals and the engine, each a small integer; in a survey of a player, the moves it
made besides, and no search's counts: see :mod:`~solver.surveys.row_codec`). A seed's deal is not stored: the seed
gives it. A survey of a file keeps each line's deal once, in the ``lines`` table (so that a resumed
run on a changed file is refused naming the first line that differs). A survey of seeds keeps the
seed ranges it was asked for in ``requested``, so that a report says what is still missing.

Rows are committed as they arrive (WAL journal, synchronous commits), so an interrupted survey --
Ctrl-C, ``kill -9``, a power cut, a full disk -- loses at most the deals being solved at that
moment. A run whose settings differ from the file's is refused rather than mixed in, and a file
that is refused is left exactly as it was. One run writes a file at a time (see
:func:`~solver.surveys.file_safety.lock`);
reports read it meanwhile.
"""

from __future__ import annotations

import math
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from solver.errors import StoreFault, SurveyError
from solver.service.deal_file import DealFile
from solver.service.output import status
from solver.service.seeds import Span
from solver.surveys import damage
from solver.surveys.coverage import coverage, request
from solver.surveys.file_safety import (
    at_rest,
    check_room,
    fault,
    lock,
    make_whole,
    real_path,
    refuse_links,
    refuse_read_only,
    remove_abandoned,
    survey_header,
    unlock,
)
from solver.surveys.resume import refuse_other_deals, refuse_other_run
from solver.surveys.row_codec import (
    KEYS,
    PLAYER_SETTINGS,
    SCHEMA_VERSION,
    VERDICTS,
    Row,
    Stored,
    columns,
    dealer,
    decode,
    insert,
    is_played,
    schema,
    settings_digest,
)


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
        *,
        requested: Sequence[Span] = (),
    ) -> None:
        """``requested``: the seed ranges a run of a survey of seeds asks for, added to the file's."""
        self.path = Path(path)  # as the user gave it: messages name it so
        # Every file is opened by its real path: SQLite keeps the last commits in NAME-wal beside
        # the name a file is opened by, so a symbolic link's name would miss (or make) another one.
        self.real = real_path(self.path)
        self._lock: int | None = None  # the descriptor holding a writer's lock (see lock)
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
            self.played = is_played(self.meta)  # a survey of a player (else of solvability)
            if self.key not in KEYS:
                raise SurveyError(
                    f"{self.path} is a survey of deals keyed by {self.key!r}, which this version cannot read"
                )
            if identity is not None:  # again: another run may have created the file meanwhile
                refuse_other_run(self.path, identity, self.meta)
                if deals is not None:
                    with self._faults("read"):
                        refuse_other_deals(self.path, self.db, deals)
        except BaseException:
            self.close()  # the lock too: a refused run in a longer program must not keep it
            raise

    def _open_to_read(self, fix: str = "") -> sqlite3.Connection:
        """A read-only connection to an existing survey file, checked whole (``fix``: what to add
        to the message refusing a file that is not a survey)."""
        header = survey_header(self.path, self.real, fix, writing=self._lock is not None)
        db = _connect(self.real, "immutable" if at_rest(self.real, header) else "ro", self.path)
        try:
            with self._faults("read"):
                try:
                    db.execute("SELECT 1 FROM sqlite_master").fetchall()
                except sqlite3.OperationalError:  # read-only storage and no -shm file: read as is
                    db.close()
                    db = _connect(self.real, "immutable", self.path)
                damage.check(db, self.real, self.path, fix=fix)
        except BaseException:
            db.close()
            raise
        return db

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
            remove_abandoned(real)  # one killed between linking the file and unlinking it is a second name
            refuse_links(path, real, status(path) or found)
        else:
            self._create(identity, deals, requested)
        self._lock = lock(real, path)  # before anything is read or written: another run may be writing
        if found is not None and found.st_size > 0:
            existing = self._open_to_read("; give another --out file")
            try:
                with self._faults("read"):
                    refuse_other_run(self.path, identity, dict(existing.execute("SELECT key, value FROM survey")))
                    if deals is not None:
                        refuse_other_deals(self.path, existing, deals)
            finally:
                existing.close()
        refuse_read_only(path, real)  # before SQLite makes -wal and -shm files a rerun could not use
        check_room(real, path)
        db = _connect(real, "rw", path)
        try:
            with self._faults("write to"):
                self._set_up(db, identity, deals, requested=requested, journal="WAL")
        except BaseException:
            db.close()
            raise
        return db

    def _create(self, identity: dict[str, str], deals: DealFile | None, requested: Sequence[Span]) -> None:
        """Make a new survey file whole under a temporary name, then link it into place (see
        :func:`~solver.surveys.file_safety.make_whole`): a run killed while it makes the file leaves
        no half-made survey file that a rerun would refuse. If another run made the file meanwhile,
        that file stands, and the checks that follow hold this run to it."""

        def make(temporary: Path) -> None:
            db = _connect(temporary, "rw", self.path)  # named as the user gave it, not by its hidden temporary
            try:
                with self._faults("write to"):
                    # A rollback journal, not the WAL: made whole in the file itself (a full disk
                    # raises as it is written), with no -shm file mapped into memory, whose pages a
                    # full disk cannot back (SIGBUS, seen on ext4 of 1 KiB blocks).
                    self._set_up(db, identity, deals, requested=requested, journal="DELETE", new=True)
            finally:
                db.close()

        make_whole(self.real, self.path, make)

    def _set_up(
        self,
        db: sqlite3.Connection,
        identity: dict[str, str],
        deals: DealFile | None,
        *,
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
            for statement in schema(key, is_played(identity)):
                db.execute(statement)
            db.executemany(
                "INSERT OR IGNORE INTO survey (key, value) VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), *identity.items(), ("digest", settings_digest(identity))],
            )
            if requested:
                request(db, requested)
            if deals is not None:
                db.executemany("INSERT OR IGNORE INTO lines (line, deal) VALUES (?, ?)", deals.deals)
                if deals.more is None:  # every deal of the file is recorded now
                    db.execute("DELETE FROM survey WHERE key = 'lines'")
                elif new:  # a stream: its deals are recorded as they are read
                    db.execute("INSERT OR IGNORE INTO survey (key, value) VALUES ('lines', 'open')")

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
            raise fault(self.path, error, doing) from None

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
        """What the survey was asked for and what of it is stored (see
        :func:`~solver.surveys.coverage.coverage`); ``open``: a stream cut short, more may come."""
        with self._faults("read"):
            found = coverage(self.db, self.key, self.requested(), first=first)
        return {**found, "open": self.lines_open}

    def add(self, rows: Iterable[Stored]) -> None:
        """Store rows (of :func:`stored_row`) in one transaction (a deal already stored keeps its
        row), with the lines of a stream read since the last (see :meth:`read_line`)."""
        rows = list(rows)
        check_room(self.real, self.path, len(rows) + len(self._new_lines))
        with self._faults("write to"), _Transaction(self.db):
            if self._new_lines:
                self.db.executemany("INSERT OR IGNORE INTO lines (line, deal) VALUES (?, ?)", self._new_lines)
            # By field name (a row of solvability binds no moves: its table has no such column).
            self.db.executemany(insert(self.key, self.played), (dict(zip(Stored._fields, row)) for row in rows))
        self._new_lines = []

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
        named = ("game", "variant", "options", "solver_version", *(PLAYER_SETTINGS if self.played else ()))
        shared = {name: meta[name] for name in named}
        deal_of = dealer(meta)
        stored = columns(self.played)
        sql = f"SELECT {key}, {', '.join(stored)} FROM deals ORDER BY {key}"
        if key == "line":
            sql = (
                f"SELECT deals.line, {', '.join('deals.' + c for c in stored)}, lines.deal FROM deals "
                "JOIN lines ON lines.line = deals.line ORDER BY deals.line"
            )
        width = 1 + len(stored)
        with self._faults("read"):
            for found in self.db.execute(sql):
                values = Stored(*found[:width])
                yield decode(key, values, found[width] if key == "line" else deal_of(values.key), shared=shared)

    def close(self) -> None:
        """Close the file, then let another run write it. In that order: closing any descriptor of
        the file drops the POSIX locks SQLite holds on it in this process."""
        db = getattr(self, "db", None)  # none if opening the file failed
        try:
            if db is not None:
                db.close()
        finally:  # the lock goes whatever closing the connection raised
            if self._lock is not None:
                unlock(self._lock)
                self._lock = None


# SQLite's primary result codes, and what each says about the file.

_MODES = {"rw": "mode=rwc", "ro": "mode=ro", "immutable": "immutable=1"}


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
        raise fault(name, error, "open") from None
    try:
        db.execute("SELECT log10(10)")
    except sqlite3.OperationalError:  # an SQLite built without its math functions: the figures' bins need one
        db.create_function("log10", 1, math.log10, deterministic=True)
    return db


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
