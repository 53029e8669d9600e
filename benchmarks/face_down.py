"""A face-down stock: sampled orders per CPU second beside surveyed deals per CPU second, the
most face-down cards each preset's exact chance answers within a budget, and what a move played
costs.

Part 1, per preset: a deal's opening with its whole stock face down, its ``clairvoyant`` share
drawn from N orders (solver.engine.hindsight, as ``solve`` and ``hint`` count them), beside
N PySolFC deals solved one by one as a survey's worker does (solve_from: search and replay), in
one run, in turns. Part 2, per preset: the first PySolFC deal that, played at random, comes to h
cards left in the stock, those turned face down; h grows
until the exact chance no longer answers within the largest budget; each budget's row says the
most face-down cards answered within it. Part 3, per preset: ``--games`` careful games from
part 1's opening, on orders drawn for them: the microseconds a move played costs beyond any
search (the rules offering the moves, the player ranking them, one played), which
solver/service/budget.py counts a move played as. Part 4, per preset: the information relaxation
walk (``--relaxed 4``) from deals 1-3's openings, 6,000,000 states each: the states it expands a
CPU second, the lowest of the three (each preset's ``Costs.walk_rate``).

    python benchmarks/face_down.py [PRESET ...] [--orders 2000] [--budgets 1,60] [--most 20] [--games 200]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from rulesets.concealed import presets_with_stock
from solver.chance import arranged, conceal, orders, unseen
from solver.draws import Draw
from solver.engine import engine_of
from solver.players import CarefulPlayer, play_out
from solver.result import Limits
from solver.service.setup import Setup
from solver.service.solving import solve

PRESETS = presets_with_stock()


def opening(setup: Setup) -> Any:
    """PySolFC deal 1's opening, its whole stock face down."""
    game: Any = setup.legal
    start = game.start(setup.deal(seed=1))
    return conceal(game, start, len(game.stock(start)))


def sampled_against_surveyed(preset: str, count: int) -> tuple[float, float, int]:
    """CPU seconds of ``count`` sampled orders of an opening, and of ``count`` deals solved, and
    the states the orders' searches expanded (what solver/service/budget.py's rates come from)."""
    setup = Setup.of(preset)
    game: Any = setup.legal
    position = opening(setup)
    started = time.process_time()
    searched = engine_of(game, setup.game).clairvoyant(
        position, drawn=orders(unseen(game, position), count, 1), targets=(None,)
    )
    sampled = time.process_time() - started
    assert sum(searched.tallies[0]) == count
    started = time.process_time()
    for seed in range(1, count + 1):
        solve(setup, setup.deal(seed=seed), Limits())
    return sampled, time.process_time() - started, searched.nodes


def midgame(setup: Setup, hidden: int) -> Any:
    """The first of PySolFC deals 1 to 200 that, played at random (seeded by its number), comes
    to ``hidden`` cards left in the stock, those face down; None where none does."""
    game: Any = setup.legal
    for seed in range(1, 201):
        chooser = random.Random(seed)
        state = game.start(setup.deal(seed=seed))
        while len(game.stock(state)) > hidden and game.moves(state):
            state = game.apply(state, chooser.choice(list(game.moves(state))))
        if len(game.stock(state)) == hidden:
            return conceal(game, state, hidden)
    return None


def most_exact(preset: str, budgets: tuple[float, ...], most: int) -> list[tuple[int, float]]:
    """For each budget (CPU seconds, ascending), the most face-down cards (up to ``most``) whose
    exact chance answered within it, and that answer's seconds: one pass, each h searched once
    within the largest budget."""
    setup = Setup.of(preset)
    found = [(0, 0.0)] * len(budgets)
    for hidden in range(2, most + 1):
        position = midgame(setup, hidden)
        if position is None:
            continue
        rules: Any = setup.legal
        chance = engine_of(rules, setup.game).best_chance(
            position, limits=Limits(max_seconds=budgets[-1], max_memory=2**31)
        )
        if chance.chance is None:
            break
        seconds = chance.stats.seconds
        found = [(hidden, seconds) if seconds <= budget else best for budget, best in zip(budgets, found)]
    return found


def move_us(preset: str, games: int) -> float:
    """CPU microseconds a move played costs in ``games`` careful games from the opening (each on
    its own order, drawn from stream 1): the rules' own work, with no search."""
    setup = Setup.of(preset)
    game: Any = setup.legal
    position = opening(setup)
    cards, draw, moves = unseen(game, position), Draw(1), 0
    started = time.process_time()
    for _ in range(games):
        state = arranged(game, position, draw.shuffled(cards))
        moves += len(play_out(engine_of(game, setup.game), state, position.hidden, player=CarefulPlayer()).moves)
    return (time.process_time() - started) / moves * 1e6


def walk_rate(preset: str) -> float:
    """The states the relaxation walk at reach 4 expands a CPU second from deals 1-3's openings
    (6,000,000 states each, about the share of a default answer: its tables grow, and the rate
    falls, as they fill): the lowest of the three."""
    setup = Setup.of(preset)
    game: Any = setup.legal
    rates = []
    for seed in (1, 2, 3):
        start = game.start(setup.deal(seed=seed))
        position = conceal(game, start, len(game.stock(start)))
        started = time.process_time()
        found = engine_of(game, setup.game).relaxed(
            position, drawn=orders(unseen(game, position), 1000, seed), reach=4, limits=Limits(max_nodes=6_000_000)
        )
        rates.append(found.nodes / (time.process_time() - started))
    return min(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", default=PRESETS)
    parser.add_argument("--orders", type=int, default=2000)
    parser.add_argument("--budgets", default="1,60", help="CPU seconds, ascending, e.g. 1,60")
    parser.add_argument("--most", type=int, default=20)
    parser.add_argument("--games", type=int, default=200, help="careful games for part 3 (default 200)")
    args = parser.parse_args()
    budgets = tuple(float(text) for text in args.budgets.split(","))
    within = "".join(f"{'exact in ' + format(budget, 'g') + ' s':>20}" for budget in budgets)
    header = f"{'preset':<18}{'orders/s':>10}{'deals/s':>10}{'ratio':>7}{'states/s':>12}{within}"
    header += f"{'us/move':>9}{'relaxed/s':>12}"
    print(header, flush=True)
    for preset in args.presets:
        sampled, surveyed, states = sampled_against_surveyed(preset, args.orders)
        found = most_exact(preset, budgets, args.most)
        cells = "".join(f"{f'{cards} cards ({seconds:.2f} s)':>20}" for cards, seconds in found)
        rates = f"{args.orders / sampled:>10.0f}{args.orders / surveyed:>10.0f}{surveyed / sampled:>7.2f}"
        rates += f"{states / sampled:>12,.0f}"
        walk = walk_rate(preset)
        print(f"{preset:<18}{rates}{cells}{move_us(preset, args.games):>9.1f}{walk:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
