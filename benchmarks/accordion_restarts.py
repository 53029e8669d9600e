"""How much of an Accordion search's cost on the random reference deals is restart luck.

Every won deal is searched as the solver does, once as dealt and again with its suits renamed
(the same game tree: matching is "same suit or same rank", and the move order depends only on
positions). The first run of each search is identical, but the states' digests differ, so the
restarts try other moves first. The totals over the renamings show how far one measurement of a
move order or restart policy can be from its mean: compare two checkouts by running this in both.

    python benchmarks/accordion_restarts.py [--every N] [--renamings K]
"""

from __future__ import annotations

import argparse
import csv
import itertools
import statistics
import sys
import time
from pathlib import Path

from rulesets.accordion import OpenAccordion
from rulesets.cards import SUITS, parse_cards
from solver.search import depth_first

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


def renamed(cards: str, suits: str) -> str:
    """The deal with suit ``SUITS[i]`` written ``suits[i]``."""
    rename = str.maketrans(SUITS, suits)
    return " ".join(card[:-1] + card[-1].translate(rename) for card in cards.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=5, help="every N-th random deal")
    parser.add_argument("--renamings", type=int, default=6, help="suit renamings (the first is the deal as dealt)")
    args = parser.parse_args()
    rows = [row for row in csv.DictReader(REFERENCE.open(), delimiter="\t") if row["deal_id"].startswith("rand-")]
    deals = rows[:: args.every]
    game = OpenAccordion()
    totals = []
    print(f"{len(deals)} random deals, states summed (and the most for one deal) per suit renaming:")
    for suits in itertools.islice(itertools.permutations(SUITS), args.renamings):
        states, worst, started = 0, 0, time.process_time()
        for row in deals:
            result = depth_first(game, game.start(parse_cards(renamed(row["cards"], "".join(suits)))))
            assert result.best_score == int(row["min_piles"]), row["deal_id"]
            states, worst = states + result.stats.nodes, max(worst, result.stats.nodes)
        totals.append(states)
        print(f"  {''.join(suits)}: {states:>10,} states, most {worst:>8,}, {time.process_time() - started:6.2f} CPU s")
    print(f"mean {statistics.mean(totals):,.0f}, least {min(totals):,}, most {max(totals):,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
