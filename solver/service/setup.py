"""What a solve is given: a game named by the user (game or variant, options) built into its
ruleset, the deals of that game, and the limits of the search."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from rulesets import find_game
from rulesets.cards import Card, CardError
from rulesets.concealed import is_face_down, read_concealed
from rulesets.deals import MAX_SEED, read_deal
from rulesets.family import Costs, Family, OptionError, Ruleset
from solver.chance import Concealed
from solver.engine import Engine, engine_of
from solver.errors import PositionError
from solver.result import Limits


class Setup(NamedTuple):
    """A game family with its variant and option values fixed, and the rulesets they build: the
    one searched (``game``) and the one listing every legal move (``legal``, for hints and
    verify; the same ruleset where the search prunes no move)."""

    family: Family
    variant: str
    settings: dict[str, Any]
    game: Ruleset[Any, Any]
    legal: Ruleset[Any, Any]
    #: The engine that searches ``game`` and judges ``legal``'s face-down stocks, chosen once
    #: (solver.engine.engine_of: PATIENCE_NO_EXTENSIONS is read when the setup is made).
    engine: Engine

    @classmethod
    def of(cls, name: str, variant: str | None = None, options: Sequence[str] = ()) -> Setup:
        """The setup for a game or variant name, an optional variant and ``name=value`` options."""
        family, implied = find_game(name)
        if variant is not None and implied is not None and family.variant(variant).name != implied:
            raise OptionError(f"game {name!r} is itself a variant; drop --variant {variant}")
        chosen = family.variant(implied if variant is None else variant).name
        settings = family.settings(chosen, options)
        game = family.build(settings)
        legal = game if family.build_legal is None else family.build_legal(settings)
        return cls(family, chosen, settings, game, legal, engine_of(legal, game))

    def costs(self) -> Costs:
        """What the preset's face-down answers were measured to cost (rulesets.family.Costs): a
        game with a stock declares them with its variants."""
        costs = self.family.variant(self.variant).costs
        if costs is None:
            raise AssertionError(
                f"internal error: the preset {self.variant} declares no costs, and a face-down stock needs them"
            )
        return costs

    def title(self) -> str:
        """The game as a printout or a replay page names it: its family and variant, then each
        option set apart from the variant's preset, as ``--option`` takes it (``accordion
        (parlett; compulsory=no)``), so that the rules a line was solved under are never hidden."""
        changed = self.family.beyond(self.variant, self.settings)
        rules = self.variant + (f"; {', '.join(changed)}" if changed else "")
        return f"{self.family.name} ({rules})"

    def deal(self, seed: int | None = None, text: str | None = None) -> list[Card]:
        """The deal for ``--seed`` or ``--deal`` text, checked against the game's deck (the rules'
        own checks of a written deal, say Royal Marriage's end cards, run in ``game.start``)."""
        if seed is not None:
            if not 1 <= seed <= MAX_SEED:  # said here: the rulesets' message writes the number out
                raise CardError(f"seed {number_text(seed)} is out of range: game numbers run from 1 to {MAX_SEED}")
            return self.family.seeded_deal(seed)
        assert text is not None
        return read_deal(text, self.family.deck())

    def position(self, text: str) -> Any:
        """The state written as a position (``--position``), checked by the game's rules; every
        card must be known here (a face-down stock is read by :meth:`concealed`)."""
        if is_face_down(text):
            raise PositionError(
                "braces mark a face-down stock, which only 'solve --position', 'hint --position' and "
                "'play --position' take (one position at a time): write every card of the stock here, in order"
            )
        with self._named():
            return self.game.read_position(text)

    def concealed(self, text: str) -> Concealed:
        """The position written as ``text``, face-down cards in braces (none without)."""
        with self._named():
            return read_concealed(self.family, self.legal, self.title(), text)

    @contextmanager
    def _named(self) -> Iterator[None]:
        """A position refused names the game as the user named it (``the parlett
        position``), not only its family, as the rulesets' messages do."""
        try:
            yield
        except PositionError as error:
            family = rf"\bthe {re.escape(self.family.name)} position"
            raise PositionError(re.sub(family, f"the {self.variant} position", str(error), flags=re.I)) from None


#: The most states a search may be told to expand (a signed 64-bit count, as the compiled engine keeps it).
MAX_NODES = 2**63 - 1
MIN_MEMORY = 64 * 1024
MAX_MEMORY = 2**63 - 1  # beyond any machine, and the largest integer a survey file stores
# The digits 0-9 only, as every number (\d and \s would take other scripts' digits and spaces).
_SIZE = re.compile(r"^ *([0-9]+(?:\.[0-9]+)?) *([kmgt]?)i?b? *$", re.IGNORECASE | re.ASCII)


def parse_size(text: str) -> int:
    """A memory size such as ``512M``, ``2G`` or ``1000000`` (bytes); any number of digits."""
    found = _SIZE.match(text)
    shown = text if len(text) <= 24 else text[:12] + "..."
    if not found:
        raise OptionError(f"cannot read memory size {shown!r}: write e.g. 500M or 2G in the digits 0-9")
    if len(found.group(1)) > 40:  # beyond any size, and int() of 4,300 digits fails
        raise OptionError(f"memory size {shown!r} is too large: the most is 2**63 - 1 bytes; write e.g. 500M or 2G")
    scale = 1024 ** " kmgt".index((found.group(2) or " ").lower())
    whole, _, decimals = found.group(1).partition(".")
    size = int(whole + decimals) * scale // 10 ** len(decimals)  # exact: a float would overflow on 400 digits
    if size > MAX_MEMORY:
        raise OptionError(f"memory size {shown!r} is too large: the most is 2**63 - 1 bytes; write e.g. 500M or 2G")
    if size < MIN_MEMORY:
        raise OptionError(f"memory size {text!r} is too small: the table needs at least 64K")
    return size


def number_text(value: int) -> str:
    """A whole number as a message writes it: in full, or, when longer than a line (and than
    Python writes: 4,300 digits), by its count of digits."""
    if abs(value) < 10**30:
        return str(value)
    return f"{'-' if value < 0 else ''}a number of {int(math.log10(abs(value))) + 1} digits"


def _seconds(value: float) -> float:
    """``--max-seconds`` as a float; a whole number beyond any float (from Python) is refused."""
    try:
        return float(value)
    except OverflowError:
        raise OptionError(
            "--max-seconds must be positive and finite, not a number beyond any float; leave it out for no limit"
        ) from None


def limits(max_nodes: int | None, max_seconds: float | None, max_memory: str | None) -> Limits:
    """The search limits as the user writes them (the memory bound as text, e.g. ``2G``; None:
    no bound): each a positive, finite number, or an OptionError saying which is not."""
    for name, value in (("--max-nodes", max_nodes), ("--max-seconds", max_seconds)):
        if value is not None and not 0 < value < math.inf:
            shown = number_text(value) if isinstance(value, int) else value
            raise OptionError(f"{name} must be positive and finite, not {shown}; leave it out for no limit")
    if max_nodes is not None and max_nodes > MAX_NODES:
        raise OptionError(
            f"--max-nodes {number_text(max_nodes)} is too large: the most is 2**63 - 1; leave it out for no limit"
        )
    # Seconds as a float whatever was given (5 or 5.0): a survey's file records its limits, and a
    # run from Python with 5 must resume one from the command line's --max-seconds 5 (5.0).
    seconds = None if max_seconds is None else _seconds(max_seconds)
    return Limits(
        max_nodes=max_nodes, max_seconds=seconds, max_memory=None if max_memory is None else parse_size(max_memory)
    )
