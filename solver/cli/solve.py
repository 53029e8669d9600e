"""The commands that answer deals and lines: solve and verify.

Each command imports the services it uses when it runs, not when this module loads: the command
line imports every command's module (for their declarations), so what one command imports at
the top of its module, all of them pay for (see benchmarks/startup.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulesets.cards import format_cards
from solver.cli.chances import FACE_DOWN, RELAXED, check_face_down, is_face_down, judge_command, refuse_lines
from solver.cli.display import searching
from solver.cli.errors import ExitCode, UsageError, print_whole, say
from solver.cli.options import (
    DEAL,
    FILE,
    GAME,
    LIMITS,
    POSITION,
    PROGRESS,
    RULES,
    SEED,
    Argument,
    Command,
    file_name,
    file_or_dash,
    switch,
)
from solver.cli.sources import SOURCES, Deals, one_source
from solver.result import Verdict
from solver.service.inputs import STDIN, name_of, read_text

if TYPE_CHECKING:
    from solver.api import Solved
    from solver.service.solving import Outcome


def solve_command(
    *,
    game: str,
    seed: int | None = None,
    seeds: str | None = None,
    deal: str | None = None,
    file: str | None = None,
    position: str | None = None,
    variant: str | None = None,
    option: Sequence[str] = (),
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: str = "2G",
    fewest_redeals: bool = False,
    show: bool = False,
    as_json: bool = False,
    verdict_code: bool = False,
    html: str | None = None,
    progress: bool | None = None,
    samples: int | None = None,
    rng_seed: int | None = None,
    relaxed: int | None = None,
) -> int:
    """Solve deals or positions: verdict, minimal score, and the winning (or best) line of moves.

    With --seeds (ranges, e.g. 1-10,20), each seed is answered in turn. With --file, each deal is
    answered as soon as its line is read, its header naming its line; a bad line is named on
    stderr (with --json, also as a record {"line": N, "error": "..."}), the others are still
    answered, and the exit code is 3.
    """
    from solver.api import Solved
    from solver.service.setup import Setup, limits
    from solver.service.solving import solve_from

    setup = Setup.of(game, variant, option)
    bounds = limits(max_nodes, max_seconds, max_memory)
    _check_outputs(show, as_json, html, file=file, deal=deal)
    check_face_down(position, samples, rng_seed, relaxed=relaxed)
    one_source({"--seed": seed, "--seeds": seeds, "--deal": deal, "--file": file, "--position": position})
    if is_face_down(position):
        assert position is not None
        refuse_lines({"--html": html, "--fewest-redeals": fewest_redeals, "--verdict-code": verdict_code})
        alive = searching(progress, as_json)
        draw = {"samples": samples, "rng_seed": rng_seed, "relaxed": relaxed}
        return judge_command(setup, position, bounds, **draw, as_json=as_json, show=show, with_moves=False, alive=alive)
    deals = Deals(setup, seed, deal, file=file, position=position, seeds=seeds, as_json=as_json)
    verdicts = set()
    alive = searching(progress, as_json)
    for number, (deal_seed, cards, start, line) in enumerate(deals):
        with alive():
            solved = Solved(solve_from(setup, start, bounds, seed=deal_seed, deal=cards, least_cost=fewest_redeals))
        verdicts.add(solved.outcome.result.verdict)
        _answer(solved, number, line, show=show, as_json=as_json, html=html)
    if deals.bad_lines:
        return ExitCode.BAD_LINES
    return _verdict_exit_code(verdicts) if verdict_code else ExitCode.OK


def _check_outputs(show: bool, as_json: bool, html: str | None, *, file: str | None, deal: str | None) -> None:
    """Refuse outputs that cannot go together, and a replay page that cannot be written, before
    anything is solved."""
    if show and as_json:  # else --show would be silently ignored
        raise UsageError("--show draws the layout after each move of the text output; --json prints records: give one")
    if html is not None and file is not None:
        raise UsageError("--html replays one deal: give it with --seed, --deal or --position, not --file")
    if html == "-":  # the moves are printed there: the page would be mixed in (./- names a file)
        raise UsageError(
            "--html -: the moves are printed on standard output: write the page to a file, e.g. --html replay.html"
        )
    if html is not None:
        _check_page_target(html, reads_stdin=deal == STDIN)


def _answer(solved: Solved, number: int, line: int | None, *, show: bool, as_json: bool, html: str | None) -> None:
    """A solved deal's replay page (``html``) and its answer printed: its record, or its text
    (after a blank line, but the first deal's)."""
    if html is not None:
        from solver.service.output import replacing

        with replacing(html) as page:
            page.write(solved.to_html())
    # Each deal's answer printed whole: a Ctrl-C while a slow reader drains it cuts none.
    if as_json and line is None:
        print_whole(solved.to_json())
    elif as_json:  # a deal file's records carry their line: a bad line skipped shifts them
        import json

        print_whole(json.dumps({"line": line, **solved.record()}))
    else:
        print_whole("\n".join([""] * bool(number) + _outcome_lines(solved.outcome, show, line)))


def _check_page_target(html: str, reads_stdin: bool) -> None:
    """Refuse an --html page that cannot be written, or that would write over the file the deal
    is read from as standard input (``--deal -``), before anything is solved. (A --file is not
    taken with --html.)"""
    from pathlib import Path

    from solver.service.output import check_writable

    inputs = [Path("/dev/stdin")] if reads_stdin else []
    check_writable(inputs, {"--html": html}, "the deal it reads from standard input")


def _verdict_exit_code(verdicts: set[Verdict]) -> int:
    """For --verdict-code: unknown if any deal was left unknown, else lost if any was lost."""
    if Verdict.UNKNOWN in verdicts:
        return ExitCode.UNKNOWN
    return ExitCode.LOST if Verdict.LOST in verdicts else ExitCode.OK


def verify_command(
    *,
    game: str,
    solution: str,
    seed: int | None = None,
    deal: str | None = None,
    file: str | None = None,
    position: str | None = None,
    variant: str | None = None,
    option: Sequence[str] = (),
    verdict_code: bool = False,
) -> int:
    """Replay a solution through the rules; report the first illegal move, if any.

    A --json record of 'solve' or 'play', or what 'solve' prints, is also held to every claim it
    makes: its game, options, seed and deal, its verdict (a played game's: won or not, played to
    its end, each move the one its player plays, the player replayed from its settings), its
    score, its redeals. (That no line does better than a claimed minimum is not searched again:
    'solve' proves it.)
    """
    from solver.service.setup import Setup
    from solver.service.solution_file import read_solution
    from solver.service.verification import check_record_is_for, verify

    if STDIN == solution and STDIN in (deal, file):
        raise UsageError("only one of --solution, --deal and --file can read standard input ('-')")
    setup = Setup.of(game, variant, option)
    one_source({"--seed": seed, "--deal": deal, "--file": file, "--position": position})
    deals = Deals(setup, seed, deal, file=file, strict=True, position=position)
    written = read_solution(read_text(solution, "solution file"), setup, name_of(solution))
    opening = _verified_opening(deals, written.record)
    if written.record is not None:
        rules_given = variant is not None or bool(option)
        note = check_record_is_for(written.record, setup, opening, rules_given=rules_given)
        if note is not None:
            print(note)
    found = verify(setup, opening, written)
    if found.illegal is not None:
        say(f"invalid: {found.illegal}")
        return ExitCode.INVALID
    legal = {0: "no move to check", 1: "its 1 move legal"}.get(found.moves, f"all {found.moves} moves legal")
    if found.won:
        reached = "the game is won"
    else:
        ending = "the game has not ended" if found.reached is None else f"{setup.family.score_label}: {found.reached}"
        reached = f"not won ({ending})"
    if found.broken_claim is not None:  # said once, as the failure it is: the moves alone do not make it valid
        say(f"invalid: {found.broken_claim} ({legal}; {reached})")
        return ExitCode.INVALID
    print(f"valid: {legal}; {reached}")
    if not verdict_code or found.won:
        return ExitCode.OK
    return ExitCode.LOST if found.ended else ExitCode.UNKNOWN


def _verified_opening(deals: Deals, record: dict[str, Any] | None) -> Any:
    """The one deal or position verify takes (a file must hold exactly one, and no bad line), as
    ``play`` lays it out: a deal's stock face down; a ``--position`` with braces only for the
    record ``play --json`` wrote of it, whose seed drew the order of the cards in braces."""
    from solver.chance import Concealed
    from solver.service.playing import dealt, placed

    setup, position = deals.setup, deals.position
    if position is not None and is_face_down(position):
        if record is None or "player" not in record:
            raise UsageError(
                "verify takes a --position with braces only with the 'play --json' record of a game played "
                "from it (its order_seed drew the order of the face-down cards): give that record, or write "
                "every card of the stock, in order"
            )
        from solver.service.replaying import face_down_opening

        return face_down_opening(setup, setup.concealed(position), record)
    found = list(itertools.islice(iter(deals), 2))
    if len(found) != 1:
        raise UsageError("verify takes one deal; the deal file holds more: give one with --deal, or a file of one")
    start = found[0]
    if start.cards is None:
        return placed(setup, Concealed(start.start, 0), None)
    return dealt(setup, start.cards, start.seed)


def _outcome_lines(outcome: Outcome, show: bool, line: int | None = None) -> list[str]:
    """A solved deal as text: the deal (its seed, or its ``line`` of the deal file), verdict,
    score, redeals, work done, then the numbered line."""
    setup, result = outcome.setup, outcome.result
    family = setup.family
    header = setup.title() + (f", seed {outcome.seed}" if outcome.seed is not None else "")
    header += f", line {line}" if line is not None else ""
    lines = [header]
    if outcome.deal is not None:
        lines.append(f"deal: {format_cards(outcome.deal)}")
    else:
        lines.append(f"position: {setup.game.write_position(outcome.start)}")
    score = outcome.score()
    undecided = result.verdict is Verdict.UNKNOWN
    verdict = result.verdict.value + (f" (limit {result.limit} reached)" if undecided else "")
    lines.append(f"result: {verdict}")
    if score is None:
        lines.append(f"{family.score_label}: no end of the game reached")
    else:
        qualifier = "best found" if undecided else "minimum"
        scored = f"{family.score_label} ({qualifier}): {score}"
        if family.threshold is not None:
            name, most = family.threshold
            scored += f"; {name} win ({most} or fewer): {'yes' if score <= most else 'no'}"
        lines.append(scored)
    cost = outcome.cost()
    if cost is not None:
        proof = (
            "fewest"
            if result.limit is None
            else (f"fewest not proven, at least {result.least_cost_floor}: limit {result.limit} reached")
        )
        lines.append(f"redeals: {cost} ({proof})")
    stats = result.stats
    lines.append(f"nodes: {stats.nodes}, table: {stats.table_entries} states, {stats.seconds:.3f} CPU seconds")
    return lines + _line_lines(outcome, show)


def _line_lines(outcome: Outcome, show: bool) -> list[str]:
    """The numbered moves of the solution (or best line); with ``show``, after each move the
    layout as one indented block (the places the move changed marked ``*``) and its position."""
    from rulesets.concealed import face_down_at_start
    from solver.chance import Concealed, left_face_down
    from solver.cli.display import layout_lines

    setup, result = outcome.setup, outcome.result
    game = setup.game
    texts = outcome.line_text()
    title = "solution" if result.solution is not None else "line to the best score"
    lines = [f"{title} ({len(texts)} move{'' if len(texts) == 1 else 's'}):"]
    rules: Any = setup.legal  # a game without a stock has no card face down: its counts stay 0
    state = outcome.start
    hidden = face_down_at_start(rules, state)
    if show:
        lines += layout_lines(setup, state, hidden, touched=frozenset())
    for number, (text, move) in enumerate(zip(texts, result.best_line), 1):
        lines.append(f"{number:3d}. {text}")
        touched = game.touched(state, move)
        hidden = left_face_down(rules, Concealed(state, hidden), move)
        state = game.apply(state, move)
        if show:
            lines += layout_lines(setup, state, hidden, touched=touched)
    return lines


COMMANDS = (
    Command(
        "solve",
        solve_command,
        (
            GAME,
            *SOURCES,
            *RULES,
            *LIMITS,
            switch(
                "--fewest-redeals", "fewest_redeals", "Find the win with the fewest passes through the stock (IDA*)."
            ),
            switch("--show", "show", "Draw the layout after each move."),
            switch("--json", "as_json", "Print one JSON object per deal per line."),
            switch(
                "--verdict-code",
                "verdict_code",
                "Exit with 0 if every deal is won, 4 if one is lost, 5 if one is left unknown (for scripts).",
            ),
            Argument(
                ("--html",), "html", "Also write a page replaying the line move by move.", file_name, metavar="FILE"
            ),
            PROGRESS,
            *FACE_DOWN,
            RELAXED,
        ),
    ),
    Command(
        "verify",
        verify_command,
        (
            GAME,
            Argument(
                ("--solution",),
                "solution",
                "File of moves (one per line, or what 'solve' prints), or a --json record; '-': standard input.",
                file_or_dash,
                required=True,
                metavar="FILE",
            ),
            SEED,
            DEAL,
            FILE._replace(
                help="A file holding the one deal or position to verify, # comments allowed; '-': standard input."
            ),
            POSITION,
            *RULES,
            switch(
                "--verdict-code",
                "verdict_code",
                "Exit with 0 if the line wins, 4 if it ends the game without a win (no move left, or each "
                "move left brings back a position the line reached), "
                "5 if it stops with moves left (for scripts; an invalid line is 1 either way).",
            ),
        ),
    ),
)
