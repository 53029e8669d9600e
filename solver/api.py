"""The Python API: solve a deal or a position, ask for hints, run and read surveys.

    >>> import solver
    >>> outcome = solver.solve("accordion", seed=7)
    >>> outcome.result, outcome.score, len(outcome.solution)
    ('won', 1, 51)

Like the command line, this layer joins the engine to the games; the command line calls these
same functions. Errors are the command line's: :class:`solver.errors.UserError` subclasses
(ValueErrors) with the messages it prints. What only some calls need (JSON, the replay page,
SQLite) is imported by them, so that ``patience solve`` starts without it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from os import PathLike
from typing import TYPE_CHECKING, Any, NamedTuple

from rulesets.cards import Card
from rulesets.family import OptionError, spell
from solver.errors import ArgumentTypeError, UserError
from solver.service.setup import Setup, limits
from solver.service.solving import Outcome, solve_from

if TYPE_CHECKING:
    from pathlib import Path

    from solver.api_face_down import ChanceHint, Chances
    from solver.chance import Concealed
    from solver.service.deal_file import DealFile
    from solver.service.hinting import Hint
    from solver.surveys import Row, SurveySpec

__all__ = [
    "Solved",
    "Hint",
    "Chances",
    "ChanceHint",
    "SurveyRows",
    "solve",
    "hint",
    "survey",
    "load_survey",
    "ArgumentTypeError",
]


def _check(name: str, value: object, kinds: tuple[type, ...], *, wanted: str) -> None:
    """Refuse ``value`` for the argument ``name`` unless it is one of ``kinds`` (never a bool where
    a number is wanted: True would silently be 1)."""
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        shown = repr(value) if len(repr(value)) <= 40 else f"a {type(value).__name__}"
        raise ArgumentTypeError(f"{name} must be {wanted}, not {shown}")


def _check_common(
    game: object,
    variant: object,
    options: object,
    *,
    max_nodes: object,
    max_seconds: object,
    max_memory: object,
) -> None:
    """The arguments solve, hint and survey share: each of the type it must be."""
    check_rules(game, variant, options)
    check_limits(max_nodes, max_seconds, max_memory)


def check_rules(game: object, variant: object, options: object) -> None:
    """The game, variant and options as a caller gives them: each of the type it must be."""
    _check("game", game, (str,), wanted="a game or variant name, e.g. 'accordion'")
    _check("variant", variant, (str, type(None)), wanted="a variant name or None")
    _check("options", options, (Mapping, type(None)), wanted="a dict of option values, e.g. {'compulsory': True}")


def check_limits(max_nodes: object, max_seconds: object, max_memory: object) -> None:
    """The limits of a search as a caller gives them: each of the type it must be."""
    _check("max_nodes", max_nodes, (int, type(None)), wanted="a whole number of states or None (no limit)")
    _check("max_seconds", max_seconds, (int, float, type(None)), wanted="a number of CPU seconds or None (no limit)")
    _check("max_memory", max_memory, (int, str), wanted="a number of bytes or a size such as '2G'")


def __getattr__(name: str) -> Any:
    """``Hint``, the record :func:`hint` returns, imported when asked for: it needs the analysis
    of moves, which only hints load; and ``Chances`` and ``ChanceHint``, what :func:`solve` and
    :func:`hint` give of a position whose stock lies face down (:mod:`solver.api_face_down`)."""
    if name == "Hint":
        from solver.service.hinting import Hint

        return Hint
    if name in ("Chances", "ChanceHint"):
        from solver import api_face_down

        return getattr(api_face_down, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Solved(NamedTuple):
    """What :func:`solve` found: ``result`` (won, lost or unknown), ``score`` (the minimum, or the
    best found when unknown; None if no end of the game was reached), ``solution`` (the winning
    moves as text, or None), ``best_line`` (the moves to the score when not won), ``nodes`` and
    ``seconds`` (CPU) of the search, and the ``engine`` that searched. ``to_json()`` is the
    command line's ``--json`` record."""

    outcome: Outcome

    @property
    def result(self) -> str:
        return self.outcome.result.verdict.value

    @property
    def score(self) -> int | None:
        return self.outcome.score()

    @property
    def score_proven(self) -> bool:
        return self.outcome.score_proven()

    @property
    def solution(self) -> list[str] | None:
        return self.outcome.line_text() if self.outcome.result.solution is not None else None

    @property
    def best_line(self) -> list[str] | None:
        return None if self.outcome.result.solution is not None else self.outcome.line_text()

    @property
    def nodes(self) -> int:
        return self.outcome.result.stats.nodes

    @property
    def seconds(self) -> float:
        return self.outcome.result.stats.seconds

    @property
    def engine(self) -> str:
        """The engine that searched: "native" (the compiled core) or "python"."""
        return self.outcome.result.engine

    @property
    def position(self) -> str:
        """Where the search started, as a position (``patience describe GAME`` shows each game's form)."""
        return str(self.outcome.setup.game.write_position(self.outcome.start))

    def record(self) -> dict[str, Any]:
        """The JSON record as a dict."""
        return self.outcome.record()

    def to_json(self) -> str:
        """The record exactly as ``patience solve --json`` prints it."""
        import json

        return json.dumps(self.record())

    def to_html(self) -> str:
        """A self-contained page replaying the line move by move (``patience solve --html``)."""
        from solver.service.replay_page import outcome_page

        return outcome_page(self.outcome)

    def _repr_html_(self) -> str:
        # A notebook shows the page in a frame of its own, so several pages never share ids or keys.
        import html

        page = html.escape(self.to_html(), quote=True)
        return f'<iframe srcdoc="{page}" style="width:100%;height:640px;border:0"></iframe>'

    def __repr__(self) -> str:
        return f"<Solved {self.outcome.setup.variant}: {self.result}, score {self.score}, {self.nodes} nodes>"


