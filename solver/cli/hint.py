"""The ``hint`` command: every legal move of a deal or position with what it leaves, best first.
Its services are imported when it runs (see :mod:`solver.cli.solve`)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from solver.cli.errors import UsageError
from solver.cli.options import DEAL, GAME, LIMITS, POSITION, RULES, SEED, Command, switch

if TYPE_CHECKING:
    from solver.service.hinting import Hint


def hint_command(
    *,
    game: str,
    seed: int | None = None,
    deal: str | None = None,
    position: str | None = None,
    variant: str | None = None,
    option: Sequence[str] = (),
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: str = "2G",
    as_json: bool = False,
) -> None:
    """Every legal move with what it leaves (won, lost or unknown, and the best score after it),
    best first. The limits apply to each move's search; a move cut by one says unknown."""
    import json

    from solver.cli.solve import Deals
    from solver.service.hinting import hints
    from solver.service.setup import Setup, limits

    setup = Setup.of(game, variant, option)
    bounds = limits(max_nodes, max_seconds, max_memory)
    if sum(value is not None for value in (seed, deal, position)) != 1:
        raise UsageError("give exactly one of --seed, --deal or --position")
    ((_, _, start, _),) = Deals(setup, seed, deal, None, position=position)
    found = hints(setup, start, bounds)
    text = setup.game.write_position(start)
    if as_json:
        record = {"game": setup.family.name, "variant": setup.variant, "position": text}
        print(json.dumps({**record, "moves": [h.record() for h in found]}))
        return
    print(f"{setup.family.name} ({setup.variant})")
    print(f"position: {text}")
    if not found:
        print(
            "the game is won: no move is left" if setup.game.is_won(start) else "no legal move: the game is over here"
        )
    width = max((len(h.move) for h in found), default=0)
    for number, found_hint in enumerate(found, 1):
        print(f"{number:3d}. {found_hint.move:<{width}}  {_verdict(found_hint, setup.family.score_label)}")


def _verdict(hint: "Hint", label: str) -> str:
    """What a move leaves, in words: the verdict, then the best score after it."""
    if hint.score is None:
        score = "no end of the game reached"
    else:
        score = f"{label} {hint.score}" + ("" if hint.score_proven else " (best found)")
    cut = f", limit {hint.limit} reached" if hint.limit else ""
    return f"{hint.result:<7} {score}{cut}"


COMMAND = Command(
    "hint",
    hint_command,
    (
        GAME,
        SEED,
        DEAL,
        POSITION,
        *RULES,
        *LIMITS,
        switch("--json", "as_json", "Print one JSON object with the moves in order."),
    ),
)
