"""``solve`` and ``hint`` on a position whose stock lies face down: the chance to win with best
play, and the share of the stock's orders that can be won with every card known. Its services
are imported when it runs (see :mod:`solver.cli.solve`)."""

from typing import Any

from solver.cli.errors import UsageError, print_whole
from solver.cli.options import Argument, whole

SAMPLES = Argument(
    ("--samples",),
    "samples",
    "With a face-down stock: the orders of its cards drawn for 'clairvoyant' (every order is counted "
    "where there are no more) [default: 1000].",
    whole,
    metavar="N",
)
RNG_SEED = Argument(
    ("--rng-seed",),
    "rng_seed",
    "With a face-down stock: the seed of the orders' draw (the same seed, the same orders) [default: 1].",
    whole,
    metavar="N",
)
#: The options of a face-down stock, which solve and hint take.
FACE_DOWN = (SAMPLES, RNG_SEED)
RELAXED = Argument(
    ("--relaxed",),
    "relaxed",
    "With a face-down stock: also the information relaxation bound, an upper bound of the chance "
    "usually below the clairvoyant share, with V the exact chance within K face-down cards.",
    whole,
    metavar="K",
)


def is_face_down(position: str | None) -> bool:
    """Whether ``--position`` marks face-down cards."""
    from rulesets.concealed import is_face_down as marked

    return position is not None and marked(position)


def check_face_down(
    position: str | None, samples: int | None, rng_seed: int | None, *, relaxed: int | None = None
) -> None:
    """Refuse --samples, --rng-seed and --relaxed where no face-down stock is judged (they would
    do nothing)."""
    if is_face_down(position):
        if samples is not None and samples < 1:
            raise UsageError(f"--samples must be at least 1, not {samples}: e.g. --samples 1000")
        return
    for flag, value in (("--samples", samples), ("--rng-seed", rng_seed), ("--relaxed", relaxed)):
        if value is not None:
            raise UsageError(
                f"{flag} draws orders of a face-down stock, and no position with one was given: write its "
                "face-down cards in braces, e.g. --position '... | stock: {30}', or leave it out"
            )


def refuse_lines(given: dict[str, object]) -> None:
    """Refuse the options of ``solve`` that answer with a line (a replay page, the fewest
    redeals, a verdict's exit code): a face-down stock has a chance to win, not a line."""
    for flag, value in given.items():
        if value:
            raise UsageError(f"{flag} needs every card known; a face-down stock has a chance to win, not a line")


def judge_command(
    setup: Any,
    position: str,
    bounds: Any,
    *,
    samples: int | None,
    rng_seed: int | None,
    as_json: bool,
    show: bool,
    with_moves: bool,
    alive: Any,
    relaxed: int | None = None,
) -> int:
    """Judge one face-down position and print what it is worth (and, ``with_moves``, each move's)."""
    import json

    from solver.service.chances import judge, relaxed_text, worth_text

    concealed = setup.concealed(position)
    with alive():
        judged = judge(
            setup, concealed, bounds, samples=samples, rng_seed=rng_seed, with_moves=with_moves, relaxed_reach=relaxed
        )
    if as_json:
        record = judged.record()
        if with_moves:
            record["moves"] = [move.record() for move in judged.moves]
        print_whole(json.dumps(record))
        return 0
    record = judged.record()
    face_down = len(record["unseen"])
    lines = [setup.title(), f"position: {record['position']}"]
    if show:
        from rulesets.concealed import concealed_picture
        from solver.cli.display import SHOW_WIDTH

        picture = concealed_picture(setup.legal, concealed)
        lines += [f"       {line}" for line in picture.text(frozenset(), width=SHOW_WIDTH).splitlines()]
    lines.append(f"face down: {face_down} card{'' if face_down == 1 else 's'}, in an order nobody knows")
    lines += worth_text(judged.worth, judged.relaxed_bound()[2])
    lines += relaxed_text(judged)
    lines += _notes(judged, face_down)
    if with_moves and not judged.moves:
        lines.append("no legal move: the game is over here")
    for number, move in enumerate(judged.moves, 1):
        lines += [f"{number:3d}. {move.move}", f"       {_short(move.worth)}"]
    if judged.worth.limit != "budget":
        lines.append(f"nodes: {judged.nodes}, {judged.seconds:.3f} CPU seconds for the exact chance")
    print_whole("\n".join(lines))
    return 0


def _notes(judged: Any, face_down: int) -> list[str]:
    """Why a part of the answer is missing or short, and what would complete it."""
    worth, notes = judged.worth, []
    if worth.chance is None and worth.limit == "budget":
        reach = judged.parts.reach
        notes += [
            f"(the exact chance was not tried: {face_down} cards face down, more than the {reach} it",
            " answers within the default budget; give --max-seconds to try it)",
        ]
    elif worth.chance is None and worth.limit == "max_memory":
        notes.append("(the exact search filled --max-memory: raise it for the exact chance)")
    elif worth.chance is None:
        notes.append("(raise --max-seconds or --max-nodes for the exact chance)")
    if worth.orders_limit == "budget":
        notes += [
            "(the default budget was spent before every order asked for was searched;",
            " give --max-seconds for more)",
        ]
    elif worth.orders_limit is not None:
        notes.append(f"({worth.orders_limit} reached before every order asked for was searched)")
    return notes


def _short(worth: Any) -> str:
    """A move's worth on one line of a hint (within 80 columns under its move)."""
    from solver.service.chances import percent

    share, low, high = worth.clairvoyant()
    orders = f"{worth.orders:,} {'order' if worth.orders == 1 else 'orders'}"
    rate = worth.won_played()
    if worth.chance is None and rate is not None:
        seen = percent(share) if share is not None else f"{percent(low)} to {percent(high)}"
        won = f"{worth.played.won:,}" if rate[0] is None else percent(rate[0])
        bottom, top = worth.bracket()
        return (
            f"chance {percent(bottom)} to {percent(top)} (95%): played {won} of "
            f"{worth.played.games:,}, face up {seen} of {worth.orders:,}"
        )
    chance = "chance unknown" if worth.chance is None else f"chance {percent(worth.chance)}"
    if worth.every and share is not None:
        seen = f"face up {percent(share)} of {orders}"
    elif share is None:
        seen = f"face up {percent(low)} to {percent(high)} of {orders} (some undecided)"
    else:
        seen = f"face up {percent(share)} (95%: {percent(low)} to {percent(high)}) of {orders} drawn"
    return f"{chance}; {seen}"
