"""The survey store: one SQLite file per survey, a ``survey`` table of the settings it is keyed on
and a ``deals`` table of one :class:`Row` per seed.

Rows are committed as they arrive (WAL journal, synchronous commits), so an interrupted survey --
Ctrl-C, ``kill -9``, a power cut -- loses at most the deals being solved at that moment. A run
whose settings differ from the file's is refused rather than mixed in.
"""

from __future__ import annotations

import sqlite3
import types
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import (
    Any,
    NamedTuple,
    get_args,
    get_type_hints,
)

from rulesets.cards import format_cards
from solver.service.errors import SurveyError
from solver.service.seeds import Span
from solver.service.solving import Outcome

SCHEMA_VERSION = 1


class Row(NamedTuple):
    """One stored deal. Its fields are the ``deals`` table's columns, in order: the table, the
    inserts and the reads are all written from this class."""

    seed: int  # PySolFC game number; one row per seed (the primary key)
    game: str
    variant: str
    options: str  # JSON object of every option's value
    deal: str  # the cards, first dealt first
    result: str  # won, lost or unknown
    score: int | None  # best score reached (lower is better), None if no end reached
    score_proven: int  # 1 if the score is the proven minimum (no limit was hit)
    limit_hit: str | None  # the limit that stopped the search, if any
    nodes: int
    seconds: float  # CPU seconds of the search
    peak_table_bytes: int
    solver_version: str
    redeals: int | None = None  # fewest-redeals surveys: the win's redeals (fewest if no limit was hit)

    @classmethod
    def of(cls, outcome: Outcome, options: str, version: str) -> Row:
        """The row of a solved seeded deal (``options`` as stored: JSON with sorted keys)."""
        setup, result = outcome.setup, outcome.result
        assert outcome.seed is not None and outcome.deal is not None, "survey rows are of seeded deals"
        return cls(
            seed=outcome.seed,
            game=setup.family.name,
            variant=setup.variant,
            options=options,
            deal=format_cards(outcome.deal),
            result=result.verdict.value,
            score=outcome.score(),
            score_proven=int(outcome.score_proven()),
            limit_hit=result.limit,
            nodes=result.stats.nodes,
            seconds=round(result.stats.seconds, 6),
            peak_table_bytes=result.stats.peak_table_bytes,
            solver_version=version,
            redeals=outcome.cost(),
        )


COLUMNS = Row._fields
_SQL_TYPES = {int: "INTEGER", str: "TEXT", float: "REAL"}


def _column(name: str, hint: Any) -> str:
    """The column definition of one field of :class:`Row`."""
    nullable = isinstance(hint, types.UnionType) and type(None) in get_args(hint)
    kind = next(a for a in get_args(hint) if a is not type(None)) if nullable else hint
    definition = f"{name} {_SQL_TYPES[kind]}"
    if name == "seed":
        return definition + " PRIMARY KEY"
    return definition if nullable else definition + " NOT NULL"


_DEFINITIONS = {name: _column(name, hint) for name, hint in get_type_hints(Row).items()}
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS survey (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS deals ({', '.join(_DEFINITIONS.values())})",
)
_INSERT = f"INSERT OR IGNORE INTO deals ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


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

    Open with ``identity`` (the settings a run is keyed on) to create or resume a survey; without
    it to read one.
    """

    def __init__(self, path: Path, identity: dict[str, str] | None = None) -> None:
        self.path = Path(path)
        if identity is None and not self.path.exists():
            raise SurveyError(f"{self.path}: no such survey file")
        tables = self._connect()
        if tables and not {"survey", "deals"} <= tables:
            raise SurveyError(f"{self.path} is an SQLite file but not a survey file; give another --out")
        if identity is None and not tables:
            raise SurveyError(f"{self.path} is not a survey file (it holds no survey)")
        if identity is not None and not tables:
            self._create(identity)
        self._add_new_columns()
        self.meta: dict[str, str] = dict(self.db.execute("SELECT key, value FROM survey"))
        if identity is not None:
            self._check(identity)

    def _connect(self) -> set[str]:
        """Open the file (WAL, synchronous commits); the names of its tables."""
        try:
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            return {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as error:
            raise SurveyError(f"{self.path} is not a survey file ({error})") from None

    def _create(self, identity: dict[str, str]) -> None:
        with self._transaction():  # IF NOT EXISTS / OR IGNORE: another run may be creating it too
            for statement in _SCHEMA:
                self.db.execute(statement)
            self.db.executemany(
                "INSERT OR IGNORE INTO survey (key, value) VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), *identity.items()],
            )

    def _add_new_columns(self) -> None:
        """Files written before a column was added to :class:`Row` get it (empty) on opening."""
        present = {name for (name,) in self.db.execute("SELECT name FROM pragma_table_info('deals')")}
        for name in COLUMNS:
            if name not in present:
                self.db.execute(f"ALTER TABLE deals ADD COLUMN {_DEFINITIONS[name]}")

    def _check(self, identity: dict[str, str]) -> None:
        """Refuse a run whose settings differ from the file's (a setting either lacks counts)."""
        keys = [*identity, *(k for k in self.meta if k not in identity and k != "schema")]
        differ = [k for k in keys if self.meta.get(k) != identity.get(k)]
        if differ:
            raise SurveyError(
                f"{self.path} holds a survey with other settings ("
                + "; ".join(f"{k}: file has {self.meta.get(k)}, this run {identity.get(k)}" for k in differ)
                + "); results of different rules, options, limits or solver versions are not mixed: give another --out"
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def stored_in(self, low: int, high: int) -> set[int]:
        """The stored seeds from ``low`` to ``high``."""
        return {seed for (seed,) in self.db.execute("SELECT seed FROM deals WHERE seed BETWEEN ? AND ?", (low, high))}

    def count_in(self, spans: Sequence[Span]) -> tuple[int, int]:
        """(stored deals, of which won) within the seed ranges."""
        done = won = 0
        for low, high in spans:
            n, w = self.db.execute(
                "SELECT COUNT(*), COALESCE(SUM(result = 'won'), 0) FROM deals WHERE seed BETWEEN ? AND ?", (low, high)
            ).fetchone()
            done, won = done + n, won + w
        return done, won

    def missing(self, spans: Sequence[Span], block: int = 10000) -> Iterator[int]:
        """The seeds of the ranges not stored yet, in increasing order (memory bounded by ``block``)."""
        for low, high in spans:
            for start in range(low, high + 1, block):
                end = min(high, start + block - 1)
                stored = self.stored_in(start, end)
                yield from (seed for seed in range(start, end + 1) if seed not in stored)

    def add(self, rows: Iterable[Row]) -> None:
        """Store rows in one transaction (a seed already stored keeps its row)."""
        with self._transaction():
            self.db.executemany(_INSERT, list(rows))

    def rows(self) -> Iterator[Row]:
        """Every stored deal, by seed."""
        for values in self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM deals ORDER BY seed"):
            yield Row._make(values)

    def close(self) -> None:
        self.db.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raised."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
