"""Rule modules, one per game family, plus cards, notation and deal generation.

:func:`families` is the registry the command line reads: every family and its variants.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from rulesets.family import Family, OptionError


@cache
def families() -> dict[str, Family]:
    """Every game family by name: each module of this package that declares ``FAMILIES``."""
    found: dict[str, Family] = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: (m.name != "accordion", m.name)):
        for family in getattr(importlib.import_module(f"{__name__}.{module.name}"), "FAMILIES", ()):
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
