"""The ruleset registry: what it says each module declares is what the modules declare, and a
command about one game imports that game's module only."""

import importlib
import pkgutil
import subprocess
import sys

import pytest

import rulesets
from rulesets import DECLARED, SUMMARIES, families, find_game
from rulesets.family import OptionError


def test_the_registry_is_what_the_modules_declare():
    declaring = [
        m.name
        for m in pkgutil.iter_modules(rulesets.__path__)
        if hasattr(importlib.import_module(f"rulesets.{m.name}"), "FAMILIES")
    ]
    assert sorted(DECLARED) == sorted(declaring)
    for module, games in DECLARED.items():
        declared = importlib.import_module(f"rulesets.{module}").FAMILIES
        assert {family.name: tuple(v.name for v in family.variants) for family in declared} == games
        assert [family.name for family in declared] == list(games)
        assert {family.name: family.summary for family in declared} == {game: SUMMARIES[game] for game in games}
    assert list(SUMMARIES) == [game for games in DECLARED.values() for game in games]


def test_games_are_listed_accordion_first_and_found_by_game_or_variant_name():
    assert list(families())[0] == "accordion"
    for family in families().values():
        assert find_game(family.name) == (family, None)
        for variant in family.variants[1:]:
            assert find_game(variant.name) == (family, variant.name)


def test_an_unknown_game_names_every_game():
    with pytest.raises(
        OptionError, match="unknown game 'frobnicate'; games: accordion, amazons, baroness, thirteens, royal-marriage"
    ):
        find_game("frobnicate")


@pytest.mark.parametrize(
    "name, module", [("parlett", "accordion"), ("thirteens", "thirteens"), ("nizhni-novgorod", "royal_marriage")]
)
def test_finding_a_game_imports_its_module_only(name, module):
    others = sorted(f"rulesets.{m}" for m in DECLARED if m != module)
    code = f"import sys, rulesets; rulesets.find_game({name!r}); print([m for m in {others!r} if m in sys.modules])"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.strip() == "[]"
