"""Which engine searches: the compiled core (solver/_search.pyx) wherever it was built and the
game has a kernel, else the Python engine (solver.search), which stays the readable
specification and the fallback.

``PATIENCE_NO_EXTENSIONS`` set to anything but the empty string (the convention of multidict,
aiohttp, yarl and frozenlist) forces the Python engine. It is read at every search, so a program
or a test may switch engines as it goes. Either way a search answers a
:class:`~solver.result.SearchResult` in the game's own moves (the kernel's move codes turned back
by the ruleset's ``decode``, code by code), with ``engine`` naming the engine. A game whose
kernel does not import (an installation put together by hand may lack some) is searched by the
Python engine; solver.service.engines names the engine in use for ``patience --version``.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import Any, TypeVar

from solver import search
from solver.chance import Chance, ChanceStats, Concealed, Decide, OrderTally, Sampled, arranged, orders, unseen
from solver.chance import best_chance as chance_of
from solver.chance import hindsight as hindsight_of
from solver.proofs import Proofs, PythonProofs
from solver.protocol import Concealable, CostedRules, GameRules, card_classes
from solver.relaxation import Relaxed
from solver.relaxation import relaxed as relaxed_of
from solver.replay import IllegalLine, checked, replay
from solver.result import NO_LIMITS, Limits, SearchResult, Verdict

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

NATIVE, PYTHON = "native", "python"
#: The environment variable that forces the Python engine (and skips building the extensions).
NO_EXTENSIONS = "PATIENCE_NO_EXTENSIONS"


def compiled_core() -> ModuleType | None:
    """The compiled engine, or None where it was not built or NO_EXTENSIONS is set."""
    if os.environ.get(NO_EXTENSIONS):
        return None
    try:
        from solver import _search
    except ImportError:
        return None
    return _search


def kernel_of(game: Any) -> Any | None:
    """The game's compiled kernel where the compiled engine searches it, else None (no core
    built or wanted, or no kernel for this ruleset)."""
    make = getattr(game, "kernel", None)
    if make is None or compiled_core() is None:
        return None
    try:
        return make()
    except ImportError:
        return None


def engine_for(game: Any) -> str:
    """NATIVE or PYTHON: the engine that searches ``game``."""
    return PYTHON if kernel_of(game) is None else NATIVE


def expanded() -> int:
    """The states this process's searches have expanded so far on both engines (each counts at
    its looks at the limits, every 1,024 states): a display shows the growth between two looks."""
    core = compiled_core()
    return search.expanded() + (0 if core is None else core.expanded())


def decoded(game: Any, codes: Sequence[int]) -> tuple[Any, ...]:
    """A kernel's line of move codes as the game's own moves. A code names its move whatever the
    state (solver.protocol.Compiled.decode), so the line is not replayed here: replaying it in
    Python to decode it took most of a short search's time (self-working: 250 of 280 us a deal);
    solver.replay.checked replays it once, as the referee."""
    return tuple(map(game.decode, codes))


def depth_first(
    game: GameRules[State, Move],
    start: State,
    limits: Limits = NO_LIMITS,
    restart_nodes: int | None = search.RESTART_NODES,
) -> SearchResult[Move]:
    """:func:`solver.search.depth_first` on the engine :func:`engine_for` names."""
    kernel = kernel_of(game)
    core = compiled_core()
    if kernel is None or core is None:
        return search.depth_first(game, start, limits, restart_nodes)
    compiled: Any = game
    result: SearchResult[Any] = core.depth_first(
        kernel,
        compiled.encode(start),
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=restart_nodes,
    )
    return result._replace(best_line=decoded(game, result.best_line))


def iterative_deepening(game: CostedRules[State, Move], start: State, limits: Limits = NO_LIMITS) -> SearchResult[Move]:
    """:func:`solver.search.iterative_deepening` on the engine :func:`engine_for` names."""
    kernel = kernel_of(game)
    core = compiled_core()
    if kernel is None or core is None:
        return search.iterative_deepening(game, start, limits)
    compiled: Any = game
    result: SearchResult[Any] = core.iterative_deepening(
        kernel,
        compiled.encode(start),
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=search.RESTART_NODES,
    )
    return result._replace(best_line=decoded(game, result.best_line))


def decider(game: GameRules[Any, Any], restart_nodes: int | None = search.RESTART_NODES) -> Decide:
    """Full-information positions of ``game`` decided by :func:`depth_first`: True won, False
    lost, None a limit stopped it, with the states expanded. A win counts only once its line has
    replayed through the rules (solver.replay.checked), as every win the project reports."""

    def decide(state: Any, limits: Limits) -> tuple[bool | None, int]:
        result = depth_first(game, state, limits, restart_nodes)
        if result.verdict is Verdict.WON:
            checked(game, state, result)
        won = None if result.verdict is Verdict.UNKNOWN else result.verdict is Verdict.WON
        return won, result.stats.nodes

    return decide


def hindsight(
    rules: Concealable[Any, Any],
    searched: GameRules[Any, Any],
    position: Concealed,
    samples: int,
    seed: int,
    targets: Sequence[Hashable | None],
    limits: Limits = NO_LIMITS,
    restart_nodes: int | None = search.RESTART_NODES,
    referee: bool = True,
    budget: int | None = None,
    *,
    every: bool | None = None,
    floor: int = 1,
) -> Sampled:
    """:func:`solver.chance.hindsight` for each of ``targets`` (None: the position itself; else
    one of its legal moves in ``rules``, judged after it), on the engine :func:`engine_for` names
    for ``searched``, the orders drawn from ``seed`` (the start of a stream of solver.draws, the
    same on both engines) one at a time as they are searched. Every win counted has replayed
    through the rules. ``restart_nodes`` as :func:`depth_first` takes it (None: no restarts, so
    that a node limit cuts the same searches on both engines). Without ``referee`` the compiled
    core's wins are not replayed: for tallies that only rank a player's own choices, whose game
    is replayed as a whole (the replay was most of their cost). ``budget``, ``floor`` and
    ``every`` as :func:`solver.chance.hindsight` and :func:`solver.chance.orders` take them."""
    drawn = orders(unseen(rules, position), samples, seed, every=every)
    compiled = _chance_kernels(rules, searched)
    if compiled is None:
        return hindsight_of(rules, position, drawn, decider(searched, restart_nodes), limits, targets, budget, floor)
    core, kernel, search_kernel = compiled
    moves = tuple(rules.moves(position.state)) if any(target is not None for target in targets) else ()
    indices = [0 if target is None else moves.index(target) + 1 for target in targets]

    def replayed(chosen: int, order: bytes, codes: tuple[int, ...]) -> None:
        """The referee: a win the compiled core found, replayed through the rules as it comes."""
        start = arranged(rules, position, list(order))
        target = targets[chosen]
        if target is not None:
            start = rules.apply(start, target)
        outcome = replay(searched, start, decoded(searched, codes))
        if outcome.illegal_at is not None or not searched.is_won(outcome.final):
            raise IllegalLine(f"internal error: an order's winning line does not win (order {list(order)})")

    counts, nodes, limit = core.hindsight(
        kernel,
        search_kernel,
        rules.encode(position.state),  # type: ignore[attr-defined]  # a game with a kernel encodes
        position.hidden,
        samples,
        seed,
        drawn.exact,
        indices,
        replayed if referee else None,
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=restart_nodes,
        budget=budget,
        floor=floor,
    )
    return Sampled(tuple(OrderTally(*count) for count in counts), nodes, limit)


def chance_engine(rules: Any, searched: Any) -> str:
    """NATIVE or PYTHON: the engine that judges a face-down stock of ``rules`` (its
    full-information positions searched by ``searched``)."""
    return PYTHON if _chance_kernels(rules, searched) is None else NATIVE


def _chance_kernels(rules: Any, searched: Any) -> tuple[ModuleType, Any, Any] | None:
    """The compiled chance module and both games' kernels, where the compiled core searches them
    (else None: the Python engine does)."""
    core, kernel, search_kernel = compiled_chance(), kernel_of(rules), kernel_of(searched)
    if core is None or kernel is None or search_kernel is None:
        return None
    return core, kernel, search_kernel


def _classed_kernels(rules: Any, searched: Any) -> tuple[ModuleType, Any, Any, Any, bytes | None] | None:
    """:func:`_chance_kernels`, and where the rules tell cards apart by class only
    (solver.protocol.Classed) the class-keyed twin's kernel and the classes (else None, None),
    for the exact chance's walks; None where the Python engine walks (no kernel, or none for
    the class-keyed twin)."""
    compiled = _chance_kernels(rules, searched)
    classed = card_classes(rules)
    keys = None if classed is None else kernel_of(classed[1])
    if compiled is None or (classed is not None and keys is None):
        return None
    return (*compiled, keys, None if classed is None else classed[0])


def compiled_chance() -> ModuleType | None:
    """The compiled sampling of a face-down stock (solver/_chance.pyx), where the core is used."""
    if compiled_core() is None:
        return None
    try:
        from solver import _chance
    except ImportError:
        return None
    return _chance


def best_chance(
    rules: Concealable[Any, Any],
    searched: GameRules[Any, Any],
    position: Concealed,
    limits: Limits,
    with_moves: bool = False,
    restart_nodes: int | None = search.RESTART_NODES,
) -> Chance:
    """:func:`solver.chance.best_chance` (with every move of the position, ``with_moves``) on the
    engine :func:`engine_for` names for ``searched``; its full-information positions decided by
    ``searched``'s search (``restart_nodes`` as :func:`depth_first` takes it)."""
    moves = tuple(rules.moves(position.state)) if with_moves else ()
    compiled = _classed_kernels(rules, searched)
    if compiled is None:
        return chance_of(rules, position, decider(searched, restart_nodes), limits, moves)
    core, kernel, search_kernel, keys, classes = compiled
    chance, judged, limit, stats = core.best_chance(
        kernel,
        search_kernel,
        rules.encode(position.state),  # type: ignore[attr-defined]  # a game with a kernel encodes
        position.hidden,
        with_moves,
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=restart_nodes,
        keys=keys,  # by class (solver.protocol.Classed), as the Python walk is
        classes=classes,
    )
    return Chance(chance, tuple(zip(moves, judged)), limit, ChanceStats(*stats))


