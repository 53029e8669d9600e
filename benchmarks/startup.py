"""Start-up cost of the ``patience`` command beside a bare ``python -c pass``, in one run.

Runs each command several times, round robin with the bare interpreter (so that the machine's
load falls on all alike), and measures the CPU seconds (user + system) and peak resident memory
of each child process with ``os.wait4``. Prints, per command, the median CPU seconds, the excess
over the bare interpreter (the target: at most 0.1 s), the ratio to it and the median peak
memory; then the import-time profile (``python -X importtime``) of ``patience solve accordion
--seed 7``: the modules that cost most, cumulatively, each the least of ``--repeat`` runs (the
clock is wall time, so the least is the one the machine's load disturbed least).

With ``--against OTHER/bin/patience`` (another installation, say of an older commit in its own
venv), its commands and its own bare interpreter run in the same rounds, and each command's CPU
seconds are given as a ratio to the other's: measured side by side, so the machine's load falls
on both alike.

The children may write bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped from their
environment) and each command runs once before the timed rounds: measured is the start-up of
every run after an installation's first, not the compiling of the sources.

    python benchmarks/startup.py [--repeat 7] [--top 25] [--against OTHER/bin/patience]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

PATIENCE = str(Path(sys.executable).with_name("patience"))
BARE = "python -c pass"
#: The commands measured, by name, each with its arguments.
COMMANDS = {
    "solve accordion --seed 7": ["solve", "accordion", "--seed", "7"],
    "--help": ["--help"],
    "games": ["games"],
    "describe accordion": ["describe", "accordion"],
    "deal accordion --seed 1": ["deal", "accordion", "--seed", "1"],
}
#: The children's environment: bytecode caches written and read, as an installation's are.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
TARGET = 0.1


class Run(NamedTuple):
    """One run of a command: its CPU seconds (user + system) and its peak resident memory."""

    cpu: float
    peak_kib: int


def run_once(command: list[str]) -> Run:
    """Run ``command`` and read its own resource usage (``os.wait4``: this child's alone)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {child.returncode}")
    return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def command_lines(patience: str) -> dict[str, list[str]]:
    """The bare interpreter of the installation of ``patience`` (the python beside it), and each command."""
    python = str(Path(patience).with_name("python"))
    return {BARE: [python, "-c", "pass"], **{name: [patience, *args] for name, args in COMMANDS.items()}}


def measure(installations: list[str], repeat: int) -> list[dict[str, list[Run]]]:
    """For each installation (its ``patience``), each command's and the bare interpreter's runs:
    in each round, each command runs once in every installation, back to back (so that the
    machine's load of the moment falls on all alike)."""
    lines = [command_lines(patience) for patience in installations]
    runs: list[dict[str, list[Run]]] = [{name: [] for name in found} for found in lines]
    for found in lines:
        for command in found.values():
            run_once(command)  # writes the bytecode caches the timed runs read
    for number in range(repeat):
        for name in lines[0]:
            order = list(zip(lines, runs))
            for found, into in order[number % 2 :] + order[: number % 2]:  # who goes first alternates
                into[name].append(run_once(found[name]))
    return runs


def medians(runs: dict[str, list[Run]]) -> dict[str, Run]:
    """Each command's median CPU seconds and median peak memory."""
    return {
        name: Run(statistics.median(run.cpu for run in got), int(statistics.median(run.peak_kib for run in got)))
        for name, got in runs.items()
    }


def print_table(title: str, medians: dict[str, Run], repeat: int) -> None:
    """The commands' median CPU seconds beside the bare interpreter's, and whether each meets the target."""
    bare = medians[BARE]
    print(
        f"{title}: CPU seconds and peak memory, median of {repeat} runs each, round robin; "
        f"bare interpreter: {bare.cpu:.3f} s, {bare.peak_kib / 1024:.1f} MiB"
    )
    print(f"{'command':<33} {'CPU s':>7} {'excess':>8} {'ratio':>6} {'MiB':>6}  excess <= {TARGET} s")
    for name in COMMANDS:
        found = medians[name]
        excess = found.cpu - bare.cpu
        verdict = "yes" if excess <= TARGET else "no"
        print(
            f"patience {name:<24} {found.cpu:7.3f} {excess:+8.3f} {found.cpu / bare.cpu:6.1f} "
            f"{found.peak_kib / 1024:6.1f}  {verdict}"
        )


def import_profile(top: int, repeat: int) -> list[str]:
    """The ``top`` costliest imports of ``solve accordion --seed 7``: cumulative and own
    microseconds, each the least of ``repeat`` runs."""
    command = [sys.executable, "-X", "importtime", PATIENCE, "solve", "accordion", "--seed", "7"]
    cumulative: dict[str, int] = {}
    own: dict[str, int] = {}
    for _ in range(repeat):
        run = subprocess.run(command, capture_output=True, text=True, check=True, env=ENVIRONMENT)
        for line in run.stderr.splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            _, itself, total, name = (part.strip() for part in line.replace("import time:", "|").split("|"))
            cumulative[name] = min(int(total), cumulative.get(name, int(total)))
            own[name] = min(int(itself), own.get(name, int(itself)))
    rows = sorted(((total, own[name], name) for name, total in cumulative.items()), reverse=True)
    return [f"{total / 1e3:9.1f} ms  {itself / 1e3:8.1f} ms  {name}" for total, itself, name in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (the median is reported)")
    parser.add_argument("--top", type=int, default=25, help="imports listed in the profile")
    parser.add_argument("--against", help="another installation's patience, measured in the same rounds")
    options = parser.parse_args()
    installations = [PATIENCE, *([options.against] if options.against else [])]
    measured = measure(installations, options.repeat)
    print_table(PATIENCE, medians(measured[0]), options.repeat)
    if options.against:
        print()
        print_table(options.against, medians(measured[1]), options.repeat)
        print(f"\nCPU seconds of {PATIENCE} / of {options.against}: the median of the ratios of the runs")
        print("made back to back in each round, and the least and greatest of them:")
        for name in [BARE, *COMMANDS]:
            ratios = sorted(ours.cpu / theirs.cpu for ours, theirs in zip(measured[0][name], measured[1][name]))
            print(f"{name:<33} {statistics.median(ratios):5.2f}  ({ratios[0]:.2f} to {ratios[-1]:.2f})")
    print(f"\nimport-time profile of 'patience solve accordion --seed 7' (least of {options.repeat} runs):")
    print(f"{'cumulative':>12} {'own':>11}  module")
    for line in import_profile(options.top, options.repeat):
        print(line)


if __name__ == "__main__":
    main()