def check_sampling(samples: object, rng_seed: object) -> None:
    """``samples`` and ``rng_seed`` as a caller gives them: whole numbers, samples at least 1."""
    _check("samples", samples, (int, type(None)), wanted="a whole number of orders or None (1000)")
    _check("rng_seed", rng_seed, (int, type(None)), wanted="a whole number or None (1)")
    if samples is not None and samples < 1:  # type: ignore[operator]  # an int, checked above
        raise OptionError(f"samples must be at least 1, not {samples}: e.g. samples=1000")


def check_player(player: object, samples: object, rng_seed: object) -> None:
    """A survey's ``player``, ``samples`` and ``rng_seed`` as a caller gives them: each of the
    type it must be (their values are the player's to refuse)."""
    _check("player", player, (str, type(None)), wanted="a player's name, e.g. 'sampling', or None")
    _check("samples", samples, (int, type(None)), wanted="a whole number of orders or None (100)")
    _check("rng_seed", rng_seed, (int, type(None)), wanted="a whole number or None (1)")


def setup_of(game: str, variant: str | None = None, options: Mapping[str, Any] | None = None) -> Setup:
    """The game as named (a game or variant name), with ``options`` as a dict of values."""
    return Setup.of(game, variant, _written(options))


def start_of(
    setup: Setup,
    seed: int | None = None,
    deal: str | Sequence[Card | str] | None = None,
    *,
    position: str | None = None,
) -> tuple[Any, list[Card] | None]:
    """The start state and its deal (None for a position), from the one of the three given (as
    :func:`_face_down_start` has checked, and found no braces)."""
    _check("seed", seed, (int, type(None)), wanted="a whole number (PySolFC's deal number)")
    _check(
        "deal", deal, (str, list, tuple, type(None)), wanted="the cards as text, e.g. 'AS 7H ...', or a list of cards"
    )
    _check("position", position, (str, type(None)), wanted="a position as text, e.g. 'row: AS 7H 9D'")
    for card in deal if isinstance(deal, (list, tuple)) else ():
        _check("each card of deal", card, (Card, str), wanted="a Card or a card's name such as 'AS'")
        if isinstance(card, str) and len(card.split()) != 1:  # joined below, '2S 3S' would pass as two
            raise ArgumentTypeError(f"each card of deal must be one card's name such as 'AS', not {card[:40]!r}")
    if position is not None:
        return setup.position(position), None
    if seed is not None:
        cards = setup.deal(seed=seed)
    else:
        assert deal is not None
        text = deal if isinstance(deal, str) else " ".join(str(card) for card in deal)
        cards = setup.deal(text=text)
    return setup.game.start(cards), cards


