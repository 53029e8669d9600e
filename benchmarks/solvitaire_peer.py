"""Our Accordion solver beside Solvitaire (Blake and Gent's C++ solver), deal by deal in one run.

For each deal of tests/data/accordion-reference.tsv, our engine solves it in this process
(``solver.engine.depth_first`` on ``Setup.of("accordion").game``, the line replay-checked by
``solver.replay.checked``, CPU from ``getrusage(RUSAGE_SELF)`` around start, search and check)
and a Solvitaire binary built elsewhere solves it in a subprocess (``--type accordion --classify``
on a JSON deal file ``{"accordion": [...]}``, the first-dealt card first, tens written ``10``; its
CPU, user plus system, from ``os.wait4``). Which side goes first alternates deal by deal, as the
machine's speed drifts. Both verdicts are held to the file's (and our minimal piles; Solvitaire
says only solved or unsolvable), Solvitaire's states searched to the file's ``peer_states_searched``
(its depth-first search is deterministic, so a difference means another build or version).
Printed per group (random, constructed, published, lost): each side's CPU seconds, their ratio,
and each side's worst deal; Solvitaire's process floor (``--version``), which every deal pays (ours
pays its kernel's import, a few ms, once, in the first deal); and Solvitaire's slowest deals.

``--max-seconds S`` bounds each side's CPU per deal: ours through ``Limits``, Solvitaire's through
``RLIMIT_CPU`` (whole seconds, rounded up; it dies of SIGXCPU), a deal cut off counted as unknown.

    python benchmarks/solvitaire_peer.py --peer /path/to/solvitaire [--only-lost] [--rows N]
        [--max-seconds S] [--slowest K]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rulesets.cards import RANKS, parse_cards
from solver.engine import engine_of
from solver.replay import checked
from solver.result import Limits
from solver.service import engines
from solver.service.setup import Setup

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


class Solved(NamedTuple):
    """One side's answer for one deal: verdict (won, lost, unknown), minimal piles where the
    side says (0 for Solvitaire), states searched, CPU seconds, peak memory in KiB (0 for ours:
    this process's peak is not one deal's)."""

    verdict: str
    piles: int
    states: int
    seconds: float
    maxrss_kb: int = 0


def cpu_of(usage: resource.struct_rusage) -> float:
    """User plus system CPU seconds."""
    return usage.ru_utime + usage.ru_stime


def solve_ours(game: Any, cards: str, max_seconds: float | None) -> Solved:
    """Our solve of one deal, its line replayed through the rules."""
    before = cpu_of(resource.getrusage(resource.RUSAGE_SELF))
    start = game.start(parse_cards(cards))
    result = checked(game, start, engine_of(game).depth_first(start, limits=Limits(max_seconds=max_seconds)))
    seconds = cpu_of(resource.getrusage(resource.RUSAGE_SELF)) - before
    return Solved(result.verdict.value, result.best_score, result.stats.nodes, seconds)


def peer_cards(cards: str) -> list[str]:
    """Our cards in Solvitaire's writing: a ten is ``10`` (it reads the rank with ``stoi``, so
    ``TD`` would not parse); the order stays first dealt first (its pile 0 is the leftmost)."""
    return [("10" if card.rank == 10 else RANKS[card.rank - 1]) + card.suit for card in parse_cards(cards)]


class Peer:
    """A Solvitaire binary solving one deal per process."""

    def __init__(self, binary: Path, max_seconds: float | None, scratch: Path) -> None:
        self.binary, self.deal_file = binary.resolve(), scratch / "deal.json"
        self.cpu_limit = None if max_seconds is None else max(1, math.ceil(max_seconds))

    def _limit(self) -> None:
        """In the child before exec: the CPU limit (SIGXCPU at the soft limit)."""
        if self.cpu_limit is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_limit, self.cpu_limit + 1))

    def run(self, arguments: list[str]) -> tuple[str, int, resource.struct_rusage]:
        """The binary's output (stdout and stderr together), exit code and resource usage."""
        limit: Callable[[], None] | None = self._limit if self.cpu_limit is not None else None
        process = subprocess.Popen(
            [str(self.binary), *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=limit,
        )
        assert process.stdout is not None
        output = process.stdout.read()
        process.stdout.close()
        # wait4 rather than Popen.wait: it gives this child's own usage (CPU and peak memory).
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        return output, process.returncode, usage

    def floor(self, runs: int = 5) -> float:
        """The least CPU seconds of a run that solves nothing (``--version``): process start."""
        return min(cpu_of(self.run(["--version"])[2]) for _ in range(runs))

    def solve(self, cards: str) -> Solved:
        self.deal_file.write_text(json.dumps({"accordion": peer_cards(cards)}))
        output, code, usage = self.run(["--type", "accordion", "--classify", str(self.deal_file)])
        seconds, maxrss = cpu_of(usage), usage.ru_maxrss
        if code == -signal.SIGXCPU or code == -signal.SIGKILL:
            return Solved("unknown", 0, 0, seconds, maxrss)
        # --classify prints ", TYPE, ms, states searched, unique states, ..., TYPE".
        lines = [line for line in output.splitlines() if line.startswith(", ")]
        if code != 0 or len(lines) != 1:
            raise RuntimeError(f"solvitaire exited {code} with {output!r}")
        fields = [field.strip() for field in lines[0].split(",")]
        verdict = {"solved": "won", "unsolvable": "lost"}.get(fields[-1], "unknown")
        return Solved(verdict, 0, int(fields[3]), seconds, maxrss)


@dataclass
class Group:
    """The deals of one kind: each side's total CPU seconds and worst deal."""

    deals: int = 0
    ours: float = 0.0
    peer: float = 0.0
    ours_worst: tuple[float, str] = (0.0, "-")
    peer_worst: tuple[float, str] = (0.0, "-")
    peer_unknown: int = 0

    def add(self, deal_id: str, ours: Solved, peer: Solved) -> None:
        self.deals += 1
        self.ours += ours.seconds
        self.peer += peer.seconds
        self.ours_worst = max(self.ours_worst, (ours.seconds, deal_id))
        self.peer_worst = max(self.peer_worst, (peer.seconds, deal_id))
        self.peer_unknown += peer.verdict == "unknown"


def group_of(row: dict[str, str]) -> str:
    """random, constructed or published by the id's prefix; lost apart whatever its kind."""
    if row["solvable"] == "no":
        return "lost"
    return {"rand": "random", "cons": "constructed", "ext": "published"}[row["deal_id"].split("-")[0]]


def disagreements(row: dict[str, str], ours: Solved, peer: Solved) -> list[str]:
    """Where either side's verdict (or our minimal piles) differs from the file's."""
    verdict = "won" if row["solvable"] == "yes" else "lost"
    found = []
    if (ours.verdict, ours.piles) != (verdict, int(row["min_piles"])):
        found.append(f"ours {ours.verdict} {ours.piles} piles, file {verdict} {row['min_piles']}")
    if peer.verdict not in (verdict, "unknown"):
        found.append(f"solvitaire {peer.verdict}, file {verdict}")
    return [f"{row['deal_id']}: {line}" for line in found]


def print_groups(groups: dict[str, Group]) -> None:
    print(
        f"{'group':<12}{'deals':>6}{'ours s':>10}{'peer s':>10}{'peer/ours':>11}"
        f"  {'our worst':<24}{'peer worst':<24}{'peer cut off':>12}"
    )
    total = Group()
    for name in ("random", "constructed", "published", "lost"):
        if name in groups:
            print_group(name, groups[name])
            group = groups[name]
            total.deals += group.deals
            total.ours += group.ours
            total.peer += group.peer
            total.ours_worst = max(total.ours_worst, group.ours_worst)
            total.peer_worst = max(total.peer_worst, group.peer_worst)
            total.peer_unknown += group.peer_unknown
    print_group("all", total)


def print_group(name: str, group: Group) -> None:
    ratio = f"{group.peer / group.ours:.1f}" if group.ours else "inf"
    if group.peer_unknown:
        ratio = ">=" + ratio  # the peer's cut-off deals count only the CPU it had when stopped
    print(
        f"{name:<12}{group.deals:>6}{group.ours:>10.3f}{group.peer:>10.3f}{ratio:>11}"
        f"  {group.ours_worst[1]:<15}{group.ours_worst[0]:>7.3f}  {group.peer_worst[1]:<15}"
        f"{group.peer_worst[0]:>7.3f}  {group.peer_unknown:>10}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, required=True, help="the built Solvitaire binary")
    parser.add_argument("--rows", type=int, default=None, help="only the first N rows of the file")
    parser.add_argument("--only-lost", action="store_true", help="only the deals the file says are lost")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal for each side")
    parser.add_argument("--slowest", type=int, default=5, help="list the K deals slowest for the peer")
    args = parser.parse_args()

    rows = list(csv.DictReader(REFERENCE.open(), delimiter="\t"))[: args.rows]
    if args.only_lost:
        rows = [row for row in rows if row["solvable"] == "no"]
    game = Setup.of("accordion").game
    print(f"engine: {engines.status()}")
    groups: dict[str, Group] = {}
    found: list[str] = []
    other_states: list[str] = []
    timings: list[tuple[float, float, str, int]] = []
    with tempfile.TemporaryDirectory() as scratch:
        peer = Peer(args.peer, args.max_seconds, Path(scratch))
        floor = peer.floor()
        for number, row in enumerate(rows):
            if number % 2:
                theirs = peer.solve(row["cards"])
                ours = solve_ours(game, row["cards"], args.max_seconds)
            else:
                ours = solve_ours(game, row["cards"], args.max_seconds)
                theirs = peer.solve(row["cards"])
            found += disagreements(row, ours, theirs)
            if theirs.verdict != "unknown" and theirs.states != int(row["peer_states_searched"]):
                other_states.append(f"{row['deal_id']}: {theirs.states}, file {row['peer_states_searched']}")
            groups.setdefault(group_of(row), Group()).add(row["deal_id"], ours, theirs)
            timings.append((theirs.seconds, ours.seconds, row["deal_id"], theirs.maxrss_kb))

    decided = sum(group.deals - group.peer_unknown for group in groups.values())
    print(f"deals: {len(rows)}, solvitaire decided {decided}, disagreeing with the file: {len(found)}")
    for line in found:
        print("  DISAGREES", line)
    print(f"solvitaire's states searched as the file's: {decided - len(other_states)}/{decided}")
    for line in other_states:
        print("  OTHER STATES", line)
    print_groups(groups)
    print(
        f"solvitaire's process floor (--version, least of 5): {floor * 1000:.1f} ms, "
        f"{floor * len(rows):.3f} s over {len(rows)} deals"
    )
    print("slowest for solvitaire (peer s, ours s, id, peer's peak MiB):")
    for peer_seconds, our_seconds, deal_id, maxrss_kb in sorted(timings, reverse=True)[: args.slowest]:
        print(f"  {peer_seconds:8.3f} {our_seconds:8.4f}  {deal_id:<15}{maxrss_kb / 1024:>8.0f}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