def relaxed(
    rules: Concealable[Any, Any],
    searched: GameRules[Any, Any],
    position: Concealed,
    samples: int,
    seed: int,
    reach: int,
    limits: Limits,
    restart_nodes: int | None = search.RESTART_NODES,
    *,
    every: bool | None = None,
) -> Relaxed:
    """:func:`solver.relaxation.relaxed` over every order of the position's face-down cards
    where there are at most ``samples``, else ``samples`` drawn from ``seed`` (as
    :func:`hindsight` draws them; ``every`` as :func:`solver.chance.orders` takes it), on the
    engine :func:`engine_for` names for ``searched``."""
    drawn = orders(unseen(rules, position), samples, seed, every=every)
    compiled = _classed_kernels(rules, searched)
    if compiled is None:
        return relaxed_of(rules, position, drawn, decider(searched, restart_nodes), reach, limits)
    core, kernel, search_kernel, keys, classes = compiled
    total, done, limit, nodes = core.relaxed(
        kernel,
        search_kernel,
        rules.encode(position.state),  # type: ignore[attr-defined]  # a game with a kernel encodes
        position.hidden,
        samples,
        seed,
        drawn.exact,
        reach,
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=restart_nodes,
        keys=keys,
        classes=classes,
    )
    return Relaxed(total / done if done else None, done, reach, limit, nodes)


