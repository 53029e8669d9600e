"""The information relaxation bound (solver.relaxation) of a preset's whole game, beside the
clairvoyant share on the very same orders: how much of the gap between the best player who
cannot see the stock and the clairvoyant it closes.

For each of PySolFC's deals 1..N: its opening as a player sees it (the cards the deal lays out
face up, the whole stock face down), and one order of the stock drawn from the clairvoyant's
stream of the deal's number (solver.draws.CLAIRVOYANT): over the deals, the mean of the orders'
outcomes estimates the game's figure. For each order: won or not with every card known
(``hindsight``), and its best charged outcome with V the exact chance within ``--reach`` cards
(``relaxed``). An order whose walk a limit stopped counts as 1 (no order's charged outcome is
above 1 there: the bound stays a bound) and is counted in the row. Both means come with 95%
Wilson intervals (an outcome between 0 and 1 varies at most as a win or loss of the same mean
does, so the interval of a proportion is wide enough for the bound's mean).

    python benchmarks/relaxed_bound.py PRESET --deals 1-2000 [--reach K] [--seconds 60]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from solver.chance import conceal, orders, unseen
from solver.draws import CLAIRVOYANT, stream
from solver.engine import engine_of
from solver.result import Limits
from solver.service.setup import Setup
from solver.service.stats import wilson

#: The reach of V each preset is measured at: the most face-down cards whose exact chance keeps
#: a deal's walk to about a CPU second (Baroness: the last deal, dealt at once).
REACH = {"parlett": 4, "idle-year": 4, "baroness": 6, "baroness-classic": 7, "baroness-pysol": 6, "thirteens": 6}


def measured(preset: str, first: int, last: int, reach: int, seconds: float) -> dict[str, Any]:
    """The row of one preset: games, orders won, the bound's sum, walks a limit stopped, CPU. On
    Ctrl-C the games done so far make the row (nothing computed is lost)."""
    setup = Setup.of(preset)
    won = limited = done = 0
    total = 0.0
    started = time.process_time()
    try:
        for deal in range(first, last + 1):
            seen, bound = one_game(setup, deal, reach, seconds)
            won += seen
            limited += bound is None
            total += 1.0 if bound is None else bound  # a stopped walk counts as 1: still a bound
            done += 1
    except KeyboardInterrupt:
        print(f"interrupted: the row holds the {done} games done", file=sys.stderr)
    return {"deals": done, "won": won, "total": total, "limited": limited, "cpu": time.process_time() - started}


def one_game(setup: Setup, deal: int, reach: int, seconds: float) -> tuple[int, float | None]:
    """Deal ``deal``'s opening on one drawn order: 1 if it can be won with every card known, else
    0; and its best charged outcome (None where the walk passed ``seconds``)."""
    game: Any = setup.legal
    start = game.start(setup.deal(seed=deal))
    position = conceal(game, start, len(game.stock(start)))
    seed = stream(CLAIRVOYANT, deal)
    (tally,) = (
        engine_of(game, setup.game)
        .clairvoyant(
            position,
            drawn=orders(unseen(game, position), 1, seed),
            targets=(None,),
            limits=Limits(),
            restart_nodes=None,
        )
        .tallies
    )
    bound = engine_of(game, setup.game).relaxed(
        position, drawn=orders(unseen(game, position), 1, seed), reach=reach, limits=Limits(max_seconds=seconds)
    )
    return tally.won, None if bound.limit is not None else bound.value


def row(preset: str, reach: int, found: dict[str, Any]) -> str:
    """The row as docs/results.md prints it."""
    count = max(1, found["deals"])
    seen_low, seen_high = wilson(found["won"], count)
    mean = found["total"] / count
    low, high = wilson(found["total"], count)
    return (
        f"| {preset} | K = {reach} | {count:,} "
        f"| {100 * found['won'] / count:.2f}% ({100 * seen_low:.2f}% to {100 * seen_high:.2f}%) "
        f"| {100 * mean:.2f}% ({100 * low:.2f}% to {100 * high:.2f}%) | {found['limited']} "
        f"| {found['cpu'] / count:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", choices=sorted(REACH))
    parser.add_argument("--deals", default="1-2000", help="PySolFC deal numbers, FIRST-LAST")
    parser.add_argument("--reach", type=int, help="V exact within this many face-down cards (default: REACH's)")
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds a deal's walk may take")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    reach = REACH[args.preset] if args.reach is None else args.reach
    found = measured(args.preset, int(first), int(last or first), reach, args.seconds)
    print(row(args.preset, reach, found), flush=True)


if __name__ == "__main__":
    main()
