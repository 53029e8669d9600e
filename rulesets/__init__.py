"""Rule modules, one per game family, plus cards, notation and deal generation.

:func:`families` is the registry the command line reads: every family and its variants.
:func:`find_game` imports only the module that declares the game asked for, so that a command
about one game does not load the others (``tests/test_registry.py`` holds :data:`DECLARED` to
what the modules declare).
"""

from __future__ import annotations

from rulesets.family import Family, OptionError
from rulesets.names import did_you_mean, normal_name

#: Each module that declares games (``FAMILIES``), in the order ``patience games`` lists them,
#: with the games it declares and each game's variants in their order.
DECLARED: dict[str, dict[str, tuple[str, ...]]] = {
    "accordion": {"accordion": ("accordion", "idle-year", "parlett", "self-working")},
    "amazons": {"amazons": ("amazons", "amazons-dick", "amazons-mms", "amazons-pysol")},
    "baroness": {"baroness": ("baroness", "baroness-classic", "baroness-pysol")},
    "thirteens": {"thirteens": ("thirteens",)},
    "royal_marriage": {
        "royal-marriage": ("royal-marriage",),
        "queen-and-her-lad": ("queen-and-her-lad",),
        "nizhni-novgorod": ("nizhni-novgorod",),
    },
}

#: Each game's one-line summary, as its family states it: ``patience games`` lists them without
#: importing every ruleset (about 40 ms, Baroness's dataclasses among it). The registry test holds
#: these to the families' own.
SUMMARIES: dict[str, str] = {
    "accordion": "merge piles onto a matching pile one or three to the left until one pile is left",
    "amazons": "28 cards dealt in fours onto four depots; each depot feeds only the foundation above it",
    "baroness": "discard Kings alone and pairs totalling 13 from the tops of five piles (Five Piles, Thirteen)",
    "thirteens": "discard Kings and pairs totalling 13 from ten places refilled from the stock (PySolFC 593)",
    "royal-marriage": "discard one or two cards between matching cards until only QH and KH remain",
    "queen-and-her-lad": "Royal Marriage ending with JH, discarding single cards or matching pairs",
    "nizhni-novgorod": "deal a row; discard the two inner cards of four whose outer cards match",
}


def _declared_in(module: str) -> dict[str, Family]:
    """The families ``rulesets.<module>`` declares, by name (importing it if it is not yet).
    ``__import__``, not ``importlib.import_module``: ``python -X importtime`` sees only the former."""
    return {family.name: family for family in __import__(f"{__name__}.{module}", fromlist=["FAMILIES"]).FAMILIES}


def families() -> dict[str, Family]:
    """Every game family by name, in :data:`DECLARED`'s order (this imports every ruleset)."""
    return {name: family for module in DECLARED for name, family in _declared_in(module).items()}


def find_game(name: str) -> tuple[Family, str | None]:
    """The family called ``name``, or the family with a variant of that name and the variant;
    names are matched whatever their case (``Accordion``, ``PARLETT``), with ``_`` for ``-``."""
    wanted = normal_name(name)
    for module, games in DECLARED.items():
        if wanted in games:
            return _declared_in(module)[wanted], None
    for module, games in DECLARED.items():
        for game, variants in games.items():
            if wanted in variants:
                return _declared_in(module)[game], wanted
    known = [game for games in DECLARED.values() for game in games]
    everything = [name for games in DECLARED.values() for game, variants in games.items() for name in (game, *variants)]
    raise OptionError(f"unknown game {name!r}{did_you_mean(wanted, everything)}; games: {', '.join(known)}")
