"""The survey file's row format: how a solved deal becomes the small integers a row stores, and
back (:class:`Row`, as the API and exports give it). A row keeps only what varies from deal to
deal (verdict, score, limit, nodes, CPU time, peak table bytes, redeals and the engine, each a
small integer, after its key: a seed or a file's line); the settings every row shares are stored
once beside them, with a digest of their own (:func:`settings_digest`). A survey of a player
(:func:`is_played`) stores each deal's game as the player played it (won or lost, the score at
its end, the CPU time and the engine its searches ran on), and the moves made in a column of its
own; a search's counts (nodes, table bytes, limit, redeals) are NULL there: no search made them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from rulesets.cards import format_cards
from solver.service.solving import Outcome

if TYPE_CHECKING:
    from solver.service.playing import PlayedGame

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
    result: str  # won, lost or unknown (a player's game: won, or lost: ended without a win)
    score: int | None  # best score reached (lower is better), None if no end reached
    score_proven: int  # 1 if the score is the proven minimum (no limit stopped the search undecided)
    limit_hit: str | None  # the limit that stopped the search, if any
    nodes: int | None  # None in a survey of a player (no search of the deal was counted)
    seconds: float  # CPU seconds of the search (of a player: of its game), to the microsecond
    peak_table_bytes: int | None  # None in a survey of a player
    solver_version: str
    redeals: int | None = None  # fewest-redeals surveys: the win's redeals (fewest if no limit was hit)
    line: int | None = None  # the deal's line: the key of a survey of a file of deals
    engine: str | None = "python"  # which engine searched: native or python (None: a player searching nothing)
    moves: int | None = None  # surveys of a player: the moves it made
    player: str | None = None  # surveys of a player: its name (None: a survey of solvability)
    player_settings: str | None = None  # surveys of a player: JSON object of its settings

    def record(self) -> dict[str, Any]:
        """The row as a JSON-ready dict (options and a player's settings as objects,
        ``score_proven`` a bool)."""
        settings = None if self.player_settings is None else json.loads(self.player_settings)
        return self._asdict() | {
            "options": json.loads(self.options),
            "score_proven": bool(self.score_proven),
            "player_settings": settings,
        }


class Stored(NamedTuple):
    """A deal's stored values, as a row of the ``deals`` table holds them: its key, then the
    columns of :data:`STORED`, each a small integer (or NULL), so that a row of a survey of seeds
    takes about 25 bytes on disk (see docs/surveys.md)."""

    key: int  # the deal's seed, or its line in a file of deals
    verdict: int  # a code of VERDICTS
    score: int | None
    limit_hit: int | None  # a code of LIMITS (None: no limit stopped the search)
    nodes: int | None  # None in a survey of a player
    microseconds: int  # CPU time of the search (of a player: of its game)
    peak_table_bytes: int | None  # None in a survey of a player
    redeals: int | None  # fewest-redeals surveys: the win's redeals
    engine: int | None  # a code of ENGINES (None: a player that searches nothing)
    moves: int | None = None  # surveys of a player: the moves it made (no such column in others)


#: The stored columns of a deal of a survey of solvability, after its key.
STORED = Stored._fields[1:-1]
#: The stored columns of a deal of a survey of a player, after its key: the moves made besides.
PLAYED = Stored._fields[1:]
#: The columns a survey's deals may be keyed by: PySolFC's seeds, or the lines of a file of deals.
KEYS = ("seed", "line")
#: Each stored column: whether it may be NULL.
NULLABLE = {"verdict": False, "score": True, "limit_hit": True, "nodes": False, "microseconds": False}
NULLABLE |= {"peak_table_bytes": False, "redeals": True, "engine": False}
#: Each stored column of a survey of a player: a search's counts are NULL, the moves never.
PLAYED_NULLABLE = NULLABLE | {"nodes": True, "peak_table_bytes": True, "engine": True, "moves": False}
#: The settings naming the player of a survey of a player (absent in a survey of solvability, so
#: that files written before players were surveyed are read and resumed as they are).
PLAYER_SETTINGS = ("player", "player_settings")


def is_played(meta: dict[str, str]) -> bool:
    """Whether the survey of these settings is of a player (else of solvability)."""
    return "player" in meta


def columns(played: bool) -> tuple[str, ...]:
    """The stored columns of a deal after its key: of a survey of a player (``played``), or of
    solvability."""
    return PLAYED if played else STORED


def nullable(played: bool) -> dict[str, bool]:
    """Each stored column of a survey of a player (``played``), or of solvability: whether it may be NULL."""
    return PLAYED_NULLABLE if played else NULLABLE


def schema(key: str, played: bool) -> tuple[str, ...]:
    """The tables of a survey keyed by ``key`` (one of :data:`KEYS`), of a player or of
    solvability: its settings, its deals, and the seed ranges requested (of seeds) or the file's
    lines (of a file of deals)."""
    kinds = nullable(played)
    stored = ", ".join(f"{name} INTEGER{'' if kinds[name] else ' NOT NULL'}" for name in columns(played))
    return (
        "CREATE TABLE IF NOT EXISTS survey (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # The key is the table's rowid (INTEGER PRIMARY KEY): stored once, in the B-tree's cells,
        # with no index beside it; rows arriving in key order fill whole pages.
        f"CREATE TABLE IF NOT EXISTS deals ({key} INTEGER PRIMARY KEY, {stored})",
        "CREATE TABLE IF NOT EXISTS requested (low INTEGER PRIMARY KEY, high INTEGER NOT NULL)"
        if key == "seed"
        else "CREATE TABLE IF NOT EXISTS lines (line INTEGER PRIMARY KEY, deal TEXT NOT NULL)",
    )


def insert(key: str, played: bool) -> str:
    """The SQL storing a deal's row (a :class:`Stored`, as a dict by field name) in a survey keyed
    by ``key``, of a player or of solvability; one already stored keeps its row."""
    names = columns(played)
    return f"INSERT OR IGNORE INTO deals ({key}, {', '.join(names)}) VALUES (:key, {', '.join(':' + n for n in names)})"


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


def played_row(played: PlayedGame, line: int | None = None) -> Stored:
    """The stored values of a deal a player played (see :data:`PLAYED`), after its key: its seed,
    or its file's ``line``. No search of the deal is counted: nodes, table bytes, limit and redeals
    are None."""
    key = played.opening.seed if line is None else line
    assert key is not None and None in (played.opening.seed, line), "a row is of a seed or a line"
    engine = played.engine()
    return Stored(
        key,
        WON if played.won else LOST,
        played.score,
        None,
        None,
        round(played.seconds * 1e6),
        None,
        None,
        None if engine is None else _ENGINE_CODE[engine],
        len(played.moves),
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
        None if row.engine is None else _ENGINE_CODE[row.engine],
        row.moves,
    )


def decode(key: str, stored: Stored, deal: str | None, *, shared: dict[str, str]) -> Row:
    """The :class:`Row` of a deal's stored values (its ``key``: seed or line), with its ``deal``
    and the settings every row ``shared`` (of a survey of a player: its name and settings too).
    A player's score is where its game ended, never a proven minimum."""
    played = is_played(shared)
    return Row(
        seed=stored.key if key == "seed" else None,
        deal=deal,
        result=VERDICTS[stored.verdict],
        score=stored.score,
        score_proven=int(stored.verdict != UNKNOWN and not played),
        limit_hit=LIMITS[stored.limit_hit or 0],
        nodes=stored.nodes,
        seconds=stored.microseconds / 1e6,
        peak_table_bytes=stored.peak_table_bytes,
        redeals=stored.redeals,
        line=stored.key if key == "line" else None,
        engine=None if stored.engine is None else ENGINES[stored.engine],
        moves=stored.moves,
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


#: SQL of each exported field of a row, in order after its key (see :mod:`solver.surveys.exports`).
EXPORTED = {
    "result": text_of("verdict", VERDICTS),
    "score": "score",
    "moves": "moves",
    "score_proven": f"verdict != {UNKNOWN}",
    "limit_hit": text_of("limit_hit", LIMITS),
    "nodes": "nodes",
    "seconds": "microseconds / 1e6",
    "peak_table_bytes": "peak_table_bytes",
    "engine": text_of("engine", ENGINES),
    "redeals": "redeals",
}
#: The exported fields of a search alone (none of a player's game), and of a player's game alone.
SEARCHED_ONLY = ("score_proven", "limit_hit", "nodes", "peak_table_bytes", "redeals")
PLAYED_ONLY = ("moves",)


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
