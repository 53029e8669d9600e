"""The files a report writes: every deal of a survey as CSV, the summary (with every deal) or the
summaries of several surveys as JSON, and one row per survey as the summary CSV. Each is written
to a temporary file and renamed into place, never over a survey it reports."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solver.service import comparison
from solver.service.output import check_writable, replacing
from solver.service.store import COLUMNS, KEYS, Store, real_path, side_files


def exported(path: Path) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """The columns and every stored deal as an export record, by seed or line (options as an
    object, score_proven a bool). The first column is the key, ``seed`` or ``line`` (the other is
    not exported); ``redeals`` is exported only by fewest-redeals surveys, where it is filled."""
    with _records(path) as (columns, records):
        return columns, list(records)


@contextmanager
def _records(path: Path) -> Iterator[tuple[tuple[str, ...], Iterator[dict[str, Any]]]]:
    """:func:`exported`'s columns and records, read from the open file as they are consumed."""
    store = Store(path)
    try:
        others = (c for c in COLUMNS if c not in KEYS and (c != "redeals" or "fewest_redeals" in store.meta))
        columns = (store.key, *others)
        yield (
            columns,
            ({c: value for c, value in row.record().items() if c in columns} for row in store.rows()),
        )
    finally:
        store.close()


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
    """One line per deal; options as JSON in one column."""
    with _records(path) as (columns, records), replacing(target) as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for record in records:
            record["options"] = json.dumps(record["options"], sort_keys=True)
            writer.writerow(["" if record[c] is None else record[c] for c in columns])


def write_summary_csv(summaries: Sequence[dict[str, Any]], target: str) -> None:
    """One line per survey (:data:`comparison.COLUMNS`); a field that does not apply is empty."""
    with replacing(target) as out:
        writer = csv.writer(out)
        writer.writerow(comparison.COLUMNS)
        for summary in summaries:
            row = comparison.table_row(summary)
            writer.writerow(["" if row[c] is None else row[c] for c in comparison.COLUMNS])


def write_json(paths: Sequence[Path], summaries: Sequence[dict[str, Any]], target: str) -> None:
    """One survey: its summary plus every deal, as one object. Several: an array of their
    summaries, one object per survey (strict JSON either way: no NaN or infinity)."""
    if len(summaries) == 1:
        document: Any = {**summaries[0], "rows": exported(paths[0])[1]}
    else:
        document = list(summaries)
    text = json.dumps(document, indent=1, allow_nan=False)
    with replacing(target) as out:
        out.write(text + "\n")
