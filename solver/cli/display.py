"""What a command shows on the terminal beside its answer: the width of ``--show``'s pictures,
a layout with its position as the player sees it, and the sign that a long search is alive."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


#: The widest picture line of --show, under its 7 columns of indent: 80 in all.
SHOW_WIDTH = 73


def layout_lines(setup: Any, state: Any, hidden: int, *, touched: frozenset[str]) -> list[str]:
    """The picture of ``state`` indented under its move, then the position to paste back in:
    with every card known, and (a game with a stock) as the player sees it, the ``hidden`` stock
    cards never turned up face down (for ``solve --position`` and ``hint --position`` to judge
    what is left to chance)."""
    from rulesets.concealed import is_concealable, write_seen

    game = setup.game
    lines = [f"       {line}" for line in game.picture(state).text(touched, width=SHOW_WIDTH).splitlines()]
    lines.append(f"       position: {game.write_position(state)}")
    if is_concealable(setup.legal):
        lines.append(f"        as seen: {write_seen(setup.family, setup.legal, state, hidden)}")
    return lines


def searching(progress: bool | None, as_json: bool) -> Callable[[], AbstractContextManager[Any]]:
    """What shows that a long search is alive: on a terminal (not under CI, not for --json's
    readers) unless ``--no-progress``, or whenever ``--progress``; else nothing."""
    from contextlib import nullcontext

    from solver.cli.progress import Searching, show_progress

    if not (show_progress() and not as_json if progress is None else progress):
        return nullcontext
    return Searching
