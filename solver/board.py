"""A game to play from Python, move by move, as python-chess's Board is for chess:

    >>> import solver
    >>> game = solver.Game("baroness", seed=3)
    >>> game.legal_moves
    [Move('discard KC'), Move('discard 6S+7H')]
    >>> game.play("discard KC")
    Move('discard KC')
    >>> game.position[:40]
    'piles: - / 2D / QC / 7H / 6S | grace: - '
    >>> game.undo()
    Move('discard KC')
    >>> game.solve().result
    'lost'

A :class:`Game` holds the rules (a game or variant name and options), where play started and
the moves played since; it lists every legal move (the rules' own, not only those the search
tries), plays and takes back moves, and asks the same services as ``patience solve`` and
``patience hint`` (so the same engine) about the position it has reached. Moves are
:class:`Move` objects that print in the game's notation and are read back from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulesets.cards import Card
from solver.errors import MoveError
from solver.protocol import NO_SCORE

if TYPE_CHECKING:
    from solver.api import Solved
    from solver.service.hinting import Hint


class Move:
    """A move of a game in the position it was listed in: ``str(move)`` is its notation
    (``discard 6C+7D``, ``4D -> 4S (leap)``, ``deal``), which :meth:`Game.parse_move` and
    :meth:`Game.play` read back. Moves are equal when they do the same thing (the rules' own
    value), as python-chess's are."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: Any) -> None:
        self.text = text
        #: The move as the rules hold it (a game's own small immutable value).
        self.value = value

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.text, self.value) == (other.text, other.value)

    def __hash__(self) -> int:
        return hash((self.text, self.value))


