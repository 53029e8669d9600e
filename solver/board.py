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

from rulesets.cards import CARDS, NAME, Card
from solver.chance import Concealed
from solver.errors import MoveError
from solver.protocol import NO_SCORE

if TYPE_CHECKING:
    from solver.api import Solved
    from solver.api_face_down import ChanceHint, Chances
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
        start, self._cards = api.opening_of(self._setup, seed, deal, position=position)
        self._start = start.state
        self._seed = seed
        #: Each position reached, with how many cards of its stock lie face down (none unless
        #: the position given wrote some in braces).
        self._states: list[Concealed] = [start]
        #: Whether the position given wrote face-down cards (else every card is known here, and
        #: a player at the table would see the stock face down).
        self._given_hidden = bool(start.hidden)
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
        """The position as the rules hold it (an immutable value; face-down cards lie at the end
        of its stock in the order of their codes, not in an order anyone knows)."""
        return self._states[-1].state

    @property
    def position(self) -> str:
        """The position as one line (``patience solve --position`` takes it), face-down cards in
        braces (``stock: 2S {TS 9H}``)."""
        if not self._states[-1].hidden:
            return str(self._rules.write_position(self.state))
        from rulesets.concealed import write_concealed

        return write_concealed(self._rules, self._states[-1])

    @property
    def position_as_seen(self) -> str:
        """The position as the player at the table writes it: the stock's cards not yet dealt
        face down and counted (``stock: {38}``; those known from a position given stay known),
        and ``out:`` listing the cards that have left the table. ``Game(position=...)`` and
        ``patience solve --position`` read it back and judge the chance to win from it."""
        from rulesets.concealed import face_down_at_start, is_concealable, write_seen
        from solver.chance import left_face_down

        if not is_concealable(self._rules):
            return self.position
        hidden = self._states[-1].hidden
        if not self._given_hidden:  # the stock as a player sees it: the cards never turned up
            hidden = face_down_at_start(self._rules, self._start)
            for before, move in zip(self._states, self._played):
                hidden = left_face_down(self._rules, Concealed(before.state, hidden), move.value)
        return write_seen(self._setup.family, self._rules, self.state, hidden)

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards lying face down in the stock (empty where every card is known). The last
        one stays here until it is dealt, although it can then only be that card."""
        from solver.chance import unseen

        if not self._states[-1].hidden:
            return frozenset()
        return frozenset(CARDS[code] for code in unseen(self._rules, self._states[-1]))

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, first first (python-chess's ``move_stack``)."""
        return list(self._played)

    @property
    def legal_moves(self) -> list[Move]:
        """Every move the rules allow here, in the game's order (empty when the game is over)."""
        state = self.state
        if self._states[-1].hidden:  # a deal turning up face-down cards is written 'deal'
            from solver.service.chances import move_text

            return [Move(move_text(self._setup, self._states[-1], move), move) for move in self._rules.moves(state)]
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
        for ``T``), or a MoveError saying why it is none. A deal that turns up face-down cards
        is ``Move('deal')``, whether or not ``text`` names them (``deal 7H``)."""
        return self._read(text, None, named=False)[0]

    def play(self, move: Move | str, *, drawn: Sequence[Card | str] | None = None) -> Move:
        """Play ``move`` (a :class:`Move` of ``legal_moves``, or its text); returns it. An illegal
        move is refused (MoveError) and nothing changes.

        A move that turns up face-down cards needs every card it takes from the stock named, as
        the player saw them, the stock's known next cards first: ``deal 7H`` (``deal 7H 8C 9D 2S
        3H`` where one deal lays a card on each of five piles, left to right), or ``drawn=[...]``
        for a move that is no deal (a Thirteens discard refilling its places from the stock); the
        Move returned names them, as ``patience play`` records a deal."""
        text = move.text if isinstance(move, Move) else move
        played, turned = self._read(text, drawn)
        if isinstance(move, Move) and move.value != played.value:
            raise MoveError(f"move {move.text!r} is not legal in this position: {self.position}")
        if turned is None:
            after = self._states[-1]
            self._states.append(Concealed(self._rules.apply(after.state, played.value), after.hidden))
        else:
            played = self._turn_up(played.value, turned)
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

    def _read(
        self, text: str, drawn: Sequence[Card | str] | None, named: bool = True
    ) -> tuple[Move, tuple[int, ...] | None]:
        """The legal move written ``text`` and, where it turns up face-down cards, their codes
        in the order they come from the stock (named after ``deal`` or in ``drawn``; unless
        ``named``, they may go unnamed, and are then None)."""
        if not isinstance(text, str):
            from solver.errors import ArgumentTypeError

            raise ArgumentTypeError(f"a move must be a Move or its text, not {type(text).__name__}")
        if self._states[-1].hidden:
            return _read_face_down(self, text, drawn, needed=named)
        if drawn is not None:
            raise MoveError("drawn names cards turned up from a face-down stock, and none lies face down here")
        return self._legal(text), None

    def _legal(self, text: str) -> Move:
        """The legal move written ``text``, as the rules read it (or a deal naming the cards it
        takes from the stock, every one known, which must be those cards)."""
        from rulesets.dealt import read_move

        move = read_move(self._rules, self.state, text)
        self._check_legal(move, text)
        return Move(self._rules.describe_move(self.state, move), move)

    def _check_legal(self, move: Any, text: str) -> None:
        """A MoveError where ``move`` (written ``text``) is not legal here."""
        if move not in self._rules.moves(self.state):
            raise MoveError(f"move {text.strip()!r} is not legal in this position: {self.position}")

    def _turn_up(self, move: Any, turned: Sequence[int]) -> Move:
        """Play ``move``, which turns up the face-down cards ``turned`` in order: the position
        after it is added, and the move returned as a record writes it (a deal naming every card
        it took from the stock)."""
        from rulesets.dealt import named_deal
        from solver.chance import arranged, unseen

        position = self._states[-1]
        rest = [code for code in unseen(self._rules, position) if code not in turned]  # still sorted
        state = arranged(self._rules, position, [*turned, *rest])
        self._states.append(Concealed(self._rules.apply(state, move), position.hidden - len(turned)))
        return Move(named_deal(self._rules, state, move), move)

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
        samples: int | None = None,
        rng_seed: int | None = None,
    ) -> Solved | Chances:
        """Solve from where play stands (what :func:`solver.solve` answers of this position):
        while cards lie face down, its chance to win (``samples`` and ``rng_seed`` draw the
        stock's orders then, and go unused once every card is known)."""
        from solver import api
        from solver.service.setup import limits
        from solver.service.solving import solve_from

        api.check_limits(max_nodes, max_seconds, max_memory)
        api.check_sampling(samples, rng_seed)
        bounds = limits(max_nodes, max_seconds, str(max_memory))
        if self._states[-1].hidden:
            if fewest_redeals:
                from rulesets.family import OptionError

                raise OptionError(
                    "fewest_redeals needs every card known; a face-down stock has a chance to win, not a line"
                )
            from solver.api_face_down import Chances
            from solver.service.chances import judge

            return Chances.of(judge(self._setup, self._states[-1], bounds, samples=samples, rng_seed=rng_seed))
        fresh = not self._played  # from the deal itself: the record names its seed and cards
        outcome = solve_from(
            self._setup,
            self.state,
            bounds,
            seed=self._seed if fresh else None,
            deal=self._cards if fresh else None,
            least_cost=fewest_redeals,
        )
        return api.Solved(outcome)

    def hint(
        self,
        *,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        max_memory: int | str = "2G",
        samples: int | None = None,
        rng_seed: int | None = None,
    ) -> list[Hint] | list[ChanceHint]:
        """Every legal move here with what it leaves, best first (:func:`solver.hint`): while
        cards lie face down, each move's chance to win."""
        from solver import api
        from solver.service.hinting import hints
        from solver.service.setup import limits

        api.check_limits(max_nodes, max_seconds, max_memory)
        api.check_sampling(samples, rng_seed)
        bounds = limits(max_nodes, max_seconds, str(max_memory))
        if self._states[-1].hidden:
            from solver.api_face_down import chance_hints
            from solver.service.chances import judge

            position = self._states[-1]
            return chance_hints(
                judge(self._setup, position, bounds, samples=samples, rng_seed=rng_seed, with_moves=True)
            )
        return hints(self._setup, self.state, bounds)

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
        return frozenset(self._rules.touched(self._states[-2].state, self._played[-1].value))

    def _title(self) -> str:
        start = f", seed {self._seed}" if self._seed is not None else ""
        played = len(self._played)
        where = f"{played} move{'' if played == 1 else 's'} played"
        ending = "won" if self.is_won() else "over" if self.is_over() else "in play"
        score = "" if self.score is None else f", {self.score_label} {self.score}"
        return f"{self._setup.title()}{start}: {where}, {ending}{score}"


def _read_face_down(
    game: Game, text: str, drawn: Sequence[Card | str] | None, *, needed: bool
) -> tuple[Move, tuple[int, ...] | None]:
    """The legal move written ``text`` where cards lie face down, and the face-down cards it
    turns up (None where it turns up none, or, unless ``needed``, none are named). A move names
    every card it takes from the stock, next first, as a played game's record writes it (the
    known ones, then those turned up): after ``deal`` (``deal 7H``), else in ``drawn``; the last
    face-down card, the only one a move can then turn up, may go unnamed."""
    from rulesets.dealt import split_named, taken
    from solver.chance import turned_up, unseen

    position, rules = game._states[-1], game._rules
    value, written = split_named(rules, position.state, text)
    game._check_legal(value, text)
    count = turned_up(rules, position, value)
    if not count:
        if drawn is not None:
            raise MoveError(f"move {text.strip()!r} turns up no face-down card here: leave drawn out")
        return game._legal(text), None  # it takes known cards only, each one checked if named
    if written is not None and drawn is not None:
        raise MoveError(f"move {text.strip()!r} names the cards drawn, and so does drawn: name them once")
    from solver.service.chances import move_text

    move = Move(move_text(game._setup, position, value), value)  # 'deal': the cards are unknown
    hidden = unseen(rules, position)
    takes = taken(rules, position.state, value)  # the known cards first, then as many face down
    if written is None and drawn is None and (len(hidden) == 1 or not needed):
        return move, (hidden if len(hidden) == 1 else None)
    return move, _drawn_codes(text, written, drawn, takes=takes, hidden=hidden, count=count)


def _drawn_codes(
    text: str,
    written: tuple[int, ...] | None,
    drawn: Sequence[Card | str] | None,
    *,
    takes: tuple[int, ...],
    hidden: tuple[int, ...],
    count: int,
) -> tuple[int, ...]:
    """The ``count`` face-down cards the move ``text`` turns up, as it names them (``written``
    after ``deal``, else ``drawn``): every card it ``takes`` from the stock, the known ones first
    and in their order, then cards of the ``hidden`` ones, each once."""
    known = takes[: len(takes) - count]
    wanted = _what_it_takes(text, takes, known, hidden=hidden, count=count)
    if written is None and drawn is None:
        raise MoveError(f"move {text.strip()!r} {wanted}")
    if written is None:
        if isinstance(drawn, str) or not isinstance(drawn, Sequence):
            from solver.errors import ArgumentTypeError

            raise ArgumentTypeError(f"drawn must be a list of cards such as ['7H', '8C'], not {type(drawn).__name__}")
        written = tuple(_code(card, text) for card in drawn)
    if len(written) != len(takes):
        named = f"{len(written)} card{'' if len(written) == 1 else 's'}"
        raise MoveError(f"move {text.strip()!r} names {named}, and it {wanted}")
    if written[: len(known)] != known:
        raise MoveError(
            f"move {text.strip()!r}: the stock's next cards are {_names(known)}, known: name them first, "
            f"in that order, then the {count} drawn"
        )
    codes = written[len(known) :]
    twice = sorted({code for code in codes if codes.count(code) > 1})
    if twice:
        raise MoveError(f"move {text.strip()!r} names {_names(twice)} twice: name each card drawn once")
    seen = [code for code in codes if code not in hidden]
    if seen:
        raise MoveError(
            f"move {text.strip()!r}: {_names(seen)} {'is' if len(seen) == 1 else 'are'} not face down; "
            f"the face-down cards are {_names(hidden)}"
        )
    return codes


def _what_it_takes(
    text: str, takes: tuple[int, ...], known: tuple[int, ...], *, hidden: tuple[int, ...], count: int
) -> str:
    """What the move ``text`` takes from the stock and how to name it, for a message: ``turns up
    1 face-down card: name the card drawn, e.g. 'deal 7H'``."""
    from rulesets.notation import is_deal

    example = "'deal " + " ".join(NAME[code] for code in (*known, *hidden[:count])) + "'"
    how = f"e.g. {example}" if is_deal(text) else "with drawn=[...]"
    plural = "" if count == 1 else "s"
    takes_what = (
        f"turns up {count} face-down card{plural}"
        if not known
        else f"takes {len(takes)} cards from the stock ({_names(known)} known, then {count} face down)"
    )
    cards = (
        "the card drawn"
        if len(takes) == 1
        else f"the {len(takes)} cards {'it takes' if known else 'drawn'}, in the order they leave the stock"
    )
    return f"{takes_what}: name {cards}, {how}"


def _names(codes: Sequence[int]) -> str:
    """Cards by code, as a message names them: ``7H 8C``."""
    return " ".join(NAME[code] for code in codes)


def _code(card: Card | str, text: str) -> int:
    """A card named as drawn: a Card, or its name."""
    if isinstance(card, Card):
        return card.code
    if not isinstance(card, str):
        from solver.errors import ArgumentTypeError

        shown = type(card).__name__
        raise ArgumentTypeError(f"each card drawn must be a Card or a card's name such as '7H', not {shown}")
    from rulesets.notation import read_card

    return read_card(card, text)
