"""The players of ``patience play``: CPU seconds per played deal and win rate, preset by preset.

Each PySolFC deal of ``--seeds`` is played to its end by each player, its whole stock face down
(as ``patience play GAME --seed N`` plays it), on each engine asked for. Per engine, preset and
player it prints the deals, the games won (a win rate with its 95% Wilson interval), the mean
and the worst CPU seconds of a deal (the player's own, as ``play`` reports them), and the
searches the player ran per deal, with those run at a turn offering one move (which should
cost none: the column must read 0).

    python benchmarks/players.py [PRESET ...] [--seeds 1-100] [--players random,careful,sampling]
        [--samples 100] [--engines native,python]

With no preset, every preset of every game. The Python engine is slow with the sampling player
(tens of CPU seconds a Parlett deal): give it a handful of seeds.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from rulesets import DECLARED
from solver.engine import NATIVE, NO_EXTENSIONS, PYTHON, Engine, compiled_core
from solver.errors import UserError
from solver.players import PLAYERS, Player, View
from solver.service.playing import PLAYER_SAMPLES, dealt, make_player, play
from solver.service.seeds import parse_seeds
from solver.service.setup import Setup
from solver.service.stats import wilson

#: The engine's searches a player runs (through the View's engine).
SEARCHES = ("depth_first", "best_chance", "clairvoyant")


@dataclass
class Tally:
    """One player's games on one preset and engine."""

    deals: int = 0
    won: int = 0
    seconds: float = 0.0
    worst: float = 0.0
    worst_seed: int = 0
    searches: int = 0
    forced_searches: int = 0


class Counted:
    """A player, and the searches it runs at each turn (all turns, and those offering one move)."""

    name: ClassVar[str] = "counted"

    def __init__(self, player: Player, calls: list[int]) -> None:
        self.player, self.calls = player, calls
        self.searches = self.forced = 0

    def settings(self) -> dict[str, Any]:
        return self.player.settings()

    def choose(self, view: View) -> Any:
        before = self.calls[0]
        move = self.player.choose(view)
        ran = self.calls[0] - before
        self.searches += ran
        self.forced += ran if len(view.moves) == 1 else 0
        return move


class CountingEngine(Engine):
    """A game's engine as a player sees it, each search it calls counted (the searches the engine
    runs inside one, an order's on the Python engine, are not)."""

    def __init__(self, engine: Engine, calls: list[int]) -> None:
        super().__init__(engine.rules, engine.searched)
        self.engine, self.calls = engine, calls

    def __getattribute__(self, name: str) -> Any:
        if name not in SEARCHES:
            return object.__getattribute__(self, name)
        found = getattr(object.__getattribute__(self, "engine"), name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[0] += 1
            return found(*args, **kwargs)

        return call


@contextmanager
def on_engine(name: str) -> Iterator[None]:
    """The searches inside run on engine ``name`` (PATIENCE_NO_EXTENSIONS is read at each)."""
    before = os.environ.get(NO_EXTENSIONS)
    if name == PYTHON:
        os.environ[NO_EXTENSIONS] = "1"
    else:
        os.environ.pop(NO_EXTENSIONS, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(NO_EXTENSIONS, None)
        else:
            os.environ[NO_EXTENSIONS] = before


def measure(preset: str, seeds: list[int], name: str, samples: int, calls: list[int]) -> Tally:
    """Deals ``seeds`` of ``preset`` played by a fresh ``name`` player each."""
    setup = Setup.of(preset)
    setup = setup._replace(engine=CountingEngine(setup.engine, calls))
    tally = Tally()
    for seed in seeds:
        player = Counted(make_player(name, samples if name == "sampling" else None), calls)
        played = play(setup, dealt(setup, setup.deal(seed=seed), seed), player)
        tally.deals += 1
        tally.won += played.won
        tally.seconds += played.seconds
        if played.seconds > tally.worst:
            tally.worst, tally.worst_seed = played.seconds, seed
        tally.searches += player.searches
        tally.forced_searches += player.forced
    return tally


def row(engine_name: str, preset: str, player: str, tally: Tally) -> str:
    low, high = wilson(tally.won, tally.deals)
    rate = f"{tally.won / tally.deals:.0%} ({low:.0%}-{high:.0%})"
    return (
        f"{engine_name:<7}{preset:<18}{player:<9}{tally.deals:>6}{tally.won:>5}  {rate:<15}"
        f"{tally.seconds / tally.deals:>9.3f}{tally.worst:>9.3f} (#{tally.worst_seed}){'':<3}"
        f"{tally.searches / tally.deals:>10.1f}{tally.forced_searches:>8}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    presets = [variant for games in DECLARED.values() for variants in games.values() for variant in variants]
    parser.add_argument("presets", nargs="*", default=presets, help="presets (default: all)")
    parser.add_argument("--seeds", default="1-100", help="PySolFC deal numbers, e.g. 1-100")
    parser.add_argument("--players", default=",".join(PLAYERS), help="players, e.g. careful,sampling")
    parser.add_argument("--samples", type=int, default=PLAYER_SAMPLES, help="the sampling player's orders a move")
    parser.add_argument("--engines", default=NATIVE, help="native, python, or native,python")
    args = parser.parse_args()
    chosen, engines = args.players.split(","), args.engines.split(",")
    unknown = [name for name in chosen if name not in PLAYERS] + [
        name for name in engines if name not in (NATIVE, PYTHON)
    ]
    if unknown:
        parser.error(f"unknown player or engine: {', '.join(unknown)}")
    try:  # every argument checked before the first game is played
        seeds = [seed for low, high in parse_seeds(args.seeds) for seed in range(low, high + 1)]
        for preset in args.presets:
            Setup.of(preset)
        make_player("sampling", args.samples)
    except UserError as error:
        parser.error(str(error))
    print(f"seeds {args.seeds}; sampling player's samples: {args.samples}")
    print(
        f"{'engine':<7}{'preset':<18}{'player':<9}{'deals':>6}{'won':>5}  {'win rate (95%)':<15}"
        f"{'CPU s/deal':>9}{'worst':>9}{'':<10}{'searches':>10}{'forced':>8}"
    )
    calls = [0]
    for engine_name in engines:
        with on_engine(engine_name):
            if engine_name == NATIVE and compiled_core() is None:
                print("native: the compiled core is not built here; skipped")
                continue
            for preset in args.presets:
                for name in chosen:
                    tally = measure(preset, seeds, name, args.samples, calls)
                    print(row(engine_name, preset, name, tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