class Game:
    """A game in play: ``Game(name, seed=N | deal=... | position=..., variant=, options={...})``.

    ``legal_moves`` lists what may be played; :meth:`play` and :meth:`undo` move on and back;
    ``position``, :meth:`is_over`, :meth:`is_won` and ``score`` say where play stands;
    :meth:`solve` and :meth:`hint` search from there; ``str(game)`` draws the table as text and
    a notebook shows it as the replay page draws it."""

    def __init__(
        self,
        game: str,
        *,
        seed: int | None = None,
        deal: str | Sequence[Card | str] | None = None,
        position: str | None = None,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        from solver import api

        api.check_rules(game, variant, options)
        self._setup = api.setup_of(game, variant, options)
        self._start, self._cards = api.start_of(self._setup, seed, deal, position)
        self._seed = seed
        self._states: list[Any] = [self._start]
        self._played: list[Move] = []

    # --- what the game is ------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The game family's name (``accordion`` for ``parlett`` too)."""
        return self._setup.family.name

    @property
    def variant(self) -> str:
        return self._setup.variant

    @property
    def options(self) -> dict[str, Any]:
        """Every option's value in force."""
        return dict(self._setup.settings)

    @property
    def seed(self) -> int | None:
        """PySolFC's deal number play started from, or None (a deal given, or a position)."""
        return self._seed

    # --- where play stands -------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The position as the rules hold it (an immutable value)."""
        return self._states[-1]

    @property
    def position(self) -> str:
        """The position as one line (``patience solve --position`` takes it)."""
        return str(self._rules.write_position(self.state))

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, first first (python-chess's ``move_stack``)."""
        return list(self._played)

    @property
    def legal_moves(self) -> list[Move]:
        """Every move the rules allow here, in the game's order (empty when the game is over)."""
        state = self.state
        return [Move(self._rules.describe_move(state, move), move) for move in self._rules.moves(state)]

    def is_over(self) -> bool:
        """Whether no move is left."""
        return not self._rules.moves(self.state)

    def is_won(self) -> bool:
        return bool(self._rules.is_won(self.state))

    @property
    def score(self) -> int | None:
        """The score here (piles for Accordion, cards left for the others; lower is better), or
        None where the rules let no game end here."""
        score = self._rules.score(self.state)
        return None if score == NO_SCORE else int(score)

    @property
    def score_label(self) -> str:
        """What the score counts, in words (``piles``, ``cards left``)."""
        return self._setup.family.score_label

    # --- playing -----------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` here (as ``str(move)`` writes it; any case, ``10``
        for ``T``), or a MoveError saying why it is none."""
        if not isinstance(text, str):
            from solver.errors import ArgumentTypeError

            raise ArgumentTypeError(f"a move must be a Move or its text, not {type(text).__name__}")
        state = self.state
        move = self._rules.parse_move(state, text)
        if move not in self._rules.moves(state):
            raise MoveError(f"move {text.strip()!r} is not legal in this position: {self.position}")
        return Move(self._rules.describe_move(state, move), move)

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` of ``legal_moves``, or its text); returns it. An illegal
        move is refused (MoveError) and nothing changes."""
        played = self.parse_move(move.text if isinstance(move, Move) else move)
        if isinstance(move, Move) and move.value != played.value:
            raise MoveError(f"move {move.text!r} is not legal in this position: {self.position}")
        self._states.append(self._rules.apply(self.state, played.value))
        self._played.append(played)
        return played

    def undo(self) -> Move:
        """Take back the last move played, and return it; an IndexError when none was played."""
        if not self._played:
            raise IndexError("no move to undo: none was played")
        self._states.pop()
        return self._played.pop()

    def replay(self, line: Iterable[Move | str]) -> list[Move]:
        """Play every move of ``line`` in turn (a solution, or moves as text), and return them. A
        move that is not legal where it comes is refused (MoveError naming its number) and the
        game is left as it was before the line."""
        before = len(self._played)
        try:
            for number, move in enumerate(line, 1):
                try:
                    self.play(move)
                except MoveError as error:
                    raise MoveError(f"move {number} of the line: {error}") from None
        except BaseException:
            del self._states[before + 1 :], self._played[before:]
            raise
        return self._played[before:]

    def copy(self) -> Game:
        """An independent game at the same point, with the same moves played: a move played or
        taken back on either leaves the other where it was. ``copy.copy`` and ``copy.deepcopy``
        give one too."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__, _states=list(self._states), _played=list(self._played))
        return twin

    # copy.copy's own shallow copy would share the lists of positions and moves with the original.
    __copy__ = copy

    # --- asking the solver -------------------------------------------------------------------

    def solve(
        self,
        *,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        max_memory: int | str = "2G",
        fewest_redeals: bool = False,
    ) -> Solved:
        """Solve from where play stands (what :func:`solver.solve` answers of this position)."""
        from solver import api
        from solver.service.setup import limits
        from solver.service.solving import solve_from

        api.check_limits(max_nodes, max_seconds, max_memory)
        bounds = limits(max_nodes, max_seconds, str(max_memory))
        fresh = not self._played  # from the deal itself: the record names its seed and cards
        outcome = solve_from(
            self._setup,
            self.state,
            bounds,
            self._seed if fresh else None,
            self._cards if fresh else None,
            fewest_redeals,
        )
        return api.Solved(outcome)

    def hint(
        self, *, max_nodes: int | None = None, max_seconds: float | None = None, max_memory: int | str = "2G"
    ) -> list[Hint]:
        """Every legal move here with what it leaves, best first (:func:`solver.hint`)."""
        from solver import api
        from solver.service.hinting import hints
        from solver.service.setup import limits

        api.check_limits(max_nodes, max_seconds, max_memory)
        return hints(self._setup, self.state, limits(max_nodes, max_seconds, str(max_memory)))

    # --- pictures ------------------------------------------------------------------------------

    def picture(self) -> str:
        """The table as text, as ``patience solve --show`` draws it (the places the last move
        changed marked ``*``)."""
        return str(self._rules.picture(self.state).text(self._touched(), width=80))

    def _repr_html_(self) -> str:
        """The table as the replay page draws it (a notebook shows it inline), with the title and
        the position under it."""
        import html

        from solver.service.replay_page import board_html

        board = board_html(self._rules.picture(self.state), self._touched())
        caption = f"{html.escape(self._title())}<br><code>{html.escape(self.position)}</code>"
        style = "margin:0;font:14px/1.4 system-ui,sans-serif"
        return f'<figure style="{style}">{board}<figcaption>{caption}</figcaption></figure>'

    def __str__(self) -> str:
        return self.picture()

    def __repr__(self) -> str:
        return f"<Game {self._title()}>"

    # --- inside ----------------------------------------------------------------------------------

    @property
    def _rules(self) -> Any:
        """The ruleset listing every legal move (what a player is held to, as ``verify`` does)."""
        return self._setup.legal

    def _touched(self) -> frozenset[str]:
        if not self._played:
            return frozenset()
        return frozenset(self._rules.touched(self._states[-2], self._played[-1].value))

    def _title(self) -> str:
        start = f", seed {self._seed}" if self._seed is not None else ""
        played = len(self._played)
        where = f"{played} move{'' if played == 1 else 's'} played"
        ending = "won" if self.is_won() else "over" if self.is_over() else "in play"
        score = "" if self.score is None else f", {self.score_label} {self.score}"
        return f"{self._setup.title()}{start}: {where}, {ending}{score}"
