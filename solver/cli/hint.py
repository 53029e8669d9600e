"""The ``hint`` command: every legal move of a deal or position with what it leaves, best first.
Its services are imported when it runs (see :mod:`solver.cli.solve`)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.cli.chances import FACE_DOWN, check_face_down, is_face_down, judge_command
from solver.cli.errors import print_whole
from solver.cli.options import DEAL, GAME, LIMITS, POSITION, PROGRESS, RULES, SEED, Command, switch

if TYPE_CHECKING:
    from solver.service.hinting import Hint
    from solver.service.setup import Setup


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
    progress: bool | None = None,
    samples: int | None = None,
    rng_seed: int | None = None,
) -> int | None:
    """Every legal move with what it leaves (won, lost or unknown, and the best score after it),
    best first. The limits apply to each move's search; a move cut by one says unknown."""
    from solver.cli.display import searching
    from solver.cli.sources import Deals, one_source
    from solver.service.hinting import hints
    from solver.service.setup import Setup, limits

    setup = Setup.of(game, variant, option)
    bounds = limits(max_nodes, max_seconds, max_memory)
    one_source({"--seed": seed, "--deal": deal, "--position": position})
    check_face_down(position, samples, rng_seed)
    if is_face_down(position):
        assert position is not None
        return judge_command(
            setup,
            position,
            bounds,
            samples=samples,
            rng_seed=rng_seed,
            as_json=as_json,
            show=False,
            with_moves=True,
            alive=searching(progress, as_json),
        )
    ((_, _, start, _),) = Deals(setup, seed, deal, file=None, position=position)
    with searching(progress, as_json)():
        found = hints(setup, start, bounds)
    _print_hints(setup, start, found, as_json=as_json)
    return None


def _print_hints(setup: "Setup", start: Any, found: "list[Hint]", *, as_json: bool) -> None:
    """The moves ``found`` from ``start``, printed as text (numbered, best first) or as the
    ``--json`` record; with no move left, how the game ended there, which no move's verdict tells."""
    import json

    rules, text = setup.game, setup.game.write_position(start)
    end = None if found else _end(rules.is_won(start), rules.score(start))
    if as_json:
        record = {
            "game": setup.family.name,
            "variant": setup.variant,
            "options": dict(setup.settings),
            "engine": setup.engine.name,
        }
        print_whole(json.dumps({**record, "position": text, "end": end, "moves": [h.record() for h in found]}))
        return
    lines = [setup.title(), f"position: {text}"]
    if end is not None:
        score = [] if end["score"] is None else [f"{setup.family.score_label} {end['score']}"]
        if end["result"] == "won":
            lines.append(f"the game is won: no move is left ({', '.join(score)})")
        else:
            lines.append(f"no legal move: the game is over here ({', '.join(['lost', *score])})")
    width = max((len(h.move) for h in found), default=0)
    for number, found_hint in enumerate(found, 1):
        lines.append(f"{number:3d}. {found_hint.move:<{width}}  {_verdict(found_hint, setup.family.score_label)}")
    print_whole("\n".join(lines))  # whole: a Ctrl-C while a slow reader drains it cuts none


def _end(won: bool, score: int) -> dict[str, Any]:
    """How a position with no move left ended: won or lost, and its score (None where the rules
    give it none)."""
    from solver.protocol import NO_SCORE

    return {"result": "won" if won else "lost", "score": None if score == NO_SCORE else score}


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
        PROGRESS,
        *FACE_DOWN,
    ),
)
