"""Royal Marriage, Queen and her Lad and Nizhni Novgorod on the Python and the compiled engine,
side by side: states per CPU second of each and their ratio (issue 25 asks for 20 or more).

Both engines search every deal from the same opening state (made once, untimed: laying out the
row and working out its floor is the ruleset's work whichever engine searches), in one process,
so a busy machine slows both alike. Two CPU times are kept per search: the engine's own
(``stats.seconds``, the search alone) and the process time around the engine's call (for the
compiled engine that adds making the kernel, encoding the start and turning its line of move
codes back into moves). Every line is replayed through the rules, and verdicts and scores must
agree on every deal (the script says where they do not and exits 1).

By default the engines take turns deal by deal, as in a survey where each search follows Python
work (the deal, its floor): a short compiled search then starts with cold caches. ``--blocks``
lets each engine search all the deals in turn instead, ``--rounds`` times, alternating which goes
first: the figures of code running warm.

    python benchmarks/royal_marriage_engines.py --seeds 1-200
    python benchmarks/royal_marriage_engines.py --seeds 1-200 --blocks --rounds 3
    python benchmarks/royal_marriage_engines.py --seeds 1-200 --game nizhni-novgorod --option compulsory=no
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from rulesets import families
from solver import engine, search
from solver.engine import engine_of
from solver.replay import checked
from solver.result import SearchResult
from solver.service.seeds import parse_seeds

#: The three games under every option setting, defaults first.
GAMES: tuple[tuple[str, dict[str, bool]], ...] = (
    ("royal-marriage", {}),
    ("royal-marriage", {"all_same_suit": True}),
    ("queen-and-her-lad", {}),
    ("nizhni-novgorod", {}),
    ("nizhni-novgorod", {"compulsory": False}),
)


class Tally(NamedTuple):
    """One engine's totals: states expanded, search CPU seconds (the engine's own), CPU seconds
    around the calls, deals won."""

    nodes: int = 0
    search: float = 0.0
    call: float = 0.0
    won: int = 0

    def add(self, result: SearchResult[Any], call: float) -> Tally:
        return Tally(
            self.nodes + result.stats.nodes,
            self.search + result.stats.seconds,
            self.call + call,
            self.won + (result.best_score == 2),
        )


def timed(run: Callable[[], SearchResult[Any]]) -> tuple[SearchResult[Any], float]:
    """The search ``run`` makes, and the process CPU seconds it took."""
    before = time.process_time()
    result = run()
    return result, time.process_time() - before


def compare(name: str, options: dict[str, bool], seeds: list[int], blocks: bool, rounds: int) -> bool:
    """Both engines over ``seeds``: print their figures; whether they agreed on every deal."""
    family = families()[name]
    game = family.build({**family.settings(), **options})
    if engine.kernel_of(game) is None:
        print(f"{name} {options}: no compiled kernel here (not built, or {engine.NO_EXTENSIONS} set)")
        return False
    starts = [game.start(family.seeded_deal(seed)) for seed in seeds]
    searches = {
        engine.PYTHON: lambda start: search.depth_first(game, start),
        engine.NATIVE: lambda start: engine_of(game).depth_first(start),
    }
    tallies = {label: Tally() for label in searches}
    answers: dict[str, list[tuple[Any, int]]] = {label: [] for label in searches}

    def run(label: str, start: Any) -> None:
        result, call = timed(lambda: searches[label](start))
        assert result.engine == label
        checked(game, start, result)
        tallies[label] = tallies[label].add(result, call)
        answers[label].append((result.verdict, result.best_score))

    if blocks:
        for turn in range(rounds):
            for label in sorted(searches, reverse=bool(turn % 2)):
                for start in starts:
                    run(label, start)
    else:
        for _ in range(rounds):
            for start in starts:
                for label in searches:
                    run(label, start)
    agreed = answers[engine.PYTHON] == answers[engine.NATIVE]
    for seed, (verdict, score), (other, other_score) in zip(
        seeds * rounds, answers[engine.PYTHON], answers[engine.NATIVE]
    ):
        if (verdict, score) != (other, other_score):
            print(f"  seed {seed}: python {verdict.value} {score}, native {other.value} {other_score}")
    setting = ",".join(f"{key}={'yes' if value else 'no'}" for key, value in options.items()) or "defaults"
    print(f"{name} ({setting}), {len(seeds)} deals x {rounds}, {'in blocks' if blocks else 'deal by deal'}:")
    for label, tally in tallies.items():
        print(
            f"  {label:6}: {tally.won} won, {tally.nodes:,} states; search {tally.search:.3f} CPU s = "
            f"{tally.nodes / tally.search:,.0f} states/s; calls {tally.call:.3f} CPU s = "
            f"{tally.nodes / tally.call:,.0f} states/s"
        )
    python, native = tallies[engine.PYTHON], tallies[engine.NATIVE]
    # The ratio of states per CPU second, native over Python (both expand the same states here).
    by_search = (native.nodes / native.search) / (python.nodes / python.search)
    by_call = (native.nodes / native.call) / (python.nodes / python.call)
    print(f"  ratio native / python: {by_search:.1f}x by the engines' search times, {by_call:.1f}x by the calls")
    return agreed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-200", help="PySolFC deal numbers, e.g. 1-200")
    parser.add_argument("--game", help="one game only (default: all three, under every option setting)")
    parser.add_argument("--option", action="append", default=[], help="name=yes|no, with --game")
    parser.add_argument("--blocks", action="store_true", help="each engine searches all deals in turn")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the deals")
    args = parser.parse_args()
    if os.environ.get(engine.NO_EXTENSIONS):
        print(f"{engine.NO_EXTENSIONS} is set: there is no compiled engine to compare", file=sys.stderr)
        return 2
    seeds = [seed for low, high in parse_seeds(args.seeds) for seed in range(low, high + 1)]
    games = GAMES
    if args.game:
        options = {key: value == "yes" for key, _, value in (text.partition("=") for text in args.option)}
        games = ((args.game, options),)
    agreed = [compare(name, options, seeds, args.blocks, args.rounds) for name, options in games]
    return 0 if all(agreed) else 1


if __name__ == "__main__":
    sys.exit(main())
