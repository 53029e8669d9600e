"""The files a report writes: every deal of a survey as CSV, the summary (with every deal) or the
summaries of several surveys as JSON, and one row per survey as the summary CSV. Each is written
to a temporary file and renamed into place, never over a survey it reports."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.service.output import check_writable, replacing
from solver.surveys import comparison
from solver.surveys.file_safety import real_path, side_files
from solver.surveys.row_codec import ENGINES, EXPORTED, LIMITS, PLAYED_ONLY, SEARCHED_ONLY, VERDICTS, text_of
from solver.surveys.store import Store

#: The exported columns that stand for a code's text: their name, column and codes.
_CODED = (("result", "verdict", VERDICTS), ("limit_hit", "limit_hit", LIMITS), ("engine", "engine", ENGINES))


def columns_of(store: Store) -> tuple[str, ...]:
    """The columns of a survey's per-deal export: its key (``seed`` or ``line``), what varies from
    deal to deal, ``redeals`` in a fewest-redeals survey, and in a survey of a file each line's
    ``deal`` (a seed's deal is the seed's: ``patience solve GAME --seed N`` deals it). What every
    row shares (game, variant, options, limits or player, solver version) is the summary's, not
    repeated. A survey of a player has its games' ``moves`` and none of a search's columns."""
    apart = SEARCHED_ONLY if store.played else (*PLAYED_ONLY, *(() if "fewest_redeals" in store.meta else ("redeals",)))
    varying = [name for name in EXPORTED if name not in apart]
    return (store.key, *varying, *(("deal",) if store.key == "line" else ()))


def _expressions(store: Store, fields: dict[str, str]) -> list[str]:
    """The SQL of each export column (:func:`columns_of`), with ``fields``' SQL where it differs
    from :data:`EXPORTED`'s."""
    sql = {**EXPORTED, store.key: f"deals.{store.key}", "deal": "lines.deal", **fields}
    return [sql[name] for name in columns_of(store)]


def _select(store: Store, columns: str) -> str:
    """The SQL reading ``columns`` of every deal of ``store``, in key order."""
    joined = " JOIN lines ON lines.line = deals.line" if store.key == "line" else ""
    return f"SELECT {columns} FROM deals{joined} ORDER BY deals.{store.key}"


#: Each export column's SQL as CSV text and as a JSON value, where it differs from its plain value
#: (NULL is an empty CSV field, JSON's null): a row is made whole by SQLite, one text each (a
#: quarter less CPU than csv's writer over the values, measured on a million rows). Seconds are
#: SQLite's text of the float (``6.5e-05``, as Python writes it), a third the CPU of printf's.
_AS_CSV = {"score_proven": "IIF(verdict != 2, 'True', 'False')"}  # as csv wrote Python's bool
_AS_JSON = {
    "score_proven": "IIF(verdict != 2, 'true', 'false')",
    **{name: text_of(column, codes, quoted=True) for name, column, codes in _CODED},
    "deal": "json_quote(lines.deal)",
}


def _lines(store: Store, kind: str) -> str:
    """SQL giving every deal of ``store`` as one line of text: CSV (``kind`` ``csv``) or a JSON
    object (``json``), ending in a newline (CSV's lines end in CR LF, as RFC 4180 and Python's
    csv writer, which the summary CSV uses, end them)."""
    columns = columns_of(store)
    values = _expressions(store, _AS_CSV if kind == "csv" else _AS_JSON)
    if kind == "csv":
        parts = [f"IFNULL({value}, '')" for value in values]
        return _select(store, " || ',' || ".join(parts) + " || char(13, 10)")
    parts = []
    for name, value in zip(columns, values):
        parts.append(f"'{',' if parts else '{'}\"{name}\":' || IFNULL({value}, 'null')")
    return _select(store, " || ".join(parts) + " || '}'")


def _write_lines(store: Store, sql: str, out: Any, *, separator: str = "") -> int:
    """Write each text ``sql`` gives, ``separator`` between them, in blocks of 10,000 (the rows are
    never all held); returns how many were written."""
    written = 0
    for block in store.blocks(sql):
        out.write(("" if not written else separator) + separator.join(text for (text,) in block))
        written += len(block)
    return written


def check_targets(sources: Sequence[Path], targets: dict[str, str | None]) -> None:
    """Refuse export targets (by option name; None: not asked for, ``-``: standard output) that
    would overwrite a survey (or a file SQLite keeps beside it), each other, or cannot be written
    -- before anything is written."""
    # By the real file too: SQLite keeps the -wal and -shm files beside the file a symbolic link
    # names, not beside the link (and check_writable compares existing files by device and inode).
    inputs = [
        file for source in sources for named in (source, real_path(source)) for file in (named, *side_files(named))
    ]
    check_writable(inputs, targets, "a survey file it reports")


def write_csv(path: Path, target: str) -> None:
    """One line per deal (see :func:`columns_of`), each made by SQLite as it is read: the rows
    never held in memory (about 2 CPU s a million deals)."""
    store = Store(path)
    try:
        with replacing(target) as out:
            out.write(",".join(columns_of(store)) + "\r\n")
            _write_lines(store, _lines(store, "csv"), out)
    finally:
        store.close()


def write_summary_csv(summaries: Sequence[dict[str, Any]], target: str) -> None:
    """One line per survey (:data:`comparison.COLUMNS`); a field that does not apply is empty."""
    with replacing(target) as out:
        writer = csv.writer(out)
        writer.writerow(comparison.COLUMNS)
        for summary in summaries:
            row = comparison.table_row(summary)
            writer.writerow(["" if row[c] is None else row[c] for c in comparison.COLUMNS])


def write_json(paths: Sequence[Path], summaries: Sequence[dict[str, Any]], target: str) -> None:
    """One survey: its summary plus every deal (``rows``, one object a line, each made by SQLite:
    the rows never held in memory). Several: an array of their summaries, one object per survey.
    Strict JSON either way: no NaN or infinity."""
    if len(summaries) != 1:
        with replacing(target) as out:
            out.write(json.dumps(list(summaries), indent=1, allow_nan=False) + "\n")
        return
    head = json.dumps({**summaries[0], "rows": []}, indent=1, allow_nan=False)
    head = head[: head.rindex("[]")]  # the summary, up to its last field's empty list of rows
    store = Store(paths[0])
    try:
        with replacing(target) as out:
            out.write(head + "[\n")
            _write_lines(store, _lines(store, "json"), out, separator=",\n")
            out.write("\n ]\n}\n")
    finally:
        store.close()
