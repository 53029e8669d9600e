"""The ``play`` command: a player that cannot see the stock plays one deal or position to its end.
Its services are imported when it runs (see :mod:`solver.cli.solve`)."""

from collections.abc import Sequence
from typing import Any

from solver.cli.errors import print_whole
from solver.cli.options import DEAL, GAME, PLAYER, POSITION, RNG_SEED, RULES, SAMPLES, SEED, Command, switch


def play_command(
    *,
    game: str,
    player: str,
    seed: int | None = None,
    deal: str | None = None,
    position: str | None = None,
    variant: str | None = None,
    option: Sequence[str] = (),
    samples: int | None = None,
    rng_seed: int | None = None,
    as_json: bool = False,
    show: bool = False,
) -> int:
    """Play one game to its end, seeing only what a player at the table sees: the stock's cards
    are face down until dealt. The moves replay through 'verify' (a deal names the cards it
    turned up); the game ends won, or when no move is left that does not bring back a position
    already reached."""
    import json

    from solver.cli.chances import is_face_down
    from solver.cli.errors import UsageError
    from solver.cli.sources import Deals, one_source
    from solver.service.playing import dealt, make_player, placed, play
    from solver.service.setup import Setup

    one_source({"--seed": seed, "--deal": deal, "--position": position})
    setup = Setup.of(game, variant, option)
    if show and as_json:  # else --show would be silently ignored
        raise UsageError("--show draws the table after each move of the text output; --json prints a record: give one")
    chosen = make_player(player, samples, rng_seed, order_drawn=is_face_down(position))
    if position is not None:
        opening = placed(setup, setup.concealed(position), rng_seed)
    else:
        ((found_seed, cards, _, _),) = Deals(setup, seed, deal, file=None)
        assert cards is not None
        opening = dealt(setup, cards, found_seed)
    played = play(setup, opening, chosen)
    if as_json:
        print_whole(json.dumps(played.record()))
        return 0
    print_whole("\n".join(_lines(played, show)))
    return 0


def _lines(played: Any, show: bool) -> list[str]:
    """The game as a player reads it: what was played, move by move, and how it ended."""
    from solver.cli.display import SHOW_WIDTH
    from solver.service.playing import player_text

    setup, opening = played.setup, played.opening
    where = f"seed {opening.seed}" if opening.seed is not None else ("deal" if opening.deal else "position")
    lines = [f"{setup.title()}, {where}", f"player: {player_text(played.player.name, played.player.settings())}"]
    if show:
        lines += _drawn(setup, played.seen[0], SHOW_WIDTH)
    for number, (text, seen) in enumerate(zip(played.moves, played.seen[1:]), 1):
        lines.append(f"{number:3d}. {text}")
        if show:
            lines += _drawn(setup, seen, SHOW_WIDTH)
    label = setup.family.score_label
    score = "" if played.score is None else f" ({label}: {played.score})"
    if played.won:
        lines.append(f"won{score}")
    else:
        ending = "every move left brings back a position" if played.repeating else "no move left"
        lines.append(f"lost{score}: {ending} (the deal may still be winnable: 'solve' says)")
    lines.append(f"{len(played.moves)} moves, {played.seconds:.3f} CPU seconds")
    return lines


def _drawn(setup: Any, position: Any, width: int) -> list[str]:
    """The table as the player sees it (face-down cards counted, not shown; the stock's known
    cards drawn in order), indented."""
    from rulesets.concealed import concealed_picture, is_concealable, write_concealed, write_seen

    picture = concealed_picture(setup.legal, position)
    lines = [f"       {line}" for line in picture.text(frozenset(), width=width).splitlines()]
    lines.append(f"       position: {write_concealed(setup.legal, position)}")
    if is_concealable(setup.legal):
        lines.append(f"        as seen: {write_seen(setup.family, setup.legal, position.state, position.hidden)}")
    return lines


COMMAND = Command(
    "play",
    play_command,
    (
        GAME,
        PLAYER.but_required(),
        SEED,
        DEAL,
        POSITION,
        *RULES,
        SAMPLES,
        RNG_SEED,
        switch("--json", "as_json", "Print the game as one JSON object."),
        switch("--show", "show", "Draw the table after each move, as the player sees it."),
    ),
)
