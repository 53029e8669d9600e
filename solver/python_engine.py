"""The engine interface (:class:`Engine`: a game's searches, with the game's rules and the game it
searches, whose methods take a position and keyword-only options), and its Python
implementation (:class:`PythonEngine`): :mod:`solver.search`, :mod:`solver.chance` and
:mod:`solver.relaxation`, the readable specification and the fallback. The compiled core's is in
:mod:`solver.compiled_engine`; :func:`solver.engine.engine_of` chooses between them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from solver import search
from solver.chance import Chance, Concealed, Decide, Orders, Sampled
from solver.chance import best_chance as chance_of
from solver.chance import hindsight as hindsight_of
from solver.proofs import Proofs, PythonProofs
from solver.protocol import CostedRules, GameRules
from solver.relaxation import Relaxed
from solver.relaxation import relaxed as relaxed_of
from solver.replay import checked
from solver.result import NO_LIMITS, Limits, SearchResult, Verdict

#: The engines' names, as records write them.
NATIVE, PYTHON = "native", "python"


class Engine:
    """A game's searches, on the engine chosen for it when it was made (:func:`engine_of`).

    ``rules`` lists a player's legal moves (and, with a stock, reads and rearranges it:
    :class:`solver.protocol.Concealable`); ``searched`` is the game the full-information searches
    walk (the rules with their reductions: the same object where none prune a move). ``name``
    is the engine that searches the game, ``chance_name`` the one that judges a face-down stock
    (they differ only where a hand-made installation lacks the compiled chance module)."""

    name = PYTHON
    chance_name = PYTHON

    def __init__(self, rules: Any, searched: GameRules[Any, Any]) -> None:
        self.rules, self.searched = rules, searched

    def __eq__(self, other: object) -> bool:
        """Engines are alike where they are of one kind over the same rules and game."""
        return type(self) is type(other) and (self.rules, self.searched) == (other.rules, other.searched)

    def __hash__(self) -> int:
        return hash((type(self).__name__, id(self.rules), id(self.searched)))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {type(self.searched).__name__}>"

    def depth_first(
        self, start: Any, *, limits: Limits = NO_LIMITS, restart_nodes: int | None = search.RESTART_NODES
    ) -> SearchResult[Any]:
        """The game searched from ``start``: :func:`solver.search.depth_first`."""
        raise NotImplementedError

    def iterative_deepening(self, start: Any, *, limits: Limits = NO_LIMITS) -> SearchResult[Any]:
        """The fewest-cost win from ``start``: :func:`solver.search.iterative_deepening`."""
        raise NotImplementedError

    def proofs(self, limits: Limits) -> Proofs[Any, Any]:
        """What one hint's searches prove, kept for the later ones (:mod:`solver.proofs`)."""
        raise NotImplementedError

    def decider(self, restart_nodes: int | None = search.RESTART_NODES) -> Decide:
        """Full-information positions decided by :meth:`depth_first`: True won, False lost, None a
        limit stopped it, with the states expanded. A win counts only once its line has replayed
        through the rules (solver.replay.checked), as every win the project reports."""

        def decide(state: Any, limits: Limits) -> tuple[bool | None, int]:
            result = self.depth_first(state, limits=limits, restart_nodes=restart_nodes)
            if result.verdict is Verdict.WON:
                checked(self.searched, state, result)
            won = None if result.verdict is Verdict.UNKNOWN else result.verdict is Verdict.WON
            return won, result.stats.nodes

        return decide

    def best_chance(
        self,
        position: Concealed,
        *,
        limits: Limits,
        with_moves: bool = False,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Chance:
        """:func:`solver.chance.best_chance` (with every move of the position, ``with_moves``),
        its full-information positions decided by :meth:`depth_first`."""
        raise NotImplementedError

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
        """The clairvoyant share: :func:`solver.chance.hindsight` over the orders ``drawn``, for
        each of ``targets`` (None: the position itself; else one of its legal moves, judged after
        it), all on the same orders, one at a time as they are searched. Every win counted has
        replayed through the rules, but, without ``referee``, the compiled core's (for tallies
        that only rank a player's own choices, whose game is replayed as a whole: the replay was
        most of their cost). ``restart_nodes`` as :meth:`depth_first` takes it (None: no
        restarts, so that a node limit cuts the same searches on both engines); ``budget`` and
        ``floor`` as :func:`solver.chance.hindsight` takes them."""
        raise NotImplementedError

    def relaxed(
        self,
        position: Concealed,
        *,
        drawn: Orders,
        reach: int,
        limits: Limits,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Relaxed:
        """:func:`solver.relaxation.relaxed` over the orders ``drawn``, V exact within ``reach``."""
        raise NotImplementedError


class PythonEngine(Engine):
    """The Python engine: :mod:`solver.search`, :mod:`solver.chance` and :mod:`solver.relaxation`."""

    def depth_first(
        self, start: Any, *, limits: Limits = NO_LIMITS, restart_nodes: int | None = search.RESTART_NODES
    ) -> SearchResult[Any]:
        return search.depth_first(self.searched, start, limits, restart_nodes=restart_nodes)

    def iterative_deepening(self, start: Any, *, limits: Limits = NO_LIMITS) -> SearchResult[Any]:
        costed: CostedRules[Any, Any] = self.searched  # type: ignore[assignment]  # a game with redeals costs moves
        return search.iterative_deepening(costed, start, limits)

    def proofs(self, limits: Limits) -> Proofs[Any, Any]:
        return PythonProofs(self.searched, limits)

    def best_chance(
        self,
        position: Concealed,
        *,
        limits: Limits,
        with_moves: bool = False,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Chance:
        moves = tuple(self.rules.moves(position.state)) if with_moves else ()
        return chance_of(self.rules, position, self.decider(restart_nodes), limits=limits, moves=moves)

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
        decide = self.decider(restart_nodes)
        return hindsight_of(
            self.rules, position, drawn, decide=decide, limits=limits, targets=targets, budget=budget, floor=floor
        )

    def relaxed(
        self,
        position: Concealed,
        *,
        drawn: Orders,
        reach: int,
        limits: Limits,
        restart_nodes: int | None = search.RESTART_NODES,
    ) -> Relaxed:
        return relaxed_of(self.rules, position, drawn, decide=self.decider(restart_nodes), reach=reach, limits=limits)
