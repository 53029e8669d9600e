"""baroness-pysol over PySolFC deals 1..N, without and with one reduction (default suits), side by side.

Each deal is solved by both searches in turn (same process, one job, so CPU times compare
fairly on a shared machine), every reported line replayed through the rules. Per search: won /
lost / unknown, CPU seconds per deal (mean, max), states per CPU second, the most states one
deal took and the largest transposition table; then the ratio of the two searches' CPU seconds
and states over the deals both decided, and any deal on which their verdicts or scores differ.

    python benchmarks/baroness_pysol.py --seeds 1-200 --max-seconds 30 --reduction suits

(The searches alternate deal by deal, so a busy machine slows both alike.)

``--where SEED`` instead shows where one deal's search (every reduction, the Python engine, no
limit) spends its states: the states it expanded by cards left in the stock and by empty piles,
and by the kind of move that first reached it, to show which part of the game a reduction or a
bound must cut.

    python benchmarks/baroness_pysol.py --where 9
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any, NamedTuple

from rulesets import families
from rulesets.baroness import ALL_REDUCTIONS, Baroness, BaronessLayout, ToSpace, build_baroness
from rulesets.moves import DEAL
from solver.errors import UserError
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.search import depth_first
from solver.service.seeds import parse_seeds


class Solved(NamedTuple):
    """One search of one deal."""

    seed: int
    verdict: Verdict
    score: int
    nodes: int
    seconds: float
    table_bytes: int


def solve(seed: int, reductions: frozenset[str], limits: Limits) -> Solved:
    """Deal ``seed`` of baroness-pysol solved with ``reductions``."""
    family = families()["baroness"]
    game = build_baroness(family.settings("baroness-pysol"), reductions)
    start = game.start(family.seeded_deal(seed))
    result = checked(game, start, depth_first(game, start, limits))
    stats = result.stats
    return Solved(seed, result.verdict, result.best_score, stats.nodes, stats.seconds, stats.peak_table_bytes)


def report(label: str, runs: list[Solved]) -> None:
    """The figures of one search over every deal."""
    count = {verdict: sum(run.verdict is verdict for run in runs) for verdict in Verdict}
    cpu = sum(run.seconds for run in runs)
    slowest = max(runs, key=lambda run: run.seconds)
    largest = max(runs, key=lambda run: run.nodes)
    print(
        f"{label}: won {count[Verdict.WON]}, lost {count[Verdict.LOST]}, unknown {count[Verdict.UNKNOWN]}; "
        f"CPU s per deal: mean {cpu / len(runs):.3f}, max {slowest.seconds:.2f} (seed {slowest.seed}); "
        f"{sum(run.nodes for run in runs) / cpu if cpu else 0:,.0f} states per CPU s; most states {largest.nodes:,} "
        f"(seed {largest.seed}); largest table {max(run.table_bytes for run in runs) / 2**20:.1f} MiB"
    )


class Counting(Baroness):
    """Baroness with every reduction, counting each state the search expands (it asks for the
    moves of each once) by cards in the stock, by empty piles, and by the kind of move that
    first reached it (a deal, a discard, a move onto an empty pile)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.by_stock: Counter[int] = Counter()
        self.by_empty: Counter[int] = Counter()
        self.by_move: Counter[str] = Counter()
        self.reached_by: dict[BaronessLayout, str] = {}

    def apply(self, state: BaronessLayout, move: Any) -> BaronessLayout:
        child = super().apply(state, move)
        kind = "deal" if move is DEAL else "onto an empty pile" if isinstance(move, ToSpace) else "discard"
        self.reached_by.setdefault(child, kind)
        return child

    def moves(self, state: BaronessLayout) -> list[Any]:
        self.by_stock[len(state.stock)] += 1
        self.by_empty[state.piles.count(())] += 1
        self.by_move[self.reached_by.get(state, "the start")] += 1
        return super().moves(state)


def where(seed: int) -> None:
    """Where deal ``seed``'s search spends its states (see the module's text)."""
    family = families()["baroness"]
    game = Counting(**family.settings("baroness-pysol"))
    start = game.start(family.seeded_deal(seed))
    result = checked(game, start, depth_first(game, start))
    total = result.stats.nodes
    print(f"baroness-pysol deal {seed}: {result.verdict.value}, {result.best_score} cards left, {total:,} states")
    counted: tuple[tuple[str, Counter[Any]], ...] = (
        ("cards in the stock", game.by_stock),
        ("empty piles", game.by_empty),
        ("the move that reached it", game.by_move),
    )
    for label, counts in counted:
        shares = ", ".join(f"{key}: {count / total:.1%}" for key, count in sorted(counts.items()))
        print(f"  by {label}: {shares}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-200", help="PySolFC game numbers, e.g. 1-200 (default 1-200)")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="CPU seconds at most per search (default 30)")
    parser.add_argument(
        "--reduction",
        choices=sorted(ALL_REDUCTIONS),
        default="suits",
        help="the reduction compared: every reduction but it, then every one (default suits)",
    )
    parser.add_argument("--where", type=int, metavar="SEED", help="show where one deal's search spends its states")
    args = parser.parse_args(argv)
    if args.where is not None:
        where(args.where)
        return 0
    try:
        seeds = [seed for low, high in parse_seeds(args.seeds) for seed in range(low, high + 1)]
        limits = Limits(max_seconds=args.max_seconds)
    except UserError as error:
        print(f"baroness_pysol: error: {error}", file=sys.stderr)
        return 2
    print(f"baroness-pysol, seeds {args.seeds} ({len(seeds)} deals), at most {args.max_seconds} CPU s per search")
    searches = {
        f"without {args.reduction}": ALL_REDUCTIONS - {args.reduction},
        f"with {args.reduction}": ALL_REDUCTIONS,
    }
    runs: dict[str, list[Solved]] = {label: [] for label in searches}
    for seed in seeds:
        for label, reductions in searches.items():
            runs[label].append(solve(seed, reductions, limits))
    for label, found in runs.items():
        report(label, found)
    old, new = runs.values()
    both = [(a, b) for a, b in zip(old, new) if Verdict.UNKNOWN not in (a.verdict, b.verdict)]
    differ = [a.seed for a, b in both if (a.verdict, a.score) != (b.verdict, b.score)]
    if both:
        cpu = sum(b.seconds for _, b in both) / sum(a.seconds for a, _ in both)
        states = sum(b.nodes for _, b in both) / sum(a.nodes for a, _ in both)
        print(f"on the {len(both)} deals both decided: CPU s with / without {cpu:.3f}, states {states:.3f}")
    print(f"verdicts or scores differ on seeds {differ}" if differ else "verdicts and scores agree where both decided")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
