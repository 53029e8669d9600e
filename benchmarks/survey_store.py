"""Survey files at scale: bytes a row on disk, and how long `patience report` and each export take
on a survey of millions of rows, with the most memory each uses (issue 26).

    python benchmarks/survey_store.py --rows 1000000            # a made survey of a million rows
    python benchmarks/survey_store.py --rows 10000000 --like s.sqlite   # rows drawn from a real survey
    python benchmarks/survey_store.py --survey nn10m.sqlite     # the exports of an existing survey

A made survey is written through the store as a survey run writes it (batches of rows, one
transaction each), its rows copied in turn from a real survey (``--like``: its verdicts, scores,
nodes, CPU times and engines, seed by seed) or, without one, a fixed pattern of a lost deal in
twenty won and one in a hundred unknown. Each command then runs in a process of its own under
``/usr/bin/time``: its wall time and its peak resident memory. The figures need matplotlib.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.surveys.row_codec import STORED, Stored  # noqa: E402
from solver.surveys.running import SurveySpec  # noqa: E402
from solver.surveys.store import Store  # noqa: E402

BATCH = 100_000


def pattern(count: int) -> list[Stored]:
    """Rows of no real survey, yet rows a Nizhni Novgorod survey may hold (a report refuses any
    other as damaged): every twentieth won (2 cards left), every hundredth unknown, the rest lost
    (3 to 42 cards left)."""
    rows: list[Stored] = []
    for seed in range(1, count + 1):
        verdict = 2 if seed % 100 == 0 else 0 if seed % 20 == 0 else 1
        limit = 1 if verdict == 2 else None
        score = 2 if verdict == 0 else 3 + seed % 40
        rows.append(Stored(seed, verdict, score, limit, 50 + seed % 400, 5 + seed % 900, 16384, None, 1))
    return rows


def make(path: Path, rows: int, like: Path | None) -> tuple[float, dict[str, str]]:
    """A survey of ``rows`` deals written batch by batch; returns the seconds it took and its settings."""
    if like is not None:
        with sqlite3.connect(f"file:{like}?mode=ro", uri=True) as db:
            meta = dict(db.execute("SELECT key, value FROM survey"))
            source = db.execute(f"SELECT seed, {', '.join(STORED)} FROM deals ORDER BY seed").fetchall()
        limits = (json.loads(meta[name]) for name in ("max_nodes", "max_seconds", "max_memory"))
        spec = SurveySpec(meta["game"], meta["variant"], (), *limits)  # its rows are held to its limits
    else:
        spec = SurveySpec("nizhni-novgorod", None, (), None, None, 2 * 1024**3)
        source = pattern(10_000)
    started = time.perf_counter()
    store = Store(path, spec.identity(), requested=[(1, rows)])
    try:
        for first in range(1, rows + 1, BATCH):
            last = min(rows, first + BATCH - 1)
            store.add(Stored(seed, *source[(seed - 1) % len(source)][1:]) for seed in range(first, last + 1))
    finally:
        store.close()
    return time.perf_counter() - started, spec.identity()


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident KiB of ``command``, run alone under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as measured:
        started = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", measured.name, *command],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        return wall, int(measured.read().split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the made survey")
    parser.add_argument("--like", type=Path, help="a real survey whose rows the made one copies in turn")
    parser.add_argument("--survey", type=Path, help="measure this survey's exports instead of making one")
    parser.add_argument("--keep", type=Path, help="keep the made survey and its exports in this folder")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="survey-store-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if args.survey is None:
            path = folder / "made.sqlite"
            for stale in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))):
                stale.unlink(missing_ok=True)
            seconds, _ = make(path, args.rows, args.like)
            print(f"made {args.rows:,} rows in {seconds:.1f} s ({args.rows / seconds:,.0f} rows/s)")
        else:
            path = args.survey
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            (rows,) = db.execute("SELECT COUNT(*) FROM deals").fetchone()
            pages, page = db.execute("PRAGMA page_count").fetchone()[0], db.execute("PRAGMA page_size").fetchone()[0]
        size = path.stat().st_size
        print(f"{path}: {rows:,} rows, {size:,} bytes, {size / rows:.1f} bytes a row ({pages:,} pages of {page})")
        patience = [str(Path(sys.executable).with_name("patience"))]
        commands = {
            "report (text)": ["report", str(path)],
            "--json FILE": ["report", str(path), "--json", str(folder / "deals.json")],
            "--csv FILE": ["report", str(path), "--csv", str(folder / "deals.csv")],
            "--summary-csv FILE": ["report", str(path), "--summary-csv", str(folder / "summary.csv")],
            "--plot scores.png": ["report", str(path), "--plot", str(folder / "scores.png")],
            "--plot-cpu cpu.png": ["report", str(path), "--plot-cpu", str(folder / "cpu.png")],
        }
        print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
        print(f"{'command':<20} {'wall s':>8} {'peak MiB':>9}")
        for name, command in commands.items():
            wall, peak = timed([*patience, *command])
            print(f"{name:<20} {wall:8.1f} {peak / 1024:9.1f}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
