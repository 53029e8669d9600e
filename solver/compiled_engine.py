"""The compiled core's engine (solver/_search.pyx, solver/_chance.pyx): the methods of
:class:`solver.python_engine.Engine` on the game's kernels, where :func:`solver.engine.engine_of`
found them all. Each search runs on a kernel of its own, made afresh as it starts (a kernel keeps
caches, say Amazons' redeal bound, which one search must not hand the next), its moves coming
back as the kernel's codes, turned into the game's own moves here (:func:`decoded`); each win
counted is replayed through the rules, as on the Python engine.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import Any, NamedTuple

from solver import search
from solver.chance import Chance, ChanceStats, Concealed, Orders, OrderTally, Sampled, arranged
from solver.proofs import Proofs
from solver.protocol import GameRules, card_classes
from solver.python_engine import NATIVE, PythonEngine
from solver.relaxation import Relaxed
from solver.replay import IllegalLine, replay
from solver.result import NO_LIMITS, Limits, SearchResult

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


def compiled_chance() -> ModuleType | None:
    """The compiled sampling of a face-down stock (solver/_chance.pyx), where the core is used."""
    if compiled_core() is None:
        return None
    try:
        from solver import _chance
    except ImportError:
        return None
    return _chance


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


def decoded(game: Any, codes: Sequence[int]) -> tuple[Any, ...]:
    """A kernel's line of move codes as the game's own moves. A code names its move whatever the
    state (solver.protocol.Compiled.decode), so the line is not replayed here: replaying it in
    Python to decode it took most of a short search's time (self-working: 250 of 280 us a deal);
    solver.replay.checked replays it once, as the referee."""
    return tuple(map(game.decode, codes))


class ChanceKernels(NamedTuple):
    """What the compiled core judges a face-down stock by, where the rules tell cards apart by
    class only (solver.protocol.Classed): the class-keyed twin whose kernel keys the positions,
    and the classes (else None, None). No module is held: an engine pickles and copies as the
    rulesets do."""

    keyed: Any | None
    classes: bytes | None

    def keys(self) -> Any | None:
        """A fresh kernel of the class-keyed twin (None: positions keyed by card)."""
        return None if self.keyed is None else self.keyed.kernel()


def chance_kernels(rules: Any) -> ChanceKernels | None:
    """The compiled chance module and what ``rules`` needs there, where every kernel it takes
    imports; None where one is missing (a hand-made installation: the Python engine judges)."""
    if compiled_chance() is None or kernel_of(rules) is None:
        return None
    classed = card_classes(rules)
    if classed is None:
        return ChanceKernels(None, None)
    return None if kernel_of(classed[1]) is None else ChanceKernels(classed[1], classed[0])


class CompiledSearchEngine(PythonEngine):
    """The compiled core's full-information searches, the Python engine's judging of a face-down
    stock (whose searches are these): an installation without the compiled chance module."""

    name = NATIVE

    def __init__(self, rules: Any, searched: GameRules[Any, Any]) -> None:
        super().__init__(rules, searched)
        self.compiled: Any = searched  # the game searched, with its kernel (solver.protocol.Compiled)

    def depth_first(
        self, start: Any, *, limits: Limits = NO_LIMITS, restart_nodes: int | None = search.RESTART_NODES
    ) -> SearchResult[Any]:
        from solver import _search

        return self._search(_search.depth_first, start, limits, restart_nodes=restart_nodes)

    def iterative_deepening(self, start: Any, *, limits: Limits = NO_LIMITS) -> SearchResult[Any]:
        from solver import _search

        return self._search(_search.iterative_deepening, start, limits, restart_nodes=search.RESTART_NODES)

    def _search(self, run: Any, start: Any, limits: Limits, *, restart_nodes: int | None) -> SearchResult[Any]:
        result: SearchResult[Any] = run(
            self.compiled.kernel(),
            self.compiled.encode(start),
            max_nodes=limits.max_nodes,
            max_seconds=limits.max_seconds,
            max_memory=limits.max_memory,
            restart_nodes=restart_nodes,
        )
        return result._replace(best_line=decoded(self.searched, result.best_line))

    def proofs(self, limits: Limits) -> Proofs[Any, Any]:
        return _NativeProofs(self.searched, self.compiled.kernel(), limits)


class CompiledEngine(CompiledSearchEngine):
    """The compiled core for everything: its searches, and the face-down stock judged by
    solver/_chance.pyx on the rules' kernels (by class where the rules look at classes only, as
    the Python walk is)."""

    chance_name = NATIVE

    def __init__(self, rules: Any, searched: GameRules[Any, Any], judged: ChanceKernels) -> None:
        super().__init__(rules, searched)
        self.judged = judged

    def best_chance(
        self,
        position: Concealed,
        *,
        limits: Limits,
        with_moves: bool = False,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Chance:
        moves = tuple(self.rules.moves(position.state)) if with_moves else ()
        judged = self.judged
        chance, each, limit, stats = _chance_core().best_chance(
            self.rules.kernel(),
            self.compiled.kernel(),
            self.rules.encode(position.state),
            position.hidden,
            with_moves,
            **_limits(limits, restart_nodes),
            keys=judged.keys(),
            classes=judged.classes,
        )
        return Chance(chance, tuple(zip(moves, each)), limit, ChanceStats(*stats))

    def clairvoyant(
        self,
        position: Concealed,
        *,
        drawn: Orders,
        targets: Sequence[Hashable | None] = (None,),
        limits: Limits = NO_LIMITS,
        restart_nodes: int | None = search.RESTART_NODES,
        referee: bool = True,
        budget: int | None = None,
        floor: int = 1,
    ) -> Sampled:
        rules = self.rules
        moves = tuple(rules.moves(position.state)) if any(target is not None for target in targets) else ()
        indices = [0 if target is None else moves.index(target) + 1 for target in targets]

        def replayed(chosen: int, order: bytes, codes: tuple[int, ...]) -> None:
            """The referee: a win the compiled core found, replayed through the rules as it comes."""
            start = arranged(rules, position, list(order))
            target = targets[chosen]
            if target is not None:
                start = rules.apply(start, target)
            outcome = replay(self.searched, start, decoded(self.searched, codes))
            if outcome.illegal_at is not None or not self.searched.is_won(outcome.final):
                raise IllegalLine(f"internal error: an order's winning line does not win (order {list(order)})")

        counts, nodes, limit = _chance_core().hindsight(
            rules.kernel(),
            self.compiled.kernel(),
            rules.encode(position.state),
            position.hidden,
            drawn.samples,
            drawn.seed,
            drawn.exact,
            indices,
            replayed if referee else None,
            **_limits(limits, restart_nodes),
            budget=budget,
            floor=floor,
        )
        return Sampled(tuple(OrderTally(*count) for count in counts), nodes, limit)

    def relaxed(
        self,
        position: Concealed,
        *,
        drawn: Orders,
        reach: int,
        limits: Limits,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Relaxed:
        judged = self.judged
        total, done, limit, nodes = _chance_core().relaxed(
            self.rules.kernel(),
            self.compiled.kernel(),
            self.rules.encode(position.state),
            position.hidden,
            drawn.samples,
            drawn.seed,
            drawn.exact,
            reach,
            **_limits(limits, restart_nodes),
            keys=judged.keys(),
            classes=judged.classes,
        )
        return Relaxed(total / done if done else None, done, reach, limit, nodes)


def _chance_core() -> Any:
    """The compiled chance module (found importable when the engine was made)."""
    from solver import _chance

    return _chance


def _limits(limits: Limits, restart_nodes: int | None) -> dict[str, Any]:
    """The limits as the compiled core's functions take them, by keyword."""
    return {
        "max_nodes": limits.max_nodes,
        "max_seconds": limits.max_seconds,
        "max_memory": limits.max_memory,
        "restart_nodes": restart_nodes,
    }


class _NativeProofs(Proofs[Any, Any]):
    """The compiled engine's: floors and winnable states in its own tables, which its search
    reads as the Python engine reads the Python engine's (:class:`solver.proofs.PythonProofs`)."""

    def __init__(self, game: GameRules[Any, Any], kernel: Any, limits: Limits) -> None:
        super().__init__(game, limits)
        from solver import _table

        self.core: Any = compiled_core()
        self.kernel = kernel
        self._table = _table
        memory = _table.TableMemory(self.proof_bytes)
        self.floors = _table.DigestMap(memory)
        self.winnable = _table.DigestSet(memory)

    def digest(self, state: Any) -> int:
        return int(self._table.digest(self.game.key(state)))

    def search(self, start: Any, limits: Limits, restart_nodes: int | None) -> tuple[SearchResult[Any], Any]:
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
