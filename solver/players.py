"""Players: programs that play a game seeing only what a person at the table sees.

At each turn a player is handed a :class:`View`: the rules, the position with its face-down cards
held in the order of their codes (the true order is not in the object: :func:`solver.chance.conceal`
rewrote it), and the moves it may choose. It returns one of them. :func:`play_out` keeps the true
state apart, deals the face-down cards from it as moves turn them up, and never hands it over.

A played game ends when it is won or when no move is left that does not bring back a position
already reached in it (a repeated position changes nothing a player can use; without this rule a
game with unlimited redeals would never end). The game is known only through the protocol, and
the values of choices come from the game's engine (:mod:`solver.engine`: either serves).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any, ClassVar, NamedTuple, Protocol

from solver.chance import Concealed, conceal, information_key, left_face_down, orders, turned_up, unseen
from solver.draws import RANDOM_PLAYER, SAMPLING_PLAYER, Draw, stream
from solver.protocol import NO_SCORE, Concealable
from solver.python_engine import Engine
from solver.result import Limits


class View(NamedTuple):
    """What a player sees at its turn: the game's engine (its ``rules`` list every legal move;
    its searches value the choices), the position with its face-down cards in the order of their
    codes, and the moves it may choose (the rules' order, less those that would bring back a
    position already reached)."""

    engine: Engine
    position: Concealed
    moves: tuple[Hashable, ...]

    @property
    def rules(self) -> Concealable[Any, Any]:
        """The rules, which list every legal move."""
        rules: Concealable[Any, Any] = self.engine.rules
        return rules

    def unseen(self) -> tuple[int, ...]:
        """The cards not seen yet (the face-down ones), by code: every other card has been seen."""
        return unseen(self.rules, self.position) if self.position.hidden else ()


class Player(Protocol):
    """A program that picks a move from a view. One player object plays one game (it may keep
    what it has worked out between turns, and its random draws)."""

    #: The name ``--player`` takes.
    name: ClassVar[str]

    def settings(self) -> dict[str, Any]:
        """The settings that, with the deal, fix every game it plays (for records and surveys)."""
        ...

    def choose(self, view: View) -> Hashable:
        """One of ``view.moves`` (never called with none)."""
        ...


class PlayedOut(NamedTuple):
    """A game played to its end: every move with the state it was played in (the true state,
    which the player never saw), the final state, whether it was won, and the positions the
    player saw (the opening, then one after each move)."""

    moves: tuple[tuple[Any, Hashable], ...]
    final: Any
    won: bool
    seen: tuple[Concealed, ...]


def play_out(engine: Engine, start: Any, hidden: int, *, player: Player) -> PlayedOut:
    """Play ``start`` (its stock in its true order, its last ``hidden`` cards face down to the
    player) to the end with ``player``, on the rules and searches of ``engine``. Cards are turned
    up as the rules deal them."""
    rules: Concealable[Any, Any] = engine.rules
    state = start
    position = conceal(rules, state, hidden)
    reached = {_key(rules, position)}
    moves: list[tuple[Any, Hashable]] = []
    seen = [position]
    while not rules.is_won(state):
        offered = tuple(move for move in rules.moves(position.state) if _new(rules, position, move, reached=reached))
        if not offered:
            break
        move = player.choose(View(engine, position, offered))
        if move not in offered:
            raise AssertionError(f"internal error: player {player.name} chose a move it was not offered")
        left = left_face_down(rules, position, move)
        moves.append((state, move))
        state = rules.apply(state, move)
        position = conceal(rules, state, left)
        seen.append(position)
        reached.add(_key(rules, position))
    return PlayedOut(tuple(moves), state, bool(rules.is_won(state)), tuple(seen))


def _new(rules: Concealable[Any, Any], position: Concealed, move: Hashable, *, reached: set[bytes]) -> bool:
    """Whether ``move`` leads to a position not reached before. A move that turns up a face-down
    card always does (fewer cards are face down than ever before)."""
    if turned_up(rules, position, move):
        return True
    return _key(rules, Concealed(rules.apply(position.state, move), position.hidden)) not in reached


def _key(rules: Concealable[Any, Any], position: Concealed) -> bytes:
    """The position as far as the player knows it (the game's key where every card is known)."""
    return information_key(rules, position) if position.hidden else rules.key(position.state)


def careful_order(view: View) -> list[Hashable]:
    """The moves as a careful beginner ranks them: first those that turn up no face-down card
    (play what can be seen before dealing), among them those leaving the lowest score (clear the
    most cards: a win first), then in the rules' own order."""
    rules, position = view.rules, view.position

    def rank(indexed: tuple[int, Hashable]) -> tuple[bool, int, int]:
        index, move = indexed
        turns = turned_up(rules, position, move) > 0
        score = NO_SCORE if turns else rules.score(rules.apply(position.state, move))
        return turns, score, index

    return [move for _, move in sorted(enumerate(view.moves), key=rank)]


class RandomPlayer:
    """A uniformly random legal move, drawn by :class:`solver.draws.Draw` from the random
    player's stream of ``rng_seed`` (a turn with one move draws nothing)."""

    name: ClassVar[str] = "random"

    def __init__(self, rng_seed: int) -> None:
        self.rng_seed = rng_seed
        self.draw = Draw(stream(RANDOM_PLAYER, rng_seed))

    def settings(self) -> dict[str, Any]:
        return {"rng_seed": self.rng_seed}

    def choose(self, view: View) -> Hashable:
        if len(view.moves) == 1:
            return view.moves[0]
        return view.moves[self.draw.below(len(view.moves))]


class CarefulPlayer:
    """The careful beginner: the first move of :func:`careful_order`. No search, no chance."""

    name: ClassVar[str] = "careful"
    #: The states its searches expanded, as a searching player counts them: none, it searches nothing.
    nodes: ClassVar[int] = 0

    def settings(self) -> dict[str, Any]:
        return {}

    def choose(self, view: View) -> Hashable:
        return careful_order(view)[0]


#: The states each search of one order may expand (a node count, not seconds, so that a game
#: is the same on any machine); an order it leaves undecided counts as half a win.
ORDER_NODES = 20_000
#: The player's searches never restart (a restart's order comes from each engine's own hash):
#: so a node limit cuts the same searches, and a game is the same, on both engines.
NO_RESTARTS = None
#: The states of the search that plans the rest of a game once every card is known (one search
#: a game, where each order's above is one of thousands).
PLAN_NODES = 1_000_000
#: The most face-down cards for which the exact best chance is tried first...
EXACT_HIDDEN = 6
#: ...within this many states (else the sampled orders decide).
EXACT_NODES = 20_000


class OutOfBudget(Exception):
    """A player stopped mid-game: its searches have spent what it was given (``limit``:
    "budget", the states, or "max_seconds", the CPU clock's deadline)."""

    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


class SamplingPlayer:
    """For each move, ``samples`` orders of the unseen cards, each solved with every card known;
    the move winning the most of them is played (the same orders for every move, drawn afresh
    each turn from a stream of the player's ``rng_seed`` keyed by the turn's number, counted
    from 0; ties go to :func:`careful_order`). Where few cards
    lie face down it plays by the exact best chance instead, and with one or none face down it
    plays the search's line (a win, or the best score). Given ``max_nodes``, it raises
    :class:`OutOfBudget` once its orders' searches have expanded that many states in all, and
    given ``deadline`` once the CPU clock passes it (a game it cannot afford is stopped as soon
    as that is known: solver.playouts)."""

    name: ClassVar[str] = "sampling"
    #: The most face-down cards, and the states, of its switch to the exact chance.
    exact_hidden: ClassVar[int] = EXACT_HIDDEN
    exact_nodes: ClassVar[int] = EXACT_NODES

    def __init__(
        self, samples: int, rng_seed: int, max_nodes: int | None = None, *, deadline: float | None = None
    ) -> None:
        self.samples, self.rng_seed, self.max_nodes, self.deadline = samples, rng_seed, max_nodes, deadline
        self.turn = -1  # the number of the turn being played
        self.nodes = 0  # the states its searches have expanded so far (what its games cost)
        self.plan: list[Hashable] = []
        self.planned_from: Any = None

    def settings(self) -> dict[str, Any]:
        return {"samples": self.samples, "rng_seed": self.rng_seed}

    def choose(self, view: View) -> Hashable:
        self.turn += 1
        if len(view.moves) == 1:
            return view.moves[0]
        ranked = careful_order(view)
        if view.position.hidden <= 1:  # every card known: the search's line, else the careful move
            planned = self._planned(view)
            return ranked[0] if planned is None else planned
        if view.position.hidden <= self.exact_hidden:
            exact = self._by_chance(view, ranked)
            if exact is not None:
                return exact
        return self._by_orders(view, ranked)

    def _limits(self, nodes: int) -> Limits:
        """A search's limits: ``nodes`` states, and the time left before the deadline (where one
        was given; past it, :class:`OutOfBudget`)."""
        if self.deadline is None:
            return Limits(max_nodes=nodes)
        left = self.deadline - time.process_time()
        if left <= 0:
            raise OutOfBudget("max_seconds")
        return Limits(max_nodes=nodes, max_seconds=left)

    def _planned(self, view: View) -> Hashable | None:
        """The next move of the search's line (every card known, the last face-down one being
        the one card left): a win, else the best score found (the best there is, unless
        PLAN_NODES cut the search); None where the line's move is not offered."""
        state = view.position.state
        if self.planned_from != state or not self.plan or self.plan[0] not in view.moves:
            found = view.engine.depth_first(state, limits=self._limits(PLAN_NODES), restart_nodes=NO_RESTARTS)
            self.nodes += found.stats.nodes
            self.plan = list(found.best_line)
            if not self.plan or self.plan[0] not in view.moves:
                self.plan = []
                return None
        move = self.plan.pop(0)
        self.planned_from = view.rules.apply(state, move)
        return move

    def _by_chance(self, view: View, ranked: list[Hashable]) -> Hashable | None:
        """The move with the best exact chance, or None where the search did not finish."""
        found = view.engine.best_chance(
            view.position, limits=self._limits(self.exact_nodes), with_moves=True, restart_nodes=NO_RESTARTS
        )
        self.nodes += found.stats.nodes
        if found.chance is None:
            return None
        chances = dict(found.moves)
        return max(ranked, key=lambda move: chances[move] or 0.0)  # max keeps the first of equals

    def _by_orders(self, view: View, ranked: list[Hashable]) -> Hashable:
        """The move that wins the most of the drawn orders (an undecided one counts half). Moves
        that lead to the same position as far as the player knows it are judged once, and the
        wins counted are not replayed through the rules: they only rank the player's choices
        (its game is replayed as a whole), and the replay cost Thirteens 86% of its CPU."""
        seed = stream(SAMPLING_PLAYER, self.rng_seed, self.turn)
        best, most = ranked[0], -1
        judged: set[bytes] = set()
        for move in ranked:
            if not turned_up(view.rules, view.position, move):
                after = _key(view.rules, Concealed(view.rules.apply(view.position.state, move), view.position.hidden))
                if after in judged:  # the same tally as a move judged before, which came first
                    continue
                judged.add(after)
            worth, every = self._worth(view, view.position, move, seed=seed)
            if worth > most:
                best, most = move, worth
                if every:  # every order won: no move does better
                    break
        return best

    def _worth(self, view: View, position: Concealed, move: Hashable, *, seed: int) -> tuple[int, bool]:
        """Twice the drawn orders that ``move`` from ``position`` leaves winnable, plus those left
        undecided, and whether it won every one; the states searched are counted against the
        budget (:class:`OutOfBudget` once it is spent)."""
        room = None if self.max_nodes is None else self.max_nodes - self.nodes
        sampled = view.engine.clairvoyant(
            position,
            drawn=orders(unseen(view.rules, position), self.samples, seed),
            targets=(move,),
            limits=self._limits(ORDER_NODES),
            restart_nodes=NO_RESTARTS,
            referee=False,
            budget=room,
        )
        self.nodes += sampled.nodes
        if sampled.limit is not None:
            raise OutOfBudget(sampled.limit)
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfBudget("budget")
        (tally,) = sampled.tallies
        return 2 * tally.won + tally.unknown, tally.won == sum(tally)


#: The most positions the turn player follows a turn's lines to before it judges single moves
#: as the sampling player does (a turn of Amazons' depot moves can reach thousands).
TURN_POSITIONS = 256


class End(NamedTuple):
    """Where a line of moves that turns up no card may end a turn: the moves from the turn's
    position, the position they reach, and the move that then turns up a card (None where the
    line wins, or where no move is left)."""

    line: tuple[Hashable, ...]
    position: Concealed
    reveal: Hashable | None


class TurnPlayer(SamplingPlayer):
    """The sampling player judging whole turns instead of single moves: every line of moves that
    turns up no card, to each position from which a card may be turned up, is judged as one
    choice on the same drawn orders, and the best line is played through to the card it turns
    up. The sampling player judges a move as if, after it, the turn's later choices could each
    be made knowing the order (strategy fusion): here every choice made before the next card is
    seen is made once for all orders. From the next card on, the orders' searches still see
    ahead; where few cards lie face down both play by the exact chance."""

    name: ClassVar[str] = "turns"
    exact_hidden: ClassVar[int] = 8
    exact_nodes: ClassVar[int] = 1_000_000

    def __init__(
        self, samples: int, rng_seed: int, max_nodes: int | None = None, *, deadline: float | None = None
    ) -> None:
        super().__init__(samples, rng_seed, max_nodes, deadline=deadline)
        self.line: list[Hashable] = []
        self.line_at: bytes = b""  # the position where the line's next move is played

    def _by_orders(self, view: View, ranked: list[Hashable]) -> Hashable:
        here = _key(view.rules, view.position)
        if not (self.line and self.line_at == here and self.line[0] in view.moves):
            ends = _turn_ends(view)
            if not ends:  # too many positions (or, in no game here, no end at all)
                return super()._by_orders(view, ranked)
            self.line = list(self._best(view, ends).line)
        move = self.line.pop(0)
        if not turned_up(view.rules, view.position, move):
            after = Concealed(view.rules.apply(view.position.state, move), view.position.hidden)
            self.line_at = _key(view.rules, after)
        return move

    def _best(self, view: View, ends: list[End]) -> End:
        """The end whose card, turned up, leaves the most drawn orders winnable (a won end first;
        ties to the end that clears most, then to the shortest line)."""
        seed = stream(SAMPLING_PLAYER, self.rng_seed, self.turn)
        rules = view.rules
        ends.sort(key=lambda end: (rules.score(end.position.state), len(end.line)))
        best, most = ends[0], -1
        for end in ends:
            if end.reveal is None:
                if rules.is_won(end.position.state):
                    return end
                continue  # no move left: lost
            worth, every = self._worth(view, end.position, end.reveal, seed=seed)
            if worth > most:
                best, most = end, worth
                if every:
                    break
        return best


def _turn_ends(view: View) -> list[End] | None:
    """Every end of the turn (:class:`End`), one for each position the turn's lines reach
    (reached once, by its first line found), or None past TURN_POSITIONS positions."""
    rules = view.rules
    ends: list[End] = []
    stack: list[tuple[Concealed, tuple[Hashable, ...]]] = [(view.position, ())]
    reached = {_key(rules, view.position)}
    while stack:
        position, line = stack.pop()
        moves = view.moves if not line else tuple(rules.moves(position.state))
        for move in moves:
            if turned_up(rules, position, move):
                ends.append(End((*line, move), position, move))
                continue
            after = Concealed(rules.apply(position.state, move), position.hidden)
            key = _key(rules, after)
            if key in reached:
                continue
            reached.add(key)
            if len(reached) > TURN_POSITIONS:
                return None
            if rules.is_won(after.state):
                ends.append(End((*line, move), after, None))
            else:
                stack.append((after, (*line, move)))
        if not moves and line:
            ends.append(End(line, position, None))
    return ends


#: The players whose choices come from searches (a record names the engine they ran on).
SEARCHING = frozenset({SamplingPlayer.name, TurnPlayer.name})

#: The players ``--player`` names, and how each is made from ``--samples`` and ``--rng-seed``.
PLAYERS: dict[str, Any] = {
    RandomPlayer.name: lambda samples, rng_seed: RandomPlayer(rng_seed),
    CarefulPlayer.name: lambda samples, rng_seed: CarefulPlayer(),
    SamplingPlayer.name: SamplingPlayer,
    TurnPlayer.name: TurnPlayer,
}
