"""What every ruleset module declares: its options, named variants (presets), deck and deals."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from rulesets.cards import Card
from rulesets.deals import FULL_RANKS, deck, seeded_deal
from rulesets.names import did_you_mean, normal_name
from rulesets.picture import Picture
from solver.errors import OptionError
from solver.protocol import GameRules

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


class Ruleset(GameRules[State, Move], Protocol):
    """A game with its options fixed: the search protocol plus what people read and write."""

    def start(self, deal: Sequence[Card]) -> State:
        """The opening state for a checked deal (first dealt first)."""
        ...

    def describe_move(self, state: State, move: Move) -> str:
        """The move in the game's notation, e.g. ``4D -> 4S (leap)``; :meth:`parse_move` reads it back."""
        ...

    def parse_move(self, state: State, text: str) -> Move:
        """The move written as ``text`` in ``state``; raises MoveError if it cannot be read."""
        ...

    def picture(self, state: State) -> Picture:
        """The layout as players see it (see :mod:`rulesets.picture`), for ``--show`` and replays."""
        ...

    def touched(self, state: State, move: Move) -> frozenset[str]:
        """The labels (as :meth:`picture` names them) of the places ``move``, played in
        ``state``, changes: the moving card's destination and the places it came from."""
        ...

    def write_position(self, state: State) -> str:
        """The position as one line of text (see :mod:`rulesets.notation`); :meth:`read_position`
        reads it back to an equal state."""
        ...

    def read_position(self, text: str) -> State:
        """The state written as ``text``; raises PositionError naming what is wrong if it cannot
        be read or no play of the game could hold it."""
        ...


#: The widest line :meth:`Family.describe` writes (but an example position, kept whole), so
#: that it reads in an 80-column terminal.
WIDTH = 78
#: The PySolFC deal whose opening :meth:`Family.describe` shows as an example.
EXAMPLE_SEED = 1

_TRUE = {"yes", "true", "on", "1", "y"}
_FALSE = {"no", "false", "off", "0", "n"}
#: Stands for an option a preset does not have (so that no value equals it).
_UNSET = object()


def spell(value: Any) -> str:
    """An option value as a user writes it (booleans as yes/no), the form :meth:`Option.parse` reads."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Option(NamedTuple):
    """One rule option: its default, the values it takes, and what it means in plain words."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = (False, True)

    def parse(self, text: str) -> Any:
        """The value written as ``text``; booleans read yes/no, true/false, on/off, 1/0."""
        word = text.strip().lower()
        if isinstance(self.default, bool):
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
        else:
            for choice in self.choices:
                if word == str(choice).lower():
                    return choice
        raise OptionError(f"option {self.name} does not take {text!r}; it takes {self.spell_choices()}")

    def spell(self, value: Any) -> str:
        """The value as a user writes it."""
        return spell(value)

    def spell_choices(self) -> str:
        return ", ".join(self.spell(choice) for choice in self.choices)


class Costs(NamedTuple):
    """What a preset with a stock was measured to cost on the compiled core, which turns the
    default budget of a face-down answer into counts that the same command spends alike on any
    machine (solver/service/budget.py; ``python benchmarks/face_down.py`` measures each figure,
    its columns named below, and docs/face-down.md gives the runs)."""

    #: States its full-information searches expand a CPU second (column "states/s").
    search_rate: int
    #: CPU microseconds a move played costs beyond any search (column "us/move").
    move_us: int
    #: The most face-down cards whose exact chance answered within a CPU second ("exact in 1 s").
    exact_reach: int
    #: States its information relaxation walk expands a CPU second (column "relaxed/s").
    walk_rate: int


class Variant(NamedTuple):
    """A named preset of option values (the options it does not name keep their defaults; a
    family's first variant, its default rules, usually names none: ``{}``), and, for a game with
    a stock, what its face-down answers were measured to cost (options beyond the preset take
    the preset's)."""

    name: str
    summary: str
    settings: Mapping[str, Any]
    costs: Costs | None = None


