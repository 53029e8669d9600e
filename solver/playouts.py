"""The lower side of a face-down position's bracket: a player who cannot see the stock, played
from the position over drawn orders of its face-down cards.

Whatever a player that never sees a face-down card before it is dealt wins, the best such player
wins at least as often, so its measured rate is an estimate from below of the position's best
chance (the upper side is the clairvoyant share: :func:`solver.chance.hindsight`). The games are
played on the orders the clairvoyant share draws first (the same stream and seed), so an order a
player wins is one the clairvoyant counts as won; a hint's moves are played on the same orders
(common random numbers: a difference between two moves is not noise in the draw).

The player is the strongest of :data:`LADDER` whose first game fits its share of the budget
(:data:`FEWEST_GAMES` games of every target must fit), counted in states expanded, so that the
same command plays the same games on any machine and on both engines; ``max_seconds`` bounds
the games as a whole too. Game i is played on the clairvoyant's order i (where every order is
counted, in the same lexicographic order), and no more games than the clairvoyant searched
orders: so a game won is an order the clairvoyant counts as won (or undecided), and the played
share can never stand above the clairvoyant share it is bracketed with. The game is known only
through :mod:`solver.protocol`.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, NamedTuple

from solver.chance import Concealed, Orders, arranged, left_face_down
from solver.players import CarefulPlayer, OutOfBudget, Player, SamplingPlayer, View, play_out
from solver.protocol import Concealable
from solver.python_engine import Engine

#: The players tried, strongest first (a name of :data:`solver.players.PLAYERS` and the orders it
#: draws a move); the last needs no search and is always played.
LADDER: tuple[tuple[str, int], ...] = (
    (SamplingPlayer.name, 100),
    (SamplingPlayer.name, 20),
    (SamplingPlayer.name, 5),
    (CarefulPlayer.name, 0),
)
#: The fewest games of each target a player's first game must leave room for to be chosen: fewer
#: give an interval too wide to say much (0 of 100 won: from 0% to 3.7%).
FEWEST_GAMES = 100


class PlayoutTally(NamedTuple):
    """Of the games played from one target: how many were won, of how many."""

    won: int
    games: int


class Playouts(NamedTuple):
    """The games played: the player (its name and settings), a tally for each target (the same
    orders for each), the states its searches expanded, and the limit that stopped the games
    before ``most`` orders were played (None: none did)."""

    player: str
    settings: dict[str, Any]
    tallies: tuple[PlayoutTally, ...]
    nodes: int
    limit: str | None


class _Spent(Exception):
    """A game stopped because its player spent what it was given."""

    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


class _Bounded:
    """A player that stops its game (:class:`_Spent`) once the CPU clock has passed ``deadline``
    (None: never), looked at before each move, or once its searches have spent the states or
    time it was made with (:class:`solver.players.OutOfBudget`, within a move)."""

    def __init__(self, player: Player, deadline: float | None) -> None:
        self.player, self.deadline = player, deadline
        self.name = player.name

    def settings(self) -> dict[str, Any]:
        return self.player.settings()

    def choose(self, view: View) -> Hashable:
        if self.deadline is not None and time.process_time() > self.deadline:
            raise _Spent("max_seconds")
        try:
            return self.player.choose(view)
        except OutOfBudget as spent:
            raise _Spent(spent.limit) from None


def play_orders(
    engine: Engine,
    position: Concealed,
    *,
    targets: Sequence[Hashable | None],
    drawn: Orders,
    most: int,
    rng_seed: int,
    budget: int | None,
    max_seconds: float | None = None,
    move_states: int = 0,
) -> Playouts:
    """Play each of ``targets`` (None: the position; a move: after it) to the end on the first
    ``most`` orders of ``drawn`` (the clairvoyant's, in its order), with the strongest player of
    :data:`LADDER` the ``budget`` (states) and ``max_seconds`` (CPU) afford, its own draws from
    ``rng_seed``; each move played, and the end of each game, counts as ``move_states`` states
    beside its player's searches (the work of the rules themselves: a game of no move still
    costs one). At least one order is played."""
    started = time.process_time()
    deadline = None if max_seconds is None else started + max_seconds
    starts = [_after(engine.rules, position, target) for target in targets]
    for name, samples in LADDER:
        last = (name, samples) == LADDER[-1]
        share = None if last else _share(budget, len(targets))
        pilot_deadline = None if last or max_seconds is None else started + max_seconds / (FEWEST_GAMES * len(targets))
        games = _Games(engine, position, starts, player=(name, samples), rng_seed=rng_seed, move_states=move_states)
        games.draws = drawn.each()  # afresh for each player tried: its first game on the first order
        try:
            games.play_order(share, pilot_deadline)
        except _Spent:
            continue  # its first game alone took more than its share: a weaker player is tried
        return games.go_on(most, budget, deadline)
    raise AssertionError("internal error: the last player of the ladder is always played")


def _share(budget: int | None, targets: int) -> int | None:
    """The states one game may take for a player to be chosen (None: no bound)."""
    return None if budget is None else max(1, budget // (FEWEST_GAMES * targets))


def _after(rules: Concealable[Any, Any], position: Concealed, target: Hashable | None) -> tuple[Hashable | None, int]:
    """A target, and how many cards lie face down after it."""
    return target, position.hidden if target is None else left_face_down(rules, position, target)


class _Games:
    """The games of one player from each target, order by order."""

    def __init__(
        self,
        engine: Engine,
        position: Concealed,
        starts: list[tuple[Hashable | None, int]],
        *,
        player: tuple[str, int],
        rng_seed: int,
        move_states: int,
    ) -> None:
        self.engine, self.rules, self.position, self.starts = engine, engine.rules, position, starts
        (self.name, self.samples), self.rng_seed, self.move_states = player, rng_seed, move_states
        self.player = self.make(None)
        self.won = [0] * len(starts)
        self.orders = 0
        self.nodes = 0
        self.draws: Iterator[tuple[int, ...]] = iter(())

    def make(self, room: int | None, deadline: float | None = None) -> SamplingPlayer | CarefulPlayer:
        """A fresh player for one game, its searches within ``room`` states and the CPU clock's
        ``deadline`` (None: no such bound)."""
        if self.name == SamplingPlayer.name:
            return SamplingPlayer(self.samples, self.rng_seed, room, deadline=deadline)
        return CarefulPlayer()

    def play_order(self, room: int | None, deadline: float | None) -> bool:
        """Play one order (the next of :attr:`draws`) from every target, each game within
        ``room`` states and the CPU clock's ``deadline``; the tallies change only once all are
        played. False where no order is left."""
        order = next(self.draws, None)
        if order is None:
            return False
        state = arranged(self.rules, self.position, order)
        wins, spent = [], 0
        for target, hidden in self.starts:
            player = self.make(None if room is None else max(1, room - spent), deadline)
            bounded = _Bounded(player, deadline)
            start = state if target is None else self.rules.apply(state, target)
            game = play_out(self.engine, start, hidden, player=bounded)  # type: ignore[arg-type]  # its name is the player's
            wins.append(game.won)
            spent += player.nodes + self.move_states * (len(game.moves) + 1)
        self.won = [count + won for count, won in zip(self.won, wins)]
        self.orders += 1
        self.nodes += spent
        return True

    def go_on(self, most: int, budget: int | None, deadline: float | None) -> Playouts:
        """Play further orders until ``most`` are played or the budget or the deadline is spent."""
        limit = None
        while self.orders < most:
            if budget is not None and self.nodes >= budget:
                limit = "budget"
                break
            if deadline is not None and time.process_time() > deadline:
                limit = "max_seconds"
                break
            try:
                if not self.play_order(None if budget is None else budget - self.nodes, deadline):
                    break
            except _Spent as spent:  # the order cut short is not counted
                limit = spent.limit
                break
        tallies = tuple(PlayoutTally(won, self.orders) for won in self.won)
        return Playouts(self.player.name, self.player.settings(), tallies, self.nodes, limit)
