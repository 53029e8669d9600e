"""The commands about one game and its deals: games, describe, deal, solve and verify.

Each command imports the services it uses when it runs, not when this module loads: the command
line imports every command's module (for their declarations), so what one command imports at
the top of its module, all of them pay for (see benchmarks/startup.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from rulesets.cards import Card, format_cards
from solver.cli.chances import FACE_DOWN, RELAXED, check_face_down, is_face_down, judge_command, refuse_lines
from solver.cli.errors import ExitCode, UsageError, one_line, print_whole, say
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
from solver.result import Verdict
from solver.service.inputs import STDIN, name_of, read_text, text_lines, without_bom

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from solver.api import Solved
    from solver.service.setup import Setup
    from solver.service.solving import Outcome


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
    _check_outputs(show, as_json, html, file, deal)
    check_face_down(position, samples, rng_seed, relaxed)
    one_source({"--seed": seed, "--seeds": seeds, "--deal": deal, "--file": file, "--position": position})
    if is_face_down(position):
        assert position is not None
        refuse_lines({"--html": html, "--fewest-redeals": fewest_redeals, "--verdict-code": verdict_code})
        alive = searching(progress, as_json)
        return judge_command(setup, position, bounds, samples, rng_seed, as_json, show, False, alive, relaxed)
    deals = Deals(setup, seed, deal, file, position=position, seeds=seeds, as_json=as_json)
    verdicts = set()
    alive = searching(progress, as_json)
    for number, (deal_seed, cards, start, line) in enumerate(deals):
        with alive():
            solved = Solved(solve_from(setup, start, bounds, deal_seed, cards, fewest_redeals))
        verdicts.add(solved.outcome.result.verdict)
        _answer(solved, number, line, show, as_json, html)
    if deals.bad_lines:
        return ExitCode.BAD_LINES
    return _verdict_exit_code(verdicts) if verdict_code else ExitCode.OK


def _check_outputs(show: bool, as_json: bool, html: str | None, file: str | None, deal: str | None) -> None:
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


def _answer(solved: Solved, number: int, line: int | None, show: bool, as_json: bool, html: str | None) -> None:
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


def searching(progress: bool | None, as_json: bool) -> Callable[[], AbstractContextManager[Any]]:
    """What shows that a long search is alive: on a terminal (not under CI, not for --json's
    readers) unless ``--no-progress``, or whenever ``--progress``; else nothing."""
    from contextlib import nullcontext

    from solver.cli.progress import Searching, show_progress

    if not (show_progress() and not as_json if progress is None else progress):
        return nullcontext
    return Searching


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
    deals = Deals(setup, seed, deal, file, strict=True, position=position)
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


class DealStart(NamedTuple):
    """One deal to answer: its seed (None if not seeded), its cards (None for a position), the
    state it starts from, and its line of the deal file (None if not from one)."""

    seed: int | None
    cards: list[Card] | None
    start: Any
    line: int | None = None


def one_source(given: dict[str, object]) -> None:
    """Refuse none, or more than one, of the places a command takes its deal or position from
    (``given``: each such flag the command takes, and its value: None where not given), whatever
    the position holds, before anything is read: the one check of them for every command."""
    named = [flag for flag, value in given.items() if value is not None]
    if len(named) != 1:
        *others, last = given
        got = f" (got {', '.join(named)})" if named else ""
        raise UsageError(f"give exactly one of {', '.join(others)} or {last}{got}")


class Deals:
    """The deals named by the one of ``--seed``, ``--seeds``, ``--deal``, ``--file`` or
    ``--position`` given (:func:`one_source` refuses none or several; ``-`` reads standard
    input), each with its seed, read one at a time. A bad
    line of a deal file is named on stderr (and, ``as_json``, printed as a JSON record of its
    line and error, so that a pipeline reading the records sees it) and counted in
    :attr:`bad_lines`, and the lines after it are still read; or, if ``strict``, it is the error
    that ends the command."""

    def __init__(
        self,
        setup: Setup,
        seed: int | None,
        deal: str | None,
        file: str | None,
        strict: bool = False,
        position: str | None = None,
        seeds: str | None = None,
        as_json: bool = False,
    ) -> None:
        self.setup, self.seed, self.deal, self.file, self.position = setup, seed, deal, file, position
        self.spans = None if seeds is None else _seed_spans(seeds)
        self.strict, self.as_json = strict, as_json
        self.bad_lines = 0

    def __iter__(self) -> Iterator[DealStart]:
        """Each deal or position, one at a time."""
        if self.position is not None:
            yield DealStart(None, None, self.setup.position(self.position))
            return
        if self.spans is not None:
            for low, high in self.spans:
                for seed in range(low, high + 1):
                    cards = self.setup.deal(seed=seed)
                    yield DealStart(seed, cards, self.setup.game.start(cards))
            return
        if self.file is None:
            text = read_text(STDIN, "deal") if self.deal == STDIN else self.deal
            cards = self.setup.deal(seed=self.seed, text=None if text is None else without_bom(text))
            yield DealStart(self.seed, cards, self.setup.game.start(cards))
            return
        from solver.service.deal_file import read_file_lines

        for found in read_file_lines(self.setup, text_lines(self.file, "deal file")):
            if found.error is not None:
                self._bad(found.line, found.error)
            else:
                yield DealStart(None, found.cards, found.start, found.line)

    def _bad(self, line: int, error: Exception) -> None:
        """A bad line: the error that ends the command if ``strict``, else named and counted."""
        where = f"deal file {name_of(self.file or '')} line {line}: {error}"
        if self.strict:
            raise UsageError(where)
        self.bad_lines += 1
        say(f"patience: error: {where}")
        if self.as_json:
            import json

            print(json.dumps({"line": line, "error": one_line(str(error))}), flush=True)


def _seed_spans(text: str) -> list[tuple[int, int]]:
    """``--seeds`` as a survey reads them (``1-10,20``), each seed a PySolFC game number."""
    from solver.service.seeds import parse_seeds

    return parse_seeds(text)


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
    from rulesets.concealed import face_down_after, face_down_at_start

    setup, result = outcome.setup, outcome.result
    game = setup.game
    texts = outcome.line_text()
    title = "solution" if result.solution is not None else "line to the best score"
    lines = [f"{title} ({len(texts)} move{'' if len(texts) == 1 else 's'}):"]
    state = outcome.start
    hidden = face_down_at_start(setup.legal, state)
    if show:
        lines += _layout_lines(setup, state, hidden, frozenset())
    for number, (text, move) in enumerate(zip(texts, result.best_line), 1):
        lines.append(f"{number:3d}. {text}")
        touched = game.touched(state, move)
        hidden = face_down_after(setup.legal, state, hidden, move)
        state = game.apply(state, move)
        if show:
            lines += _layout_lines(setup, state, hidden, touched)
    return lines


#: The widest picture line of --show, under its 7 columns of indent: 80 in all.
SHOW_WIDTH = 73


def _layout_lines(setup: Any, state: Any, hidden: int, touched: frozenset[str]) -> list[str]:
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


SEEDS = Argument(
    ("--seeds",),
    "seeds",
    "PySolFC game numbers as ranges, e.g. 1-10 or 1-5,9 (as 'survey' takes them): each is solved in turn.",
    metavar="RANGES",
)
#: Where the deals come from: exactly one of these.
SOURCES = (SEED, SEEDS, DEAL, FILE, POSITION)
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
