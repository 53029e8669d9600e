"""Deals per second of one survey on a Dask cluster against the number of workers (issue 26),
beside the local process pool, in one run: each cluster a `dask scheduler` and N `dask worker`
processes of one thread each on this machine's loopback address, started afresh for each N.

    python benchmarks/survey_dask.py                       # nizhni-novgorod seeds 1-20000, 1 to 4 workers
    python benchmarks/survey_dask.py --preset self-working --seeds 1-5000 --workers 1 2

Each run surveys the same seeds into a new file: its wall time from the command's start to its
end (workers already connected), and the rate it says it solved at (its first chunk sent to its
last row stored: the parent stores every row). The rows of every
run are compared with those of --jobs 1: the same, whatever the workers. On a machine of two
cores shared with others, more workers than cores share them: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import DaskCluster  # type: ignore[import-not-found]  # noqa: E402  (tests/helpers.py)


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT seed, verdict, score, limit_hit, nodes FROM deals ORDER BY seed").fetchall()


def survey(preset: str, seeds: str, out: Path, *how: str) -> tuple[float, float]:
    """Wall seconds of one survey command, run to its end (its start, connecting to the cluster
    and closing included), and the deals per second it says it solved at (from its first chunk
    sent to its last row stored)."""
    command = [str(Path(sys.executable).with_name("patience")), "survey", preset, "--seeds", seeds, "--out", str(out)]
    started = time.perf_counter()
    ran = subprocess.run([*command, "--no-progress", *how], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - started
    said = re.search(r"\(([\d.]+) deals/s\)", ran.stdout)
    assert said is not None, ran.stdout
    return wall, float(said.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="nizhni-novgorod")
    parser.add_argument("--seeds", default="1-20000")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 3, 4])
    args = parser.parse_args()
    low, high = (int(part) for part in args.seeds.split("-"))
    deals = high - low + 1
    with tempfile.TemporaryDirectory(prefix="survey-dask-") as folder:
        base = Path(folder)
        print(f"{args.preset}, seeds {args.seeds} ({deals:,} deals); {os.cpu_count()} CPUs")
        print(f"{'run':<22} {'wall s':>8} {'deals/s':>9} {'solving':>9} {'same rows':>10} {'load':>5}")
        reference = base / "jobs1.sqlite"
        runs = [("--jobs 1", reference, ["--jobs", "1"]), ("--jobs 2", base / "jobs2.sqlite", ["--jobs", "2"])]
        for name, out, how in runs:
            wall, rate = survey(args.preset, args.seeds, out, *how)
            same = rows(out) == rows(reference)
            print(f"{name:<22} {wall:8.2f} {deals / wall:9.0f} {rate:9.0f} {str(same):>10} {os.getloadavg()[0]:5.2f}")
        for count in args.workers:
            with DaskCluster(base / f"cluster{count}", count) as cluster:
                out = base / f"dask{count}.sqlite"
                wall, rate = survey(args.preset, args.seeds, out, "--scheduler", cluster.address)
            same = rows(out) == rows(reference)
            name = f"dask, {count} worker{'s' if count > 1 else ''}"
            print(f"{name:<22} {wall:8.2f} {deals / wall:9.0f} {rate:9.0f} {str(same):>10} {os.getloadavg()[0]:5.2f}")


if __name__ == "__main__":
    main()
