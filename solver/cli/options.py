"""How a command's arguments are declared (:class:`Argument`, :class:`Command`), and the arguments
several commands share: the game, its variant and options, where the deals come from, the limits.

Declarations only: :mod:`solver.cli.application` hands them to argparse. A command's defaults are
its function's own (keyword-only parameters), so they are written once.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pathlib import Path

#: How a flag's value is read: :func:`whole`, :func:`number`, :func:`path`; None keeps the text.
Reader = Callable[[str], Any]


#: The one way a number is written, whatever it counts (seeds, limits, sizes, jobs): the digits
#: 0-9, a leading minus at most (so that a negative one is refused by name, not as unreadable).
#: Python's ``int`` alone would also take ``1_000``, ``+5``, `` 5`` and other scripts' digits (``٣``).
WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
NUMBER = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?|-?(nan|inf|infinity)", re.ASCII | re.IGNORECASE)
#: More digits than any count this program takes (seeds run to 10**20, sizes to 2**63): read, such
#: a number met Python's limit of 4,300 digits or overflowed a float, an internal error.
MOST_DIGITS = 30


def whole(text: str) -> int:
    """A whole number written in the digits 0-9 (see :data:`WHOLE`), of at most
    :data:`MOST_DIGITS` digits."""
    if not WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number: write it in the digits 0-9")
    if len(text.lstrip("-")) > MOST_DIGITS:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is too large: no count here needs over {MOST_DIGITS} digits")
    return int(text)


def number(text: str) -> float:
    """A number such as ``2.5`` or ``1e3``, in the digits 0-9 (see :func:`whole`); ``nan`` and
    ``inf`` are read, to be refused by name as limits."""
    if not NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number: write it in the digits 0-9")
    return float(text)


def _shown(text: str) -> str:
    """A value as a message quotes it, cut if long."""
    return repr(text) if len(text) <= 40 else f"'{text[:20]}...' ({len(text)} characters)"


class Argument(NamedTuple):
    """One argument of a command: its flags (none for a positional argument), the parameter of the
    command's function it fills, its help, and how argparse reads it. (A named tuple, not a
    dataclass: making the two dataclasses of this module took 1.6 ms of every start, these 0.3.)"""

    flags: tuple[str, ...]
    dest: str
    help: str
    reader: Reader | None = None
    #: argparse's action: None stores the value (given once: :class:`Once`); "append" (repeatable),
    #: "store_true" (a switch), or an Action class such as :class:`OnceEither` (``--x/--no-x``).
    action: str | type[argparse.Action] | None = None
    required: bool = False
    nargs: str | None = None
    #: How the help names the value (argparse's own choice when None: the name, upper-cased for a flag).
    metavar: str | None = None
    #: The words the shell may complete this argument with (see ``application.complete``).
    #: Called with the arguments parsed so far (an ``argparse.Namespace``).
    completions: Callable[[argparse.Namespace], list[str]] | None = None

    def but_required(self) -> Argument:
        """The same argument, which the command cannot do without."""
        return self._replace(required=True)

    def add_to(self, parser: argparse.ArgumentParser, default: object) -> None:
        """Declare this argument to ``parser``; ``default``, the function's, is shown in its help."""
        shown = "" if default is None or isinstance(default, (bool, tuple)) else f"  [default: {default}]"
        # argparse expands % in help texts: a literal one is written %%.
        settings: dict[str, Any] = {"help": (self.help + shown).replace("%", "%%")}
        settings.update(action=Once if self.action is None else self.action)
        if self.action in (None, "append"):  # it takes a value
            settings.update(metavar=self.metavar, type=self.reader, nargs=self.nargs)
        if self.flags:
            action = parser.add_argument(*self.flags, dest=self.dest, required=self.required, **settings)
        else:
            action = parser.add_argument(self.dest, **settings)
        # argcomplete asks an action's ``completer`` attribute for the words that fit; without one
        # it offers file names, which only a file argument (read as a path, or a FILE) takes.
        if self.completions is not None:
            completions = self.completions
            action.completer = lambda parsed_args, **_: completions(parsed_args)  # type: ignore[attr-defined]
        elif self.action in (None, "append") and self.reader is not path and self.metavar != "FILE":
            action.completer = lambda **_: []  # type: ignore[attr-defined]


