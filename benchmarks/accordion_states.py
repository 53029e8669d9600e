"""Where an Accordion search spends its states: the figures behind the ideas tried in docs/searching.md.

For each deal of the reference file named, the open row is searched as the solver does, and the
states it expands are described: how many children they had and how many of those the table or
the connectivity bound turned away, their row lengths (and how often the bound fired on children
of each length), how many would merge under a key blind to the names of suits and ranks, and, for
a sample, whether any line from them ever covers the first pile's card (an exhaustive walk of
every row they reach whose bound is still 1).

    python benchmarks/accordion_states.py DEAL_ID [DEAL_ID ...] [--sample K]
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter
from pathlib import Path

from rulesets.accordion import OpenAccordion, OpenAccordionState, PileMove
from rulesets.cards import MATCH, parse_cards
from solver.search import depth_first

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


class Recorded(OpenAccordion):
    """The open row, noting every state expanded (moves asked for), every child made and every
    bound computed (the search asks for the bound only of children not in its table)."""

    def __init__(self) -> None:
        self.expanded: list[OpenAccordionState] = []
        self.moves_per_state: Counter[int] = Counter()
        self.children = 0
        self.bounded: Counter[int] = Counter()
        self.fired: Counter[int] = Counter()

    def moves(self, state: OpenAccordionState) -> list[PileMove]:
        found = super().moves(state)
        self.expanded.append(state)
        self.moves_per_state[min(len(found), 6)] += 1
        return found

    def apply(self, state: OpenAccordionState, move: PileMove) -> OpenAccordionState:
        self.children += 1
        return super().apply(state, move)

    def lower_bound(self, state: OpenAccordionState) -> int:  # type: ignore[override]
        bound = OpenAccordion.lower_bound(state)
        self.bounded[len(state[0])] += 1
        self.fired[len(state[0])] += bound > 1
        return bound


def relabelled(row: bytes) -> bytes:
    """The row with suits and ranks renamed in order of first appearance: equal for two rows
    that differ only by a renaming of suits and of ranks (which keeps every match and move)."""
    suits: dict[int, int] = {}
    ranks: dict[int, int] = {}
    return bytes(
        suits.setdefault(code // 13, len(suits)) * 13 + ranks.setdefault(code % 13, len(ranks)) for code in row
    )


def first_card_covered(state: OpenAccordionState) -> bool:
    """Whether some line from ``state`` covers its first card, never passing a row whose
    connectivity bound exceeds one (a loss proof never enters those)."""
    row = OpenAccordion()
    seen, todo = {state[0]}, [state]
    while todo:
        here = todo.pop()
        for move in row.moves(here):
            if move.pile == move.distance:
                return True
            child = row.apply(here, move)
            if child[0] not in seen and row.lower_bound(child) == 1:
                seen.add(child[0])
                todo.append(child)
    return False


def first_pile_may_be_covered(row: bytes) -> bool:
    """False only if no line from ``row`` ever covers its first pile's card (then at least two
    piles stay, given two or more): a least fixpoint over the piles, which keep their order
    and only vanish (merging onto one to their left).

    ``tops[k]`` gathers the cards that may ever top pile k and ``vanish[k]`` whether it may ever
    merge leftwards. Pile k may merge onto pile i if one of its possible tops matches one of i's
    and the piles between them that may vanish leave none or two (a slide or a leap) standing;
    its matching tops then join i's. Every real line only makes such moves, so each real top and
    vanishing is derived here: what is never derived never happens. Pile 1 can only merge onto
    pile 0, so until the first pile is covered it never vanishes. Checked against the brute force
    on small decks (see docs/searching.md); it costs about 2.5 ms a 23-card row.
    """
    tops = [{code} for code in row]
    vanish = [False] * len(row)
    changed = True
    while changed:
        changed = False
        for k in range(1, len(row)):
            standing_may_go = 0  # piles strictly between i and k that may vanish
            for i in range(k - 1, -1, -1):
                between = k - i - 1
                if standing_may_go >= between or (between >= 2 and standing_may_go >= between - 2):
                    landing = {card for card in tops[k] if any(MATCH[card][top] for top in tops[i])}
                    if landing and i == 0:
                        return True
                    if landing and not vanish[k]:
                        vanish[k] = changed = True
                    if not landing <= tops[i]:
                        tops[i] |= landing
                        changed = True
                standing_may_go += vanish[i]
    return False


def describe(deal_id: str, cards: str, sample: int) -> None:
    """Search one deal with every call recorded and print what the states were like."""
    game = Recorded()
    result = depth_first(game, game.start(parse_cards(cards)))
    states = game.expanded
    met = sum(game.bounded.values())
    print(f"{deal_id}: {result.verdict.value}, min piles {result.best_score}, {result.stats.nodes} states expanded")
    print(
        f"  children {game.children}: {game.children - met} already in the table, "
        f"{sum(game.fired.values())} cut by the bound"
    )
    print("  states by number of moves (6: six or more):", dict(sorted(game.moves_per_state.items())))
    lengths = Counter(len(state[0]) // 4 * 4 for state in states)
    print("  row length (by fours): states expanded / children bounded / bound > 1")
    for length in sorted(lengths):
        bounded = sum(game.bounded[n] for n in range(length, length + 4))
        fired = sum(game.fired[n] for n in range(length, length + 4))
        print(f"    {length:2}-{length + 3:2}: {lengths[length]:7} {bounded:7} {fired:7}")
    classes = len({relabelled(state[0]) for state in states})
    print(f"  distinct rows {len({state[0] for state in states})}, distinct up to renaming suits and ranks {classes}")
    if sample:
        picked = random.Random(0).sample(states, min(sample, len(states)))
        never = proven = 0
        for state in picked:
            covered, may_be = first_card_covered(state), first_pile_may_be_covered(state[0])
            assert may_be or not covered, state  # the fixpoint is an over-approximation
            never += not covered
            proven += not may_be
        print(
            f"  of {len(picked)} sampled states, {never} can never cover their first card; "
            f"the pile fixpoint proves it for {proven}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deal_ids", nargs="+", help="ids of the reference file (e.g. cons-hard2-2)")
    parser.add_argument("--sample", type=int, default=100, help="states to test for covering the first card")
    args = parser.parse_args()
    rows = {row["deal_id"]: row["cards"] for row in csv.DictReader(REFERENCE.open(), delimiter="\t")}
    for deal_id in args.deal_ids:
        describe(deal_id, rows[deal_id], args.sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