def opening_of(
    setup: Setup,
    seed: int | None = None,
    deal: str | Sequence[Card | str] | None = None,
    *,
    position: str | None = None,
) -> tuple[Concealed, list[Card] | None]:
    """As :func:`start_of`, the start held as a :class:`~solver.chance.Concealed`: a position may
    write face-down cards in braces (none lie face down otherwise)."""
    from solver.chance import Concealed

    concealed = _face_down_start(setup, seed, deal, position=position)
    if concealed is not None:
        return concealed, None
    start, cards = start_of(setup, seed, deal, position=position)
    return Concealed(start, 0), cards


def _face_down_start(
    setup: Setup, seed: int | None, deal: str | Sequence[Card | str] | None, *, position: str | None
) -> Concealed | None:
    """The position given, where it has face-down cards; else None. None, or more than one, of
    ``seed``, ``deal`` and ``position`` is refused here, braces or none: the one check of them."""
    if sum(value is not None for value in (seed, deal, position)) != 1:
        raise OptionError("give exactly one of seed, deal or position")
    if not isinstance(position, str):
        return None
    from rulesets.concealed import is_face_down

    return setup.concealed(position) if is_face_down(position) else None


def _refuse_samples(samples: int | None, rng_seed: int | None, relaxed: int | None = None) -> None:
    """samples, rng_seed and relaxed draw orders of a face-down stock: refused where none was given."""
    for name, value in (("samples", samples), ("rng_seed", rng_seed), ("relaxed", relaxed)):
        if value is not None:
            raise OptionError(
                f"{name} draws orders of a face-down stock, and no position with one was given: write its "
                "face-down cards in braces, e.g. position='... | stock: {30}', or leave it out"
            )


def solve(
    game: str,
    *,
    seed: int | None = None,
    deal: str | Sequence[Card | str] | None = None,
    position: str | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str = "2G",
    fewest_redeals: bool = False,
    samples: int | None = None,
    rng_seed: int | None = None,
    relaxed: int | None = None,
) -> Solved | Chances:
    """Solve one deal (PySolFC's ``seed``, or the cards of ``deal``) or one ``position``. A
    position whose stock lies face down (braces: ``stock: 2S {TS 9H}``) has a chance to win, not
    a line: :class:`Chances` (``samples`` orders of the stock drawn with ``rng_seed`` for
    ``clairvoyant``; 1000 and 1 unless given; with ``relaxed``, the information relaxation bound
    too, V exact within that many face-down cards)."""
    _check_common(game, variant, options, max_nodes=max_nodes, max_seconds=max_seconds, max_memory=max_memory)
    _check("fewest_redeals", fewest_redeals, (bool,), wanted="True or False")
    check_sampling(samples, rng_seed)
    _check("relaxed", relaxed, (int, type(None)), wanted="a whole number of face-down cards or None")
    setup = setup_of(game, variant, options)
    concealed = _face_down_start(setup, seed, deal, position=position)
    if concealed is not None:
        if fewest_redeals:
            raise OptionError(
                "fewest_redeals needs every card known; a face-down stock has a chance to win, not a line"
            )
        from solver.api_face_down import Chances
        from solver.service.chances import judge

        bounds = limits(max_nodes, max_seconds, str(max_memory))
        return Chances.of(judge(setup, concealed, bounds, samples=samples, rng_seed=rng_seed, relaxed_reach=relaxed))
    _refuse_samples(samples, rng_seed, relaxed)
    start, cards = start_of(setup, seed, deal, position=position)
    bounds = limits(max_nodes, max_seconds, str(max_memory))
    return Solved(solve_from(setup, start, bounds, seed=seed, deal=cards, least_cost=fewest_redeals))


def hint(
    game: str,
    *,
    seed: int | None = None,
    deal: str | Sequence[Card | str] | None = None,
    position: str | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str = "2G",
    samples: int | None = None,
    rng_seed: int | None = None,
) -> list[Hint] | list[ChanceHint]:
    """Every legal move with what it leaves, best first (``patience hint``); empty when no move
    is left (:func:`solve` of the position then says whether it is won). Of a position whose
    stock lies face down, each move's chance to win: :class:`ChanceHint` records (``samples`` and
    ``rng_seed`` as :func:`solve` takes them)."""
    from solver.service.hinting import hints  # here: the analysis took about 2 ms of each `patience solve`

    _check_common(game, variant, options, max_nodes=max_nodes, max_seconds=max_seconds, max_memory=max_memory)
    check_sampling(samples, rng_seed)
    setup = setup_of(game, variant, options)
    concealed = _face_down_start(setup, seed, deal, position=position)
    if concealed is not None:
        from solver.api_face_down import chance_hints
        from solver.service.chances import judge

        bounds = limits(max_nodes, max_seconds, str(max_memory))
        return chance_hints(judge(setup, concealed, bounds, samples=samples, rng_seed=rng_seed, with_moves=True))
    _refuse_samples(samples, rng_seed)
    start, _ = start_of(setup, seed, deal, position=position)
    return hints(setup, start, limits(max_nodes, max_seconds, str(max_memory)))


