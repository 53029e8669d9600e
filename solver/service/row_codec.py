"""The survey file's row format: how a solved deal becomes the small integers a row stores, and
back (:class:`Row`, as the API and exports give it). A row keeps only what varies from deal to
deal (verdict, score, limit, nodes, CPU time, peak table bytes, redeals and the engine, each a
small integer, after its key: a seed or a file's line); the settings every row shares are stored
once beside them, with a digest of their own (:func:`settings_digest`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from rulesets.cards import format_cards
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
WON, LOST, UNKNOWN = range(3)


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


class Stored(NamedTuple):
    """A deal's stored values, as a row of the ``deals`` table holds them: its key, then the
    columns of :data:`STORED`, each a small integer (or NULL), so that a row of a survey of seeds
    takes about 25 bytes on disk (see docs/surveys.md)."""

    key: int  # the deal's seed, or its line in a file of deals
    verdict: int  # a code of VERDICTS
    score: int | None
    limit_hit: int | None  # a code of LIMITS (None: no limit stopped the search)
    nodes: int
    microseconds: int  # CPU time of the search
    peak_table_bytes: int
    redeals: int | None  # fewest-redeals surveys: the win's redeals
    engine: int  # a code of ENGINES


#: The stored columns of a deal, after its key.
STORED = Stored._fields[1:]
#: The columns a survey's deals may be keyed by: PySolFC's seeds, or the lines of a file of deals.
KEYS = ("seed", "line")
#: Each stored column: whether it may be NULL.
NULLABLE = {"verdict": False, "score": True, "limit_hit": True, "nodes": False, "microseconds": False}
NULLABLE |= {"peak_table_bytes": False, "redeals": True, "engine": False}


def _deals_table(key: str) -> str:
    columns = ", ".join(f"{name} INTEGER{'' if NULLABLE[name] else ' NOT NULL'}" for name in STORED)
    # The key is the table's rowid (INTEGER PRIMARY KEY): stored once, in the B-tree's cells, with
    # no index beside it; rows arriving in key order fill whole pages.
    return f"CREATE TABLE IF NOT EXISTS deals ({key} INTEGER PRIMARY KEY, {columns})"


#: The tables of a survey keyed by each of :data:`KEYS`: its settings, its deals, and the seed
#: ranges requested (of seeds) or the file's lines (of a file of deals).
SCHEMA = {
    key: (
        "CREATE TABLE IF NOT EXISTS survey (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        _deals_table(key),
        "CREATE TABLE IF NOT EXISTS requested (low INTEGER PRIMARY KEY, high INTEGER NOT NULL)"
        if key == "seed"
        else "CREATE TABLE IF NOT EXISTS lines (line INTEGER PRIMARY KEY, deal TEXT NOT NULL)",
    )
    for key in KEYS
}
#: Storing a deal's row (see :data:`Stored`), by the key of its survey; one already stored keeps its row.
INSERT = {
    key: f"INSERT OR IGNORE INTO deals ({key}, {', '.join(STORED)}) VALUES ({', '.join('?' * (1 + len(STORED)))})"
    for key in KEYS
}


def stored_row(outcome: Outcome, line: int | None = None) -> Stored:
    """The stored values of a solved deal (see :data:`STORED`), after its key: its seed, or its
    file's ``line``."""
    result = outcome.result
    key = outcome.seed if line is None else line
    assert outcome.deal is not None and key is not None and None in (outcome.seed, line), "a row is of a seed or a line"
    return Stored(
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
    key = row.seed if row.line is None else row.line
    assert key is not None, "a row is of a seed or a line"
    return Stored(
        key,
        _VERDICT_CODE[row.result],
        row.score,
        None if row.limit_hit is None else _LIMIT_CODE[row.limit_hit],
        row.nodes,
        round(row.seconds * 1e6),
        row.peak_table_bytes,
        row.redeals,
        _ENGINE_CODE[row.engine],
    )


def decode(key: str, stored: Sequence[Any], deal: str | None, shared: dict[str, str]) -> Row:
    """The :class:`Row` of a deal's stored values (its ``key`` column, seed or line, then those of
    :data:`STORED`), with its ``deal`` and the settings every row ``shared``."""
    number, verdict, score, limit, nodes, micros, peak, redeals, engine = stored
    return Row(
        seed=number if key == "seed" else None,
        deal=deal,
        result=VERDICTS[verdict],
        score=score,
        score_proven=int(verdict != UNKNOWN),
        limit_hit=LIMITS[limit or 0],
        nodes=nodes,
        seconds=micros / 1e6,
        peak_table_bytes=peak,
        redeals=redeals,
        line=number if key == "line" else None,
        engine=ENGINES[engine],
        **shared,
    )


def dealer(meta: dict[str, str]) -> Any:
    """A function of a seed giving its deal's cards as text, for a survey's settings (None for
    every seed where this installation cannot deal the game)."""
    try:
        from rulesets.family import spell
        from solver.service.setup import Setup

        options = [f"{name}={spell(value)}" for name, value in json.loads(meta["options"]).items()]
        setup = Setup.of(meta["game"], meta["variant"], options)
    except Exception:  # noqa: BLE001 - a game or option this installation lacks: rows without deals
        return lambda seed: None
    return lambda seed: format_cards(setup.deal(seed=seed))


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
    "score_proven": f"verdict != {UNKNOWN}",
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


#: The survey's settings that are its own bookkeeping, not what a run is keyed on: the schema's
#: version, and whether a stream of deals was cut short (``lines``: ``open``).
BOOKKEEPING = ("schema", "lines", "digest")


def settings_digest(settings: dict[str, str]) -> str:
    """A digest of a survey's settings (its bookkeeping aside), stored beside them: every row
    holds them once now, so a setting damaged or altered in place (an option's true turned false)
    has no copy left in the rows to be caught against, and is caught by this."""
    import hashlib

    named = sorted((name, value) for name, value in settings.items() if name not in BOOKKEEPING)
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()[:32]