class Once(argparse.Action):
    """Store an argument's value, refusing a second: of ``--seed 7 --seed 8``, which was meant is
    not for the command to guess (argparse would keep the last without a word)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, *_: Any) -> None:
        if hasattr(namespace, self.dest):  # nothing has a default in the namespace (SUPPRESS)
            given = getattr(namespace, self.dest)
            raise argparse.ArgumentError(self, f"given twice ({given} and {values}): give it once")
        setattr(namespace, self.dest, values)


class OnceEither(argparse.BooleanOptionalAction):
    """``--x`` or ``--no-x``, refusing a second: of ``--progress --no-progress``, which was meant
    is not for the command to guess."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, *rest: Any) -> None:
        if hasattr(namespace, self.dest):  # nothing has a default in the namespace (SUPPRESS)
            raise argparse.ArgumentError(self, f"given twice: give {' or '.join(self.option_strings)} once")
        super().__call__(parser, namespace, *rest)


def switch(flag: str, dest: str, help: str) -> Argument:
    """A flag that takes no value: given, its parameter is True."""
    return Argument((flag,), dest, help, action="store_true")


class Command(NamedTuple):
    """A command: its name, the function that does it (keyword-only parameters named as the
    arguments' ``dest``, with their defaults), and its arguments. Its help is the function's
    docstring, its first paragraph the line ``patience --help`` lists it with."""

    name: str
    function: Callable[..., int | None]
    arguments: tuple[Argument, ...]


def path(text: str) -> Path:
    """A file named on the command line, read as a Path: pathlib is imported only then, as it
    (with urllib.parse and ipaddress, which it loads) took about 5.5 ms of every start of an
    installed (not editable) package."""
    from pathlib import Path

    if not text:  # Path("") is the current directory, which no option means
        raise argparse.ArgumentTypeError("'' is an empty file name: give a file name")
    return Path(text)


def file_name(text: str) -> str:
    """A file to write, kept as text: ``./-`` names a file called ``-`` (a Path would be ``-``,
    standard output)."""
    if not text:
        raise argparse.ArgumentTypeError("'' is an empty file name: give a file name")
    return text


def file_or_dash(text: str) -> str:
    """A file to read, or ``-`` for standard input, kept as text (the command opens it)."""
    if not text:
        raise argparse.ArgumentTypeError("'' is an empty file name: give a file name, or - for standard input")
    return text


def game_names(parsed: argparse.Namespace) -> list[str]:
    """Every game and variant name, for the shell to complete a game with."""
    from rulesets import DECLARED

    names = (name for games in DECLARED.values() for game, variants in games.items() for name in (game, *variants))
    return list(dict.fromkeys(names))


def _typed_game() -> str | None:
    """The game or variant name typed before the word being completed, if any (read from the
    line itself: see :func:`variant_names`)."""
    import os

    from rulesets import DECLARED
    from rulesets.names import normal_name

    typed = os.environ.get("COMP_LINE", "")[: int(os.environ.get("COMP_POINT", "0") or 0)].split()[:-1]
    names = {name for games in DECLARED.values() for game, variants in games.items() for name in (game, *variants)}
    return next((normal_name(word) for word in typed if normal_name(word) in names), None)


def option_settings(parsed: argparse.Namespace) -> list[str]:
    """Every ``name=value`` the game already typed takes (each option with each of its values),
    for the shell to complete ``--option`` with; every game's before a game is typed."""
    from rulesets import families, find_game

    typed = _typed_game()
    chosen = [find_game(typed)[0]] if typed else list(families().values())
    words = (
        f"{option.name}={option.spell(value)}"
        for family in chosen
        for option in family.options
        for value in option.choices
    )
    return list(dict.fromkeys(words))


