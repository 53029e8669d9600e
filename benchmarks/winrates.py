"""Win rates of any games or variants over PySolFC-numbered deals, run as surveys.

For each game or variant named: deals, won / lost / unknown, the win rate with its 95% Wilson
interval (a 95% range when deals are unknown, as ``patience report`` gives it), the threshold
win (Sheinwold's five piles, for Accordion) where the game has one, CPU seconds per deal (mean,
max), states per CPU second and the most states one deal took; with --fewest-redeals, how many
wins have their fewest redeals proven and the range of those counts.
Every line counted was replayed through the rules. Each preset is a survey (solver.surveys.running)
into a temporary file, so --jobs 2 gives the same figures as --jobs 1 under --max-nodes.

    python benchmarks/winrates.py baroness baroness-classic baroness-pysol thirteens --seeds 1-1000 --jobs 2
    python benchmarks/winrates.py amazons amazons-pysol --seeds 1-20 --fewest-redeals --max-nodes 300000
    python benchmarks/winrates.py royal-marriage --option all_same_suit=yes --seeds 1-1000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from solver.errors import UserError
from solver.service.seeds import parse_seeds
from solver.service.setup import parse_size
from solver.service.stats import rate_range
from solver.surveys.report import rate_text
from solver.surveys.row_codec import Row
from solver.surveys.running import SurveySpec, run_survey
from solver.surveys.store import Store


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", metavar="GAME", help="game or variant names, e.g. amazons amazons-pysol")
    parser.add_argument(
        "--seeds", default="1-1000", help="PySolFC game numbers, e.g. 1-1000 or 1-50,32000 (default 1-1000)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (0: one per CPU; default 1)")
    parser.add_argument(
        "--max-nodes", type=int, default=1_000_000, help="states expanded at most per deal (default 1000000)"
    )
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU seconds at most per deal (default none)")
    parser.add_argument("--max-memory", default="2G", help="transposition table bound per deal (default 2G)")
    parser.add_argument("--fewest-redeals", action="store_true", help="find the win with the fewest redeals (IDA*)")
    parser.add_argument("--option", action="append", default=[], help="name=value, for every game named (repeatable)")
    return parser.parse_args(argv)


def report(label: str, rows: list[Row], wall: float, fewest_redeals: bool, threshold: tuple[str, int] | None) -> None:
    """The figures of one preset's survey."""
    deals = len(rows)
    won, lost = sum(row.result == "won" for row in rows), sum(row.result == "lost" for row in rows)
    unknown = deals - won - lost
    print(f"{label}: {deals} deals, won {won}, lost {lost}, unknown {unknown}; win {_rate(won, unknown, deals)}")
    if threshold is not None:
        name, most = threshold
        reached = sum(row.score is not None and row.score <= most for row in rows)
        open_ = sum(row.result == "unknown" and (row.score is None or row.score > most) for row in rows)
        print(f"  {name} win ({most} or fewer): {reached}; {_rate(reached, open_, deals)}")
    cpu = sum(row.seconds for row in rows)
    slowest = max(rows, key=lambda row: row.seconds)
    largest = max(rows, key=lambda row: row.nodes or 0)  # a survey of solvability: every row counts nodes
    print(
        f"  CPU s per deal: mean {cpu / deals:.4f}, max {slowest.seconds:.3f} (seed {slowest.seed}); "
        f"{sum(row.nodes or 0 for row in rows) / cpu if cpu else 0:,.0f} states per CPU s; "
        f"most states for one deal {largest.nodes:,} (seed {largest.seed}); wall {wall:.1f} s"
    )
    if fewest_redeals:
        proven = sorted(row.redeals for row in rows if row.redeals is not None and row.limit_hit is None)
        span = f": {proven[0]} to {proven[-1]} redeals" if proven else ""
        print(f"  fewest redeals proven for {len(proven)} of {won} wins{span}")


def _rate(count: int, undecided: int, deals: int) -> str:
    """A rate as ``patience report`` states it: with its 95% Wilson interval, or as the 95% range
    it lies in when deals are undecided."""
    return rate_text(count / deals, *rate_range(count, undecided, deals), undecided=undecided)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    try:  # a bad name, option or seed range fails in one line, before any solving
        spans = parse_seeds(args.seeds)
        memory = parse_size(args.max_memory)
        specs = [
            SurveySpec(name, None, tuple(args.option), args.max_nodes, args.max_seconds, memory, args.fewest_redeals)
            for name in args.games
        ]
        setups = [spec.setup() for spec in specs]
    except UserError as error:
        print(f"winrates: error: {error}", file=sys.stderr)
        return 2
    print(
        f"seeds {args.seeds}, at most {args.max_nodes:,} states"
        + (f" and {args.max_seconds} CPU s" if args.max_seconds else "")
        + " per deal"
        + (", fewest redeals" if args.fewest_redeals else "")
        + f", jobs {args.jobs}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for number, (spec, setup) in enumerate(zip(specs, setups)):
            out = Path(folder) / f"{number}.sqlite"
            began = time.perf_counter()
            tally = run_survey(spec, spans, out, jobs=args.jobs)
            if tally.interrupted:
                return 130
            store = Store(out)
            try:
                rows = list(store.rows())
            finally:
                store.close()
            label = f"{setup.family.name} ({setup.variant})" + "".join(f" {option}" for option in spec.options)
            report(label, rows, time.perf_counter() - began, spec.fewest_redeals, setup.family.threshold)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