def survey(
    game: str,
    seeds: str | None = None,
    out: str | Path | None = None,
    *,
    file: str | Path | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: int | str | None = None,
    jobs: int = 1,
    fewest_redeals: bool = False,
    player: str | None = None,
    samples: int | None = None,
    rng_seed: int | None = None,
) -> Any:
    """Solve every seed of ``seeds`` (e.g. ``"1-1000"``), or every deal of the deal ``file`` (rows
    keyed by line), into the SQLite file ``out``, resuming it (``patience survey``); returns the
    tally of what this run did. ``max_memory`` is "2G" unless given.

    With ``player`` ("random", "careful" or "sampling", with its ``samples`` and ``rng_seed``
    as ``patience play`` takes them), the player plays each deal to its end instead, each row its game
    (``patience survey --player``); a search's limits and ``fewest_redeals`` are refused.

    With ``jobs`` other than 1 the workers are spawned processes, which import the calling script
    again: its call must be under ``if __name__ == "__main__":``, or every worker fails to start
    (raised as :class:`~solver.errors.WorkerLost`, which names both causes)."""
    from solver.service.deal_file import read_deal_file
    from solver.service.seeds import parse_seeds

    _refuse_a_workers_call()
    if (seeds is None) == (file is None) or out is None:
        raise OptionError("give out (the survey file) and exactly one of seeds or file")
    check_rules(game, variant, options)
    check_limits(max_nodes, max_seconds, "2G" if max_memory is None else max_memory)
    _check("fewest_redeals", fewest_redeals, (bool,), wanted="True or False")
    check_player(player, samples, rng_seed)
    _check_survey_files(seeds, out, file)
    _check("jobs", jobs, (int,), wanted="a whole number of worker processes")
    spec = _survey_spec(
        game,
        variant,
        options,
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        max_memory=max_memory,
        fewest_redeals=fewest_redeals,
        player=player,
        samples=samples,
        rng_seed=rng_seed,
    )
    setup = spec.setup()  # a bad game, variant or option is refused before the file is touched
    deals = parse_seeds(seeds) if seeds is not None else read_deal_file(setup, str(file))
    return _run_survey(spec, deals, out, jobs=jobs)


