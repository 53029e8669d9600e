"""Win rates and solving times of Royal Marriage, Queen and her Lad and Nizhni Novgorod.

For each preset (each family's default, plus the non-default option settings) over a range of
PySolFC seeds: win rate with a 95% Wilson confidence interval, lost and unknown counts, the
distribution of the fewest cards left, mean and max CPU seconds per deal, nodes per second.
Every line found is replayed through the rules (solver.replay.checked).

    python benchmarks/royal_marriage.py --seeds 1-1000 --max-nodes 1000000 [--plain]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from rulesets import families
from rulesets.royal_marriage import OpenRow
from solver.cli.report import wilson
from solver.cli.survey import seed_list
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.search import depth_first

PRESETS = (
    ("royal-marriage", ()),
    ("royal-marriage", ("all_same_suit=yes",)),
    ("queen-and-her-lad", ()),
    ("nizhni-novgorod", ()),
    ("nizhni-novgorod", ("compulsory=no",)),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seed_list, default="1-1000", help="e.g. 1-1000")
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="node limit per deal")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal")
    parser.add_argument("--plain", action="store_true", help="switch the guided reduction off (open rows)")
    args = parser.parse_args()
    limits = Limits(max_nodes=args.max_nodes, max_seconds=args.max_seconds)

    print(f"seeds {args.seeds[0]}-{args.seeds[-1]} ({len(args.seeds)}), max nodes {args.max_nodes}"
          + (", guided reduction off" if args.plain else ""))
    print(f"{'preset':<36}{'won':>5}{'lost':>6}{'unkn':>6}{'win rate (95% CI)':>26}"
          f"{'mean s':>9}{'max s':>8}{'nodes/s':>10}")
    for name, overrides in PRESETS:
        family = families()[name]
        game = family.build(family.settings(overrides=overrides))
        if args.plain and isinstance(game, OpenRow):
            game.guided = False
        verdicts: Counter[Verdict] = Counter()
        left: Counter[int] = Counter()
        seconds, worst, nodes = 0.0, 0.0, 0
        for seed in args.seeds:
            start = game.start(family.seeded_deal(seed))
            result = checked(game, start, depth_first(game, start, limits))
            verdicts[result.verdict] += 1
            if result.verdict is not Verdict.UNKNOWN:
                left[result.best_score] += 1
            seconds += result.stats.seconds
            worst = max(worst, result.stats.seconds)
            nodes += result.stats.nodes
        total = len(args.seeds)
        wins = verdicts[Verdict.WON]
        low, high = wilson(wins, total)
        label = name + (" " + " ".join(overrides) if overrides else "")
        rate = f"{wins / total:.1%} ({low:.1%}-{high:.1%})"
        print(f"{label:<36}{wins:>5}{verdicts[Verdict.LOST]:>6}{verdicts[Verdict.UNKNOWN]:>6}{rate:>26}"
              f"{seconds / total:>9.4f}{worst:>8.3f}{nodes / max(seconds, 1e-9):>10,.0f}")
        common = ", ".join(f"{score}: {count}" for score, count in sorted(left.items()))
        print(f"    fewest cards left (proven): {common}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
