"""Start-up cost of the ``patience`` command beside a bare ``python -c pass``, in one run.

Runs each command several times, round robin with the bare interpreter (so that the machine's
load falls on all alike), and measures the CPU seconds (user + system) of each child process with
``resource.getrusage(RUSAGE_CHILDREN)``. Prints, per command, the median CPU seconds, the excess
over the bare interpreter and the ratio to it; then the import-time profile (``python -X
importtime``) of ``patience solve accordion --seed 7``: the modules that cost most, cumulatively.

    python benchmarks/startup.py [--repeat 7] [--top 25]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

PATIENCE = str(Path(sys.executable).with_name("patience"))
BARE = ("python -c pass", [sys.executable, "-c", "pass"])
COMMANDS = [
    ("solve accordion --seed 7", [PATIENCE, "solve", "accordion", "--seed", "7"]),
    ("--help", [PATIENCE, "--help"]),
    ("games", [PATIENCE, "games"]),
    ("describe accordion", [PATIENCE, "describe", "accordion"]),
    ("deal accordion --seed 1", [PATIENCE, "deal", "accordion", "--seed", "1"]),
]


def cpu_seconds(command: list[str]) -> float:
    """The CPU seconds (user + system) one run of ``command`` took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repeat: int) -> dict[str, float]:
    """The median CPU seconds of each command and of the bare interpreter, run round robin."""
    runs: dict[str, list[float]] = {name: [] for name, _ in [BARE, *COMMANDS]}
    for _ in range(repeat):
        for name, command in [BARE, *COMMANDS]:
            runs[name].append(cpu_seconds(command))
    return {name: statistics.median(times) for name, times in runs.items()}


def import_profile(top: int) -> list[str]:
    """The ``top`` costliest imports (cumulative microseconds) of ``solve accordion --seed 7``."""
    command = [sys.executable, "-X", "importtime", PATIENCE, "solve", "accordion", "--seed", "7"]
    lines = subprocess.run(command, capture_output=True, text=True, check=True).stderr.splitlines()
    rows = []
    for line in lines:
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, own, cumulative, name = (part.strip() for part in line.replace("import time:", "|").split("|"))
        rows.append((int(cumulative), int(own), name))
    rows.sort(reverse=True)
    return [f"{cumulative / 1e3:9.1f} ms  {own / 1e3:8.1f} ms  {name}" for cumulative, own, name in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (the median is reported)")
    parser.add_argument("--top", type=int, default=25, help="imports listed in the profile")
    options = parser.parse_args()
    medians = measure(options.repeat)
    bare = medians[BARE[0]]
    print(f"CPU seconds, median of {options.repeat} runs each, round robin; bare interpreter: {bare:.3f} s")
    print(f"{'command':<28} {'CPU s':>7} {'excess':>8} {'ratio':>6}")
    for name, _ in COMMANDS:
        print(f"patience {name:<19} {medians[name]:7.3f} {medians[name] - bare:+8.3f} {medians[name] / bare:6.1f}")
    print("\nimport-time profile of 'patience solve accordion --seed 7' (cumulative, own, module):")
    for line in import_profile(options.top):
        print(line)


if __name__ == "__main__":
    main()
