"""How far a player who cannot see the stock stands from the best possible one, on small
positions with a face-down stock where the exact expectimax finishes.

For each position: the exact best chance (``solver.service.chances.judge``), the clairvoyant
share (the orders of the face-down cards that can be won with every card known: every order up
to nine cards, else 362,880 drawn), and the win rate of each player of ``solver.players`` played
by ``play_out`` from every order of the face-down cards (each order equally likely, so the mean
is the player's exact chance to win; where h! is above the position's ``played``, that many
orders are drawn, with a 95% Wilson interval). Every player makes its draws from the same
``rng_seed`` in every order, so each is one fixed way of playing that never sees the order. The
sampling player is also run with its switch to the exact chance off (``solver.players.
EXACT_HIDDEN`` set to 1 while it plays), to measure the sampling itself. It aborts if the
exact chance does not finish, or if a rate breaks what must hold: chance <= clairvoyant, every
player's rate <= chance (where orders were drawn: the chance not below the rate's interval, taken
at 99.99% so that some thirty rates near the chance raise no false alarm), and the default
sampling player's rate = chance where every order was played and at most EXACT_HIDDEN cards
lie face down (it plays by the exact chance there).

    python benchmarks/player_study.py
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, NamedTuple, NoReturn

from solver import players
from solver.chance import Concealed, Orders, arranged, orders, unseen
from solver.draws import CLAIRVOYANT, stream
from solver.engine import engine_of
from solver.players import Player, play_out
from solver.result import Limits
from solver.service.chances import judge, percent
from solver.service.playing import DEFAULT_RNG_SEED, PLAYER_SAMPLES, make_player
from solver.service.setup import Setup
from solver.service.stats import Z95, wilson


class Position(NamedTuple):
    """A position of the study: its label in the table, the preset, the position as written
    (face-down cards in braces) and the most orders its players play: every one where h! is at
    most this, else this many drawn (a game of the sampling player costs some 10 ms on these
    Accordion positions, 25 ms on the Baroness ones)."""

    label: str
    preset: str
    text: str
    played: int


#: Accordion: the 12-card deck of tests/test_chance.py (clubs and hearts, Ace to Six) shuffled by
#: random.Random(N) and played at random to h cards in the stock, those turned face down (its
#: dealt_accordion). Baroness: PySolFC deal N played at random (random.Random(N)) to its last deal,
#: the seven cards (eight under kings_first) turned face down (its baroness_endgame). Picked from
#: N = 0..19 (Accordion) and 1..399 (Baroness) for a wide gap between chance and clairvoyant, where
#: what is chosen before the cards turn up matters most; idle-year for contrast, where it does not.
#: The first, from N = 0..59, is one where ten sampled orders a move alone win less than the
#: chance (tests/test_player_study.py plays it on both engines).
POSITIONS = (
    Position("parlett, 12-card #12", "parlett", "row: 5H 2C 6H 4C 3C | stock: {5C 6C 2H 3H}", 5040),
    Position("parlett, 12-card #2", "parlett", "row: 6H 5C 2H AH | stock: {AC 2C 3C 6C 3H 5H}", 5040),
    Position("parlett, 12-card #16", "parlett", "row: 4H 3C 6H AC | stock: {2C 4C 5C 6C AH 2H 5H}", 5040),
    Position("parlett, 12-card #5", "parlett", "row: 5H 3C 6H 2H | stock: {AC 2C 4C 5C 6C AH 3H 4H}", 2000),
    Position("parlett, 12-card #18", "parlett", "row: AC 6H 5C | stock: {2C 3C 4C 6C AH 2H 3H 4H 5H}", 2000),
    Position("parlett, 12-card #3", "parlett", "row: 2C 2H | stock: {AC 3C 4C 5C 6C AH 3H 4H 5H 6H}", 2000),
    Position("idle-year, 12-card #4", "idle-year", "row: 3H 5H | stock: {AC 2C 4C 5C 6C AH 2H 4H}", 2000),
    Position(
        "baroness, deal 47",
        "baroness",
        "piles: 8H 8S 9D 5D / 4H AS QS TH / 3D 8C / 5S 4C / 2S 9C | grace: - | stock: {AC 6C 7C QD 5H JH KH}",
        1000,
    ),
    Position(
        "baroness, deal 122",
        "baroness",
        "piles: QS 5S / TC 5C 9C 8H 6H / 3S AS 3H 2H 5H JH 9D / 4C 2S 4H 4S / 9S TH 3C 7C | grace: - | "
        "stock: {8C JC TD KD AH QH 8S}",
        1000,
    ),
    Position(
        "baroness, deal 333",
        "baroness",
        "piles: 9H 8H JS 2C 6D / 8C 6S TD 5C QD 7C / 8S 9S 5D 2D / 3C JD / JC 4H AD | grace: - | "
        "stock: {TC KC 7D 5H 2S 3S 4S}",
        1000,
    ),
    Position(
        "baroness-classic, deal 9",
        "baroness-classic",
        "piles: 9H 8C AD QC 6C TC / 6D AH 4S TD / AC 7S 4C 9C / 2D 8H QH 5D 9S / 5H 5S 3C | grace: - | "
        "stock: {2C JC 3D 4D 8D 7H JS QS}",
        1000,
    ),
)
#: The orders the clairvoyant share counts: every order of up to nine cards (9! of them).
CLAIRVOYANT_ORDERS = math.factorial(9)
#: The seed of the orders drawn, for the clairvoyant share and for the orders played (the same
#: stream of it: solve's and hint's, solver.draws.CLAIRVOYANT).
ORDERS_SEED = 1
#: The exact chance's budget (every position of the study answers in about a second).
LIMITS = Limits(max_seconds=120.0, max_memory=2**31)
#: Rounding between the expectimax's sums and a count of won orders.
EPSILON = 1e-9
#: The normal quantile of a two-sided 99.99% interval: a drawn rate checked against the chance.
CHECK_Z = 3.890591886


class Column(NamedTuple):
    """A player of the table: its heading, how a fresh one is made for each order, and whether
    its switch to the exact chance is turned off while it plays."""

    heading: str
    make: Callable[[], Player]
    exact_switch_off: bool = False


def sampling(samples: int) -> Callable[[], Player]:
    """Fresh sampling players drawing ``samples`` orders a move, all from the same seed."""
    return lambda: make_player("sampling", samples, DEFAULT_RNG_SEED)


DEFAULT_SAMPLING = f"sampling K={PLAYER_SAMPLES} (default)"
COLUMNS = (
    Column("sampling K=10, switch off", sampling(10), True),
    Column(f"sampling K={PLAYER_SAMPLES}, switch off", sampling(PLAYER_SAMPLES), True),
    Column(DEFAULT_SAMPLING, sampling(PLAYER_SAMPLES)),
    Column("careful", lambda: make_player("careful")),
    Column("random", lambda: make_player("random", None, DEFAULT_RNG_SEED)),
)


@contextmanager
def exact_switch_off() -> Iterator[None]:
    """The sampling player with no switch to the exact chance while this lasts: EXACT_HIDDEN set
    to 1, so it samples wherever two cards or more lie face down (with one or none the order is
    known, and it follows the search's line as before)."""
    kept = players.SamplingPlayer.exact_hidden
    players.SamplingPlayer.exact_hidden = 1
    try:
        yield
    finally:
        players.SamplingPlayer.exact_hidden = kept


class Rate(NamedTuple):
    """Games won of the orders played, and whether those were every order (an exact rate)."""

    won: int
    played: int
    every: bool

    @property
    def share(self) -> float:
        return self.won / self.played

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The rate itself where every order was played, else its Wilson interval at ``z``."""
        return (self.share, self.share) if self.every else wilson(self.won, self.played, z)

    def cell(self) -> str:
        """The rate as the table prints it: its 95% interval beside it where orders were drawn."""
        low, high = self.interval()
        return percent(self.share) if self.every else f"{percent(self.share)} ({percent(low)}-{percent(high)})"


def played_rate(setup: Setup, position: Concealed, drawn: Orders, make: Callable[[], Player]) -> Rate:
    """The games a fresh player from ``make`` wins, one game from each of the orders ``drawn``."""
    rules: Any = setup.legal
    won = 0
    for order in drawn.each():
        start = arranged(rules, position, order)
        won += play_out(engine_of(rules, setup.game), start, position.hidden, player=make()).won
    return Rate(won, drawn.total(), drawn.exact)


class Row(NamedTuple):
    """One position measured."""

    position: Position
    hidden: int
    drawn: Orders
    chance: float
    clairvoyant: Rate
    rates: dict[str, Rate]
    engine: str
    seconds: float


def measure(entry: Position) -> Row:
    """The position's chance, clairvoyant share and every column's rate, checked."""
    began = time.process_time()
    setup = Setup.of(entry.preset)
    rules: Any = setup.legal
    position = setup.concealed(entry.text)
    judged = judge(setup, position, LIMITS, samples=CLAIRVOYANT_ORDERS, rng_seed=ORDERS_SEED)
    tally = judged.worth.tally
    chance = judged.worth.chance
    if chance is None or tally.unknown:
        abort(f"{entry.label}: the exact chance or an order's search did not finish within {LIMITS}")
    clairvoyant = Rate(tally.won, sum(tally), judged.worth.every)
    drawn = orders(unseen(rules, position), entry.played, stream(CLAIRVOYANT, ORDERS_SEED))
    rates = {}
    for column in COLUMNS:
        with exact_switch_off() if column.exact_switch_off else nullcontext():
            rates[column.heading] = played_rate(setup, position, drawn, column.make)
    engine = setup.engine.chance_name
    row = Row(entry, position.hidden, drawn, chance, clairvoyant, rates, engine, time.process_time() - began)
    check(row)
    return row


def check(row: Row) -> None:
    """Abort on any rate that breaks what must hold (see the module's docstring)."""
    name, chance = row.position.label, row.chance
    if chance > row.clairvoyant.interval(CHECK_Z)[1] + EPSILON:
        abort(f"{name}: chance {chance!r} above the clairvoyant share {row.clairvoyant}")
    for heading, rate in row.rates.items():
        if rate.interval(CHECK_Z)[0] > chance + EPSILON:
            abort(f"{name}: the {heading} player wins {rate}, above the best chance {chance!r}")
    exact_play = row.rates[DEFAULT_SAMPLING]
    switched = row.hidden <= players.SamplingPlayer.exact_hidden
    if switched and exact_play.every and abs(exact_play.share - chance) > EPSILON:
        abort(
            f"{name}: the {DEFAULT_SAMPLING} player plays by the exact chance here, "
            f"yet wins {exact_play}, not {chance!r}"
        )


def abort(message: str) -> NoReturn:
    sys.exit(f"player_study: {message}")


def orders_cell(row: Row) -> str:
    """How many orders were played: all of them, or so many drawn of all."""
    total = math.factorial(row.hidden)
    return f"{total:,} (all)" if row.drawn.exact else f"{row.drawn.total():,} drawn of {total:,}"


def clairvoyant_cell(rate: Rate) -> str:
    """The clairvoyant share, with the count of its orders where they were drawn."""
    return rate.cell() if rate.every else f"{rate.cell()}, {rate.played:,} drawn"


def table(rows: list[Row]) -> list[str]:
    """The Markdown table docs/results.md shows, a line a row."""
    headings = ["position", "face down", "orders played", "chance", *(c.heading for c in COLUMNS), "clairvoyant"]
    lines = ["| " + " | ".join(headings) + " | CPU s |", "|" + "---|" * (len(headings) + 1)]
    for row in rows:
        cells = [row.position.label, str(row.hidden), orders_cell(row), percent(row.chance)]
        cells += [row.rates[column.heading].cell() for column in COLUMNS]
        cells += [clairvoyant_cell(row.clairvoyant), f"{row.seconds:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    began = time.process_time()
    rows = []
    for entry in POSITIONS:
        rows.append(measure(entry))
        print(f"{entry.label}: {rows[-1].seconds:.1f} CPU s", file=sys.stderr, flush=True)
    print("\n".join(table(rows)))
    print("\npositions:")
    for entry in POSITIONS:
        print(f"- {entry.label}: `{entry.text}`")
    print(
        f"\n`switch off`: solver.players.EXACT_HIDDEN set to 1 while the player plays (it samples wherever two "
        f"cards or more lie face down); every player's rng_seed {DEFAULT_RNG_SEED} in every order; "
        f"engine: {', '.join(sorted({row.engine for row in rows}))}; {time.process_time() - began:.0f} CPU s in all"
    )


if __name__ == "__main__":
    main()