def _refuse_a_workers_call() -> None:
    """A spawned worker importing the calling script again has reached its call: without the
    guard (multiprocessing's own test for it, in spawn._check_not_importing_main). Not a
    UserError, which the script may catch and carry on, serving the caller's survey."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise RuntimeError(
            "solver.survey was called again by a worker process importing the calling script:"
            ' make the call under `if __name__ == "__main__":`'
        )


def _check_survey_files(seeds: object, out: object, file: object) -> None:
    """A survey's seeds, its file ``out`` and its deal ``file`` as a caller gives them: each of
    the type it must be, and no file name empty."""
    _check("seeds", seeds, (str, type(None)), wanted="text such as '1-1000' or '1,5,9'")
    _check("out", out, (str, PathLike), wanted="a file name")
    _check("file", file, (str, PathLike, type(None)), wanted="a file name or None")
    _check_named("out", out)
    _check_named("file", file)


def _survey_spec(
    game: str,
    variant: str | None,
    options: Mapping[str, Any] | None,
    *,
    max_nodes: int | None,
    max_seconds: float | None,
    max_memory: int | str | None,
    fewest_redeals: bool,
    player: str | None,
    samples: int | None,
    rng_seed: int | None,
) -> SurveySpec:
    """What decides a survey: its rules, and a search's limits (its memory bound "2G" unless
    given) or the player that plays each deal and its settings (no memory bound unless given)."""
    from solver.surveys import SurveySpec

    written = tuple(_written(options))
    if max_memory is None:  # a search's bound; a player's survey has none
        max_memory = None if player is not None else "2G"
    bounds = limits(max_nodes, max_seconds, None if max_memory is None else str(max_memory))
    return SurveySpec(
        game,
        variant,
        written,
        bounds.max_nodes,
        bounds.max_seconds,
        bounds.max_memory,
        fewest_redeals,
        player,
        samples,
        rng_seed,
    )


def _run_survey(spec: SurveySpec, deals: list[tuple[int, int]] | DealFile, out: str | Path, *, jobs: int) -> Any:
    """The survey run, its workers' deaths said as a Python caller meets them (a script without
    the guard spawned workers need kills them all at their start)."""
    from pathlib import Path  # here: loading it took about 5.5 ms of every `patience solve`

    from solver.errors import WorkerLost
    from solver.surveys import run_survey

    try:
        return run_survey(spec, deals, Path(out), jobs=jobs)
    except WorkerLost as lost:  # from Python, a worker may also die because the script lacks the guard
        again = str(lost).replace("rerun the same command", "call solver.survey again with the same arguments")
        raise WorkerLost(
            'a worker process died: if the calling script lacks the `if __name__ == "__main__":` guard that '
            f"spawned workers need (they all die at their start), put the call to solver.survey under it; else {again}"
        ) from None


class SurveyRows:
    """The rows of a survey file: iterate for :class:`~solver.surveys.row_codec.Row` records (by
    seed, or by line in a survey of a deal file), ``to_frame()`` for a pandas DataFrame (pandas
    must be installed), or ``summary()`` for what ``patience report --json`` says of it (without
    the rows)."""

    def __init__(self, path: str | Path) -> None:
        from pathlib import Path

        from solver.surveys import Store

        self.path = Path(path)
        Store(self.path).close()  # refuse a missing or foreign file now, not at the first row

    def __iter__(self) -> Iterator[Row]:
        from solver.surveys import Store

        store = Store(self.path)
        try:
            yield from store.rows()
        finally:
            store.close()

    def summary(self, slowest: int = 10) -> dict[str, Any]:
        """The report's summary: counts, ``win_rate_low`` and ``win_rate_high`` (the 95% range; the
        Wilson interval when no deal is unknown), the score histogram by verdict, CPU per deal."""
        from solver.surveys import summarize

        _check("slowest", slowest, (int,), wanted="a whole number of deals to list")
        return summarize(self.path, slowest)

    def __len__(self) -> int:
        """How many deals the survey file holds."""
        from solver.surveys import Store

        store = Store(self.path)
        try:
            ((count,),) = store.each("SELECT COUNT(*) FROM deals")
        finally:
            store.close()
        return int(count)

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame (pandas must be installed): one row per deal, a column
        per field of :class:`~solver.surveys.row_codec.Row` but ``options``, which becomes a column
        per option (``compulsory``, ``piles``, ...; ``option_NAME`` where a field has its name),
        ``score_proven`` a bool, and the counts that may be missing (seed, score, redeals, line; a
        player's survey's moves, and the nodes and table bytes it lacks) pandas' nullable
        integers, so that no whole number turns into a float."""
        try:
            import pandas  # type: ignore[import-untyped]  # optional, and its stubs are a separate package
        except ImportError:
            raise UserError("to_frame() needs pandas: pip install 'patience-solver[pandas]'") from None
        import json

        from solver.surveys import Row

        fields = [name for name in Row._fields if name != "options"]
        records = []
        for row in self:
            record = {name: getattr(row, name) for name in fields}
            record["score_proven"] = bool(row.score_proven)
            for name, value in json.loads(row.options).items():
                record[f"option_{name}" if name in Row._fields else name] = value
            records.append(record)
        frame = pandas.DataFrame.from_records(records, columns=fields if not records else None)
        for name in ("seed", "score", "redeals", "line", "moves", "nodes", "peak_table_bytes"):
            frame[name] = frame[name].astype("Int64")
        return frame.astype({"score_proven": bool})


def load_survey(path: str | Path) -> SurveyRows:
    """The rows of a survey file written by :func:`survey` or ``patience survey``."""
    _check("path", path, (str, PathLike), wanted="a file name")
    _check_named("path", path)
    return SurveyRows(path)


def _check_named(name: str, value: object) -> None:
    """Refuse an empty file name (``Path("")`` would be the current directory, which no argument
    means, and the message would name that)."""
    if value == "":
        raise OptionError(f"{name} '' is an empty file name: give a file name")


def _written(options: Mapping[str, Any] | None) -> list[str]:
    """Options given as a dict, written ``name=value`` as the command line takes them."""
    return [f"{name}={spell(value)}" for name, value in (options or {}).items()]