def variant_names(parsed: argparse.Namespace) -> list[str]:
    """The variants of the game already typed (a variant name counts as its game), for the shell
    to complete ``--variant`` with; every variant before a game is typed. The game is looked for
    in the line being completed: argcomplete fills ``parsed`` only through the actions it knows
    to be harmless, and a sub-command's arguments reach it only once the whole line parses."""
    import os

    from rulesets import DECLARED

    typed = os.environ.get("COMP_LINE", "")[: int(os.environ.get("COMP_POINT", "0") or 0)].split()[:-1]
    for word in typed:
        for games in DECLARED.values():
            for game, variants in games.items():
                if word in (game, *variants):
                    return list(variants)
    return [variant for games in DECLARED.values() for variants in games.values() for variant in variants]


GAME = Argument((), "game", "A game or variant name.", completions=game_names)
VARIANT = Argument(
    ("-v", "--variant"), "variant", "A named preset of the game's options.", metavar="NAME", completions=variant_names
)
OPTIONS = Argument(
    ("-o", "--option"),
    "option",
    "Set one option: name=value (repeatable; 'patience describe GAME' lists them).",
    action="append",
    metavar="NAME=VALUE",
    completions=option_settings,
)
SEED = Argument(("-s", "--seed"), "seed", "PySolFC game number (1 to 10**20).", whole, metavar="N")
DEAL = Argument(
    ("-d", "--deal"),
    "deal",
    "The cards in deal order, e.g. 'AS 7H ...'; '-': read them from standard input.",
    metavar="CARDS",
)
FILE = Argument(
    ("-f", "--file"),
    "file",
    "A file of deals or positions: one per line, # comments; '-': standard input.",
    file_or_dash,
    metavar="FILE",
)
POSITION = Argument(
    ("-p", "--position"),
    "position",
    "A game in progress as one line: sections 'name: cards' separated by '|', piles by '/', "
    "'-' for none, e.g. 'row: AS 7H 9D'; each game's form, with an example: 'patience describe GAME'. "
    "For solve, hint and play, a face-down stock goes in braces: 'stock: {30}', as the player sees it.",
    metavar="POSITION",
)
MAX_NODES = Argument(
    ("--max-nodes",), "max_nodes", "Stop with 'unknown' after expanding this many states.", whole, metavar="N"
)
MAX_SECONDS = Argument(
    ("--max-seconds",), "max_seconds", "Stop with 'unknown' after this many CPU seconds.", number, metavar="SECONDS"
)
MAX_MEMORY = Argument(
    ("--max-memory",), "max_memory", "Memory bound of the transposition table (e.g. 500M, 2G).", metavar="SIZE"
)
PROGRESS = Argument(
    ("--progress",),
    "progress",
    "Show on stderr that a long search is alive: time so far and states (default: on a terminal, "
    "not under CI, not with --json).",
    action=OnceEither,
)


def player_names(_: Any = None) -> list[str]:
    """The players ``--player`` takes (for the shell's completion)."""
    from solver.players import PLAYERS

    return list(PLAYERS)


PLAYER = Argument(
    ("--player",),
    "player",
    "The player: random (a random legal move), careful (a beginner's rules), sampling "
    "(the move winning the most orders of the unseen cards, each solved) or turns (sampling "
    "whole turns: every line of moves up to the next card turned up).",
    metavar="NAME",
    completions=player_names,
)
SAMPLES = Argument(
    ("--samples",),
    "samples",
    "The orders of the unseen cards the sampling player draws for each move [default: 100].",
    whole,
    metavar="K",
)
RNG_SEED = Argument(
    ("--rng-seed",),
    "rng_seed",
    "The seed of the player's draws, and of the order of a --position's face-down cards (the same "
    "seed, the same game) [default: 1].",
    whole,
    metavar="N",
)
#: The rules and the limits, which every command that searches takes.
RULES = (VARIANT, OPTIONS)
LIMITS = (MAX_NODES, MAX_SECONDS, MAX_MEMORY)