class Family(NamedTuple):
    """A game family: the ruleset builder, its options and variants, its deck and seeded deals.

    ``score_field`` names the score in JSON output (``min_piles``, ``min_cards_left``);
    ``win_score`` is a win's score, the lowest the game allows (no score is lower, and a state
    scoring it is won): 0 cards left, Accordion's 1 pile, Royal Marriage's 2 end cards;
    ``threshold`` names a traditional scoring that counts a score at or below it as a win.
    """

    name: str
    summary: str
    rules: str
    options: tuple[Option, ...]
    variants: tuple[Variant, ...]
    build: Callable[[Mapping[str, Any]], Ruleset[Any, Any]]
    score_field: str = "min_cards_left"
    score_label: str = "cards left"
    win_score: int = 0
    threshold: tuple[str, int] | None = None
    ranks: tuple[int, ...] = FULL_RANKS
    arrange: Callable[[list[Card]], list[Card]] = list
    #: The ruleset whose moves are every move the rules allow, for what a player is told or held
    #: to (hints, verify), where ``build``'s move lists leave out moves a sound reduction proves
    #: needless to search (Baroness and Thirteens: an available King first, say); None where
    #: ``build``'s moves are every legal move.
    build_legal: Callable[[Mapping[str, Any]], Ruleset[Any, Any]] | None = None

    def deck(self) -> list[Card]:
        return deck(self.ranks)

    def seeded_deal(self, seed: int) -> list[Card]:
        """PySolFC's deal number ``seed`` for this game, as the game lays it out."""
        return self.arrange(seeded_deal(seed, self.ranks))

    def variant(self, name: str | None) -> Variant:
        """The variant called ``name`` (whatever its case), or the default rules for None."""
        if name is None:
            return self.variants[0]
        for variant in self.variants:
            if variant.name == normal_name(name):
                return variant
        names = [v.name for v in self.variants]
        hint = did_you_mean(normal_name(name), names)
        raise OptionError(f"unknown variant {name!r} of {self.name}{hint}; variants: {', '.join(names)}")

    def settings(self, variant: str | None = None, overrides: Sequence[str] = ()) -> dict[str, Any]:
        """Option values: defaults, then the variant's preset, then ``name=value`` overrides."""
        options = {option.name: option for option in self.options}
        values = {option.name: option.default for option in self.options}
        values.update(self.variant(variant).settings)
        given: set[str] = set()
        for text in overrides:
            name, sep, value = text.partition("=")
            name = name.strip().lower().replace("-", "_")
            if not sep:
                raise OptionError(f"option {text!r} is not of the form name=value")
            if name not in options:
                known = ", ".join(options) or "none"
                hint = did_you_mean(name, list(options))
                raise OptionError(f"unknown option {name!r} of {self.name}{hint}; options: {known}")
            if name in given:
                raise OptionError(f"option {name} is given twice: give it once")
            given.add(name)
            values[name] = options[name].parse(value)
        return values

    def beyond(self, variant: str | None, settings: Mapping[str, Any]) -> list[str]:
        """The values of ``settings`` set apart from ``variant``'s preset, each written
        ``name=value`` as ``--option`` takes it: how a printout or a comparison of surveys names
        rules that are not exactly a variant's."""
        preset = self.settings(variant)
        return [f"{name}={spell(value)}" for name, value in settings.items() if preset.get(name, _UNSET) != value]

    def describe(self) -> str:
        """The rules, an example position with its moves, options with defaults, and variants in
        plain words, every line within :data:`WIDTH` columns but the example position (kept whole,
        to be pasted back)."""
        import textwrap  # only `describe` wraps text: its patterns cost 1 to 2 ms of every other start

        def fill(text: str, indent: str = "", after: str = "") -> str:
            return textwrap.fill(
                text, WIDTH, initial_indent=indent, subsequent_indent=after or indent, break_on_hyphens=False
            )

        position, moves = self.example()
        lines = [fill(f"{self.name}: {self.summary}", after="    "), "", self.rules, ""]
        lines.append(
            fill(
                f"Example: the opening of PySolFC deal {EXAMPLE_SEED} as a position (--position), "
                "then the moves it allows:"
            )
        )
        lines += [f"  position: {position}", fill(", ".join(moves), "  moves: ", " " * 9), ""]
        if self.options:
            lines.append("Options (--option name=value):")
            for option in self.options:
                text = (
                    f"{option.name} (default {option.spell(option.default)}; {option.spell_choices()}): {option.help}"
                )
                lines.append(fill(text, "  ", "      "))
            lines.append("")
        lines.append("Variants (--variant NAME):")
        for variant in self.variants:
            preset = ", ".join(f"{k}={self.option(k).spell(v)}" for k, v in variant.settings.items())
            text = f"{variant.name}: {variant.summary}" + (f" [{preset}]" if preset else "")
            lines.append(fill(text, "  ", "      "))
        return "\n".join(lines)

    def describe_variant(self, name: str) -> str:
        """:meth:`describe` opened by the variant ``name``'s own rules: what it is and what each
        option it sets means, so that ``describe parlett`` starts with Parlett's game, not only
        with the family's."""
        import textwrap

        variant = next(variant for variant in self.variants if variant.name == name)
        head = [textwrap.fill(f"{name}: {variant.summary}, a variant of {self.name}", WIDTH, subsequent_indent="    ")]
        if variant.settings:
            head.append("Its rules are the family's below, with these options set:")
            for key, value in variant.settings.items():
                option = self.option(key)
                text = f"{key}={option.spell(value)}: {option.help}"
                head.append(textwrap.fill(text, WIDTH, initial_indent="  ", subsequent_indent="      "))
        else:
            head.append(f"Its rules are the family's own, below ({self.name}'s defaults).")
        return "\n".join(head) + "\n\n" + self.describe()

    def example(self, seed: int = 0) -> tuple[str, list[str]]:
        """The opening of PySolFC deal ``seed`` (:data:`EXAMPLE_SEED` if 0) under the default rules,
        as a position, and every legal move there in the notation (built from the rules, so an
        example never goes stale)."""
        settings = self.settings()
        rules = self.build(settings) if self.build_legal is None else self.build_legal(settings)
        start = rules.start(self.seeded_deal(seed or EXAMPLE_SEED))
        return rules.write_position(start), [rules.describe_move(start, move) for move in rules.moves(start)]

    def record(self) -> dict[str, Any]:
        """What :meth:`describe` says, as ``patience describe --json`` prints it."""
        position, moves = self.example()
        return {
            "game": self.name,
            "summary": self.summary,
            "rules": self.rules,
            "options": [
                {"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help} for o in self.options
            ],
            "variants": [{"name": v.name, "summary": v.summary, "settings": dict(v.settings)} for v in self.variants],
            "score": {"field": self.score_field, "label": self.score_label},
            "threshold": None if self.threshold is None else {"name": self.threshold[0], "at_most": self.threshold[1]},
            "example": {"seed": EXAMPLE_SEED, "position": position, "moves": moves},
        }

    def option(self, name: str) -> Option:
        return next(option for option in self.options if option.name == name)