def proofs_for(game: GameRules[State, Move], limits: Limits) -> Proofs[State, Move]:
    """What one hint's searches of ``game`` prove, kept for the later ones, on the engine
    :func:`engine_for` names (see :mod:`solver.proofs`)."""
    kernel = kernel_of(game)
    return PythonProofs(game, limits) if kernel is None else _NativeProofs(game, kernel, limits)


class _NativeProofs(Proofs[State, Move]):
    """The compiled engine's: floors and winnable states in its own tables, which its search
    reads as the Python engine reads the Python engine's (:class:`solver.proofs.PythonProofs`)."""

    def __init__(self, game: GameRules[State, Move], kernel: Any, limits: Limits) -> None:
        super().__init__(game, limits)
        from solver import _table

        self.core: Any = compiled_core()
        self.kernel = kernel
        self._table = _table
        memory = _table.TableMemory(self.proof_bytes)
        self.floors = _table.DigestMap(memory)
        self.winnable = _table.DigestSet(memory)

    def digest(self, state: State) -> int:
        return int(self._table.digest(self.game.key(state)))

    def search(self, start: State, limits: Limits, restart_nodes: int | None) -> tuple[SearchResult[Move], Any]:
        compiled: Any = self.game
        table = self._table.DigestSet(self._table.TableMemory(self.search_bytes))
        result: SearchResult[Any] = self.core.depth_first(
            self.kernel,
            compiled.encode(start),
            max_nodes=limits.max_nodes,
            max_seconds=limits.max_seconds,
            restart_nodes=restart_nodes,
            table=table,
            floors=self.floors,
            wins=self.winnable,
            win_score=self.win_score,
        )
        return result._replace(best_line=decoded(self.game, result.best_line)), table

    def _winnable(self, digest: int) -> None:
        self.winnable.insert(digest)

    def _raise_floors(self, searched: Any, least: int) -> None:
        self.floors.raise_all(searched, least)
