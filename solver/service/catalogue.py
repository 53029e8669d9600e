"""The games on offer, read from the registry alone (no ruleset is imported to list them), and
what each one is: its rules, options, variants and an example position, as text or as a record."""

from __future__ import annotations

from typing import Any, NamedTuple

from rulesets import DECLARED, SUMMARIES, find_game
from rulesets.family import Family


class GameInfo(NamedTuple):
    """A game as ``patience games`` lists it: its name, one-line summary and variants (the first
    of them the game's own rules)."""

    name: str
    summary: str
    variants: tuple[str, ...]

    def text(self, column: int = 0) -> str:
        """The game as ``patience games`` lists it, within 80 columns: its name, then from
        ``column`` on its summary and variants."""
        margin = " " * max(column, len(self.name) + 2)
        lines = [*filled(self.summary, margin), *filled(f"variants: {', '.join(self.variants)}", margin)]
        return self.name + lines[0][len(self.name) :] + "".join("\n" + line for line in lines[1:])

    def record(self) -> dict[str, Any]:
        """The game as ``patience games --json`` lists it."""
        return {"game": self.name, "summary": self.summary, "variants": list(self.variants)}


def filled(text: str, indent: str, after: str | None = None, *, width: int = 78) -> list[str]:
    """``text`` in lines of at most ``width`` columns, word by word (what textwrap does, without
    the 1 to 2 ms its import adds to ``patience games``)."""
    lines: list[str] = []
    line = indent
    for word in text.split():
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = (indent if after is None else after) + word
        else:
            line += (" " if line.strip() else "") + word
    return [*lines, line]


def games() -> list[GameInfo]:
    """Every game, in the order ``patience games`` lists them."""
    return [
        GameInfo(game, SUMMARIES[game], variants)
        for declared in DECLARED.values()
        for game, variants in declared.items()
    ]


class Description(NamedTuple):
    """What ``patience describe GAME`` says of a game: ``str()`` is its text, :meth:`record` the
    ``--json`` form; ``family`` the declaration itself (rules, options, variants)."""

    family: Family
    #: The variant asked for by name (None: the family itself), whose own rules open the text.
    variant: str | None = None

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def summary(self) -> str:
        return self.family.summary

    @property
    def rules(self) -> str:
        return self.family.rules

    @property
    def options(self) -> dict[str, Any]:
        """Each option's default, by name."""
        return {option.name: option.default for option in self.family.options}

    @property
    def variants(self) -> list[str]:
        return [variant.name for variant in self.family.variants]

    def record(self) -> dict[str, Any]:
        """The description as ``patience describe GAME --json`` prints it."""
        return self.family.record()

    def __str__(self) -> str:
        if self.variant is None or self.variant == self.family.name:
            return self.family.describe()
        return self.family.describe_variant(self.variant)

    def __repr__(self) -> str:
        return f"<Description of {self.name}: print() it for the rules>"


def describe(name: str) -> Description:
    """The game called ``name``, or whose variant it is (any case)."""
    family, variant = find_game(name)
    return Description(family, variant)
