"""Rule modules, one per game family, plus cards, notation and deal generation.

:func:`families` is the registry the command line reads: every family and its variants.
"""

from __future__ import annotations

import importlib

from rulesets.family import Family, OptionError

_MODULES = ("accordion",)


def families() -> dict[str, Family]:
    """Every game family by name, in the order they are listed to users."""
    found: dict[str, Family] = {}
    for module in _MODULES:
        for family in importlib.import_module(f"rulesets.{module}").FAMILIES:
            found[family.name] = family
    return found


def find_game(name: str) -> tuple[Family, str | None]:
    """The family called ``name``, or the family with a variant of that name and the variant."""
    known = families()
    if name in known:
        return known[name], None
    for family in known.values():
        if any(variant.name == name for variant in family.variants):
            return family, name
    raise OptionError(f"unknown game {name!r}; games: {', '.join(known)}")
