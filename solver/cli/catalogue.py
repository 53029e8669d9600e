"""The commands about the games themselves, which search nothing: games, describe and deal."""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import format_cards
from solver.cli.options import GAME, RULES, SEED, Command, switch


def games(*, as_json: bool = False) -> None:
    """List the games and their variants."""
    from solver.service.catalogue import games as listed  # the registry: no ruleset is imported

    if as_json:
        import json

        print(json.dumps([game.record() for game in listed()]))
        return
    found = listed()
    column = max(len(game.name) for game in found) + 2
    for game in found:
        print(game.text(column))


def describe(*, game: str, as_json: bool = False) -> None:
    """Explain a game's rules, its notation (an example position and its moves), options (with
    defaults) and variants."""
    from solver.service.catalogue import describe as described

    found = described(game)
    if as_json:
        import json

        print(json.dumps(found.record()))
        return
    print(found)


def deal(
    *, game: str, seed: int, variant: str | None = None, option: Sequence[str] = (), as_seen: bool = False
) -> None:
    """Print the deal of a seeded game, first dealt first; with --as-seen, its opening position
    as the player sees it (the stock face down, in braces)."""
    from solver.service.setup import Setup

    setup = Setup.of(game, variant, option)
    cards = setup.deal(seed=seed)
    if as_seen:
        from rulesets.concealed import write_seen

        print(write_seen(setup.family, setup.legal, setup.legal.start(cards)))
        return
    print(format_cards(cards))


COMMANDS = (
    Command("games", games, (switch("--json", "as_json", "Print the games as one JSON array."),)),
    Command("describe", describe, (GAME, switch("--json", "as_json", "Print the description as one JSON object."))),
    Command(
        "deal",
        deal,
        (
            GAME,
            SEED.but_required(),
            *RULES,
            switch(
                "--as-seen",
                "as_seen",
                "Print the opening position as the player sees it: the stock face down, its cards counted "
                "in braces (what 'solve --position' judges as a chance).",
            ),
        ),
    ),
)
