"""The damage checks of a survey file: everything a report or a resumed run reads is held to what
a survey writes, and a file holding anything else (damaged, or altered by hand or by another
program) is refused before it is believed or written to. The checks read every row (about 1 s a
million), so a file unchanged since it was found whole is not checked again in one process.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from pathlib import Path
from typing import Any

from rulesets.family import Family, OptionError
from solver.draws import SCHEME
from solver.errors import StoreFault, SurveyError
from solver.service.setup import MIN_MEMORY as _MIN_MEMORY
from solver.surveys.file_safety import damaged, file_state
from solver.surveys.row_codec import (
    ENGINES,
    KEYS,
    LIMITS,
    LOST,
    SCHEMA_VERSION,
    UNKNOWN,
    VERDICTS,
    WON,
    columns,
    is_played,
    nullable,
    settings_digest,
    solver_version,
)

#: The survey files this process found whole, each with its state then (see :func:`file_state`):
#: a report opens its survey once for its text and again for each export, so a file unchanged
#: since is not checked again.
_CHECKED: dict[Path, tuple[int, ...] | None] = {}


def check(db: sqlite3.Connection, path: Path, name: Path, *, fix: str = "") -> None:
    """Refuse the survey file ``path`` (named ``name`` by the user), open as ``db``, if it is not a
    survey, is of the format 0.6.x wrote, or is damaged (``fix``: what to add to the message
    refusing a file that is not a survey); unless it was found whole unchanged since."""
    state, began = file_state(path), time.time()
    if state is None or _CHECKED.get(path) != state:
        _check_survey(db, name, fix)
        # Kept only for a file last written over a second before it was looked at: a
        # write after that then has a later time, whatever the clock's grain.
        settled = state is not None and began - max(state[3], state[6]) / 1e9 > 1
        if settled and state == file_state(path):
            _CHECKED[path] = state


def _check_survey(db: sqlite3.Connection, name: Path, fix: str) -> None:
    """Refuse a file that is not a survey, is of the format 0.6.x wrote, or is damaged."""
    tables = {found for (found,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"survey", "deals"} <= tables:
        raise SurveyError(f"{name} is an SQLite file but not a survey file (it has no survey and deals tables){fix}")
    problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    if problem != "ok":
        raise damaged(name, " ".join(problem.split()))
    meta = dict(db.execute("SELECT key, value FROM survey"))
    if meta.get("schema") == "1":
        raise _older_format(name, meta)
    altered = (
        _bad_object(db, meta)
        or _bad_setting(meta)
        or _bad_row(db, meta)
        or _bad_requested(db, meta)
        or _bad_line(db, meta)
    )
    if altered is not None:
        raise _altered(name, altered)


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
    played = is_played(meta)
    stored = {name: ("INTEGER", int(not nullable(played)[name]), 0) for name in columns(played)}
    expected = {
        "survey": {"key": ("TEXT", 0, 1), "value": ("TEXT", 1, 0)},
        "lines": {"line": ("INTEGER", 0, 1), "deal": ("TEXT", 1, 0)},
        "requested": {"low": ("INTEGER", 0, 1), "high": ("INTEGER", 1, 0)},
        "deals": {key: ("INTEGER", 0, 1), **stored},
    }
    for table in sorted(made):
        made_with = db.execute(f"SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo('{table}')")
        found = 0
        for name, kind, not_null, primary, hidden in made_with:
            found += 1
            if expected[table].get(name) != (kind.upper(), not_null, primary) or hidden:
                return f"its {table} table has the column {name} {kind}"
        if found != len(expected[table]):
            return f"its {table} table lacks a column"
    return None


#: The settings stored as JSON, and the types their values may have (a limit: a number, or none,
#: which older versions stored as NaN or infinity).
_LIMIT = (int, float, type(None))
_JSON_SETTINGS: dict[str, tuple[type, ...]] = {
    "options": (dict,),
    **dict.fromkeys(("max_nodes", "max_seconds", "max_memory"), _LIMIT),
}
#: The settings a survey keeps: each run's, and its own bookkeeping (see
#: :data:`~solver.surveys.row_codec.BOOKKEEPING`) with the few that only some keep, each with the
#: values it may hold (a survey of a player's, checked apart: see :func:`_bad_player`).
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
_SOME_SETTINGS = {"fewest_redeals": ("true",), "key": KEYS, "lines": ("open",), "draws": (SCHEME,)}
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
        if name not in _SETTINGS and name not in _PLAYER and meta[name] not in _SOME_SETTINGS.get(name, ()):
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
    return _bad_player(meta)


#: The settings of a survey of a player: its name, and its settings as a JSON object.
_PLAYER = ("player", "player_settings")


def _bad_player(meta: dict[str, str]) -> str | None:
    """What is wrong with the settings of a survey of a player, None if nothing (or a survey of
    solvability): its name without its settings or the reverse, a name that is not printable,
    settings that are not an object of whole numbers, a search's limit or the fewest-redeals
    search (a player's game has neither)."""
    present = [name for name in _PLAYER if name in meta]
    if not present:
        return None
    if len(present) == 1:
        (other,) = set(_PLAYER) - set(present)
        return f"its setting {present[0]} is {meta[present[0]]!r} without {other}"
    if not meta["player"] or not meta["player"].isprintable():
        return f"its setting player is {meta['player']!r}"
    try:
        settings = json.loads(meta["player_settings"])
    except ValueError:
        return f"its setting player_settings is not JSON: {meta['player_settings']!r}"
    whole = isinstance(settings, dict) and all(  # counts of draws, and seeds of up to 64 bits
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64 for value in settings.values()
    )
    if not whole:
        return f"its setting player_settings is {meta['player_settings']!r}"
    searched = [name for name in ("max_nodes", "max_seconds", "max_memory") if json.loads(meta[name]) is not None]
    searched += ["fewest_redeals"] if "fewest_redeals" in meta else []
    if searched:
        return f"its setting {searched[0]} is {meta[searched[0]]!r} where a player's games are surveyed, not searched"
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
    no win's are; then what no play of the survey's game under its settings produces (see
    :func:`_unplayable`), and a search's counts in a player's game (see :func:`_unsearched`).
    One pass in SQL (about 0.5 s a million deals)."""
    key, played = meta.get("key", "seed"), is_played(meta)
    stored = columns(played)
    # Each check: the column it names, the SQL that is true of a row it refuses, and why, where
    # the value alone does not say it.
    kinds = {c: "'integer', 'null'" if nullable(played).get(c) else "'integer'" for c in (key, *stored)}
    checks = [(c, f"typeof({c}) NOT IN ({kinds[c]})", "") for c in (key, *stored)]
    checks += [
        ("verdict", f"verdict NOT BETWEEN 0 AND {len(VERDICTS) - 1}", ""),
        ("limit_hit", f"limit_hit NOT BETWEEN 1 AND {len(LIMITS) - 1}", ""),
        ("engine", f"engine NOT BETWEEN 0 AND {len(ENGINES) - 1}", ""),
        ("score", f"score NOT BETWEEN 0 AND {_MOST_SCORE}", ""),
        ("nodes", f"nodes NOT BETWEEN 0 AND {_MOST_COUNT}", ""),
        ("microseconds", f"microseconds NOT BETWEEN 0 AND {round(_MOST_SECONDS * 1e6)}", ""),
        ("peak_table_bytes", f"peak_table_bytes NOT BETWEEN 0 AND {_MOST}", ""),
        ("redeals", f"redeals NOT BETWEEN 0 AND {_MOST_SCORE}", ""),
        ("limit_hit", f"verdict = {UNKNOWN} AND limit_hit IS NULL OR verdict = {LOST} AND limit_hit IS NOT NULL", ""),
        ("redeals", f"(redeals IS NULL) = (verdict = {WON} AND {int('fewest_redeals' in meta)})", ""),
        (key, f"{key} NOT BETWEEN 1 AND {_MOST}", ""),
        *_unplayable(meta),
        *(_unsearched(meta) if played else ()),
    ]
    found = db.execute(
        f"SELECT {key} FROM deals WHERE {' OR '.join(f'({test})' for _, test, _ in checks)} LIMIT 1"
    ).fetchone()
    if found is None:
        return None
    row = dict(
        zip(
            (key, *stored),
            db.execute(f"SELECT {key}, {', '.join(stored)} FROM deals WHERE {key} IS ?", found).fetchone(),
        )
    )
    name, why = next(
        (column, why)
        for column, test, why in checks
        if db.execute(f"SELECT 1 FROM deals WHERE {key} IS ? AND ({test})", found).fetchone()
    )
    return f"the deal of {key} {row[key]!r} has {name} {row[name]!r}{' ' + why if why else ''}"


def _unplayable(meta: dict[str, str]) -> list[tuple[str, str, str]]:
    """The checks (as :func:`_bad_row` takes them) of what no play produces of the survey's game
    under its settings, which a row holding only values runs write may still hold: a score outside
    the game's range (from a win's, the lowest there is, to the deck's size, whatever cards a deal
    of a file held: 53 cards left of 52, no Accordion pile at all), a win at another score or a
    deal not won at a win's (a state scores a win's score exactly when it is won), a table peak
    above the survey's memory bound (the search holds its tables within it), more states than its
    node limit, a limit it does not set named as hit. A game this installation lacks is not
    checked but for its limits."""
    checks = []
    family = _family(meta["game"])
    if family is not None:
        win, most = family.win_score, len(family.deck())
        name = family.name + ("'" if family.name.endswith("s") else "'s")
        checks += [
            (
                "score",
                f"score NOT BETWEEN {win} AND {most}",
                f"where {name} score runs from {win} to {most} {family.score_label}",
            ),
            ("score", f"verdict = {WON} AND score IS NOT {win}", f"where a won deal scores {win}"),
            ("score", f"verdict != {WON} AND score = {win}", f"where a deal not won scores more than {win}"),
        ]
    memory, nodes = json.loads(meta["max_memory"]), json.loads(meta["max_nodes"])
    if isinstance(memory, int):  # else none: null, or NaN or infinity from older versions
        checks.append(
            ("peak_table_bytes", f"peak_table_bytes > {memory}", f"where the survey's max_memory is {memory}")
        )
    if isinstance(nodes, int):  # a search stops at exactly max_nodes states
        checks.append(("nodes", f"nodes > {nodes}", f"where the survey's max_nodes is {nodes}"))
    for code, limit in enumerate(LIMITS):
        if limit is not None and not _bounded(json.loads(meta[limit])):
            checks.append(("limit_hit", f"limit_hit = {code}", f"where the survey sets no {limit}"))
    return checks


def _unsearched(meta: dict[str, str]) -> list[tuple[str, str, str]]:
    """The checks (as :func:`_bad_row` takes them) of a survey of a player's rows: the moves it
    made, counted; no search's counts (nodes, table bytes: its searches are not counted); an
    engine exactly where the player searches (a player this installation lacks: either)."""
    from solver.players import PLAYERS, SEARCHING

    unsearched = "where a player's game counts no search"
    checks = [
        ("moves", f"moves NOT BETWEEN 0 AND {_MOST_COUNT}", ""),
        ("nodes", "nodes IS NOT NULL", unsearched),
        ("peak_table_bytes", "peak_table_bytes IS NOT NULL", unsearched),
    ]
    player = meta["player"]
    if player in SEARCHING:
        checks.append(("engine", "engine IS NULL", f"where the {player} player's searches ran on an engine"))
    elif player in PLAYERS:
        checks.append(("engine", "engine IS NOT NULL", f"where the {player} player searches nothing"))
    return checks


def _bounded(limit: Any) -> bool:
    """Whether a stored limit bounds a search (none is null, or NaN or infinity from older versions)."""
    return limit is not None and math.isfinite(limit)


def _family(game: str) -> Family | None:
    """The family a survey's setting ``game`` names, None if this installation lacks it."""
    from rulesets import find_game

    try:
        return find_game(game)[0]
    except OptionError:
        return None


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


def _altered(path: Path, problem: str) -> StoreFault:
    """A file whose settings or rows hold what no run writes: altered by hand or by another program."""
    return StoreFault(
        path,
        f"the file is damaged ({problem}, which no survey writes)",
        "survey again into a new file, or mend that value with sqlite3",
        resumable=False,
    )
