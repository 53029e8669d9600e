"""Playing a deal or a position to its end with a player that cannot see the stock
(:mod:`solver.players`), and the record of the game: its moves as the rules write them (a deal
naming the cards it turned up), whether it was won, its score and the CPU it took."""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from rulesets.cards import Card, format_cards
from rulesets.concealed import is_concealable, write_concealed
from rulesets.dealt import named_deal
from solver.chance import Concealed, arranged, unseen
from solver.draws import FACE_DOWN_ORDER, Draw, stream
from solver.errors import OptionError
from solver.players import PLAYERS, SEARCHING, CarefulPlayer, Player, play_out
from solver.protocol import NO_SCORE
from solver.service.chances import check_draw
from solver.service.setup import Setup

#: The orders the sampling player draws for each move unless ``--samples`` says otherwise: on
#: the compiled core about half a CPU second a Parlett deal (docs/players.md).
PLAYER_SAMPLES = 100
#: The seed of a player's draws unless ``--rng-seed`` says otherwise.
DEFAULT_RNG_SEED = 1


def make_player(
    name: str, samples: int | None = None, rng_seed: int | None = None, *, order_drawn: bool = False
) -> Player:
    """A fresh player (one plays one game) named ``name``; ``samples`` only for those that draw
    orders, ``rng_seed`` only for those that draw at all (or where it draws a position's
    face-down order: ``order_drawn``). An OptionError names what is wrong."""
    if name not in PLAYERS:
        raise OptionError(f"no player {name!r}: choose one of {', '.join(PLAYERS)} (e.g. --player sampling)")
    if samples is not None and name not in SEARCHING:
        raise OptionError(f"--samples sets the orders the sampling player draws; the {name} player draws none")
    if rng_seed is not None and name == CarefulPlayer.name and not order_drawn:
        raise OptionError(
            "--rng-seed seeds the random and sampling players' draws (and the order of a position's "
            "face-down cards); the careful player draws nothing: leave it out"
        )
    samples = PLAYER_SAMPLES if samples is None else samples
    rng_seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    check_draw(samples, rng_seed)
    player: Player = PLAYERS[name](samples, rng_seed)
    return player


class Opening(NamedTuple):
    """Where a game starts: the state (its stock in the true order), how many of its stock's
    cards lie face down, what the record names it by (a seed, a deal, or a position), and the
    ``--rng-seed`` a position's face-down order was drawn from (None where none was drawn)."""

    start: Any
    hidden: int
    seed: int | None = None
    deal: list[Card] | None = None
    position: str | None = None
    order_seed: int | None = None


def dealt(setup: Setup, cards: list[Card], seed: int | None = None) -> Opening:
    """A deal as it is laid out at the table: its whole stock face down."""
    start = setup.legal.start(cards)
    hidden = len(setup.legal.stock(start)) if is_concealable(setup.legal) else 0  # type: ignore[attr-defined]
    return Opening(start, hidden, seed, cards)


def placed(setup: Setup, position: Concealed, rng_seed: int | None) -> Opening:
    """A position as written: the cards in braces face down, in an order drawn from the
    face-down order's stream of ``rng_seed`` (one of the orders a player at that position may
    face; the player's own draws are other streams of it, independent of this one), every other
    card face up."""
    rules: Any = setup.legal
    text = write_concealed(rules, position)
    if not position.hidden:
        return Opening(position.state, 0, position=text)
    seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    order = Draw(stream(FACE_DOWN_ORDER, seed)).shuffled(unseen(rules, position))
    return Opening(arranged(rules, position, order), position.hidden, position=text, order_seed=seed)


class PlayedGame(NamedTuple):
    """One game played: the moves as written (deals naming the cards they turned up), its end,
    the CPU seconds the player took, and whether a move was left at the end (every one of them
    bringing back a position already reached)."""

    setup: Setup
    opening: Opening
    player: Player
    moves: tuple[str, ...]
    won: bool
    score: int | None
    seconds: float
    repeating: bool = False
    #: The positions the player saw: the opening, then one after each move.
    seen: tuple[Concealed, ...] = ()

    def record(self) -> dict[str, Any]:
        """The JSON record of ``play --json`` (and a survey's row of a player)."""
        setup, opening = self.setup, self.opening
        return {
            "game": setup.family.name,
            "variant": setup.variant,
            "options": dict(setup.settings),
            "seed": opening.seed,
            "deal": None if opening.deal is None else format_cards(opening.deal),
            "position": opening.position,
            "order_seed": opening.order_seed,
            "player": self.player.name,
            "settings": self.player.settings(),
            "engine": self.engine(),
            "won": self.won,
            "score": self.score,
            "moves": list(self.moves),
            "seconds": round(self.seconds, 6),
        }

    def engine(self) -> str | None:
        """The engine the player's searches ran on (None: a player that searches nothing)."""
        if self.player.name not in SEARCHING:
            return None
        setup = self.setup
        return setup.engine.chance_name if is_concealable(setup.legal) else setup.engine.name


def player_text(name: str, settings: dict[str, Any]) -> str:
    """A player as a record's reader names it: ``sampling (samples 100, rng_seed 1)``."""
    written = ", ".join(f"{setting} {value}" for setting, value in settings.items())
    return name + (f" ({written})" if written else "")


def play(setup: Setup, opening: Opening, player: Player) -> PlayedGame:
    """Play ``opening`` to its end with ``player``; the moves are written as the rules write them
    in the true state (which the player never saw), each deal naming the cards it turned up."""
    began = time.process_time()
    played = play_out(setup.engine, opening.start, opening.hidden, player=player)
    seconds = time.process_time() - began
    texts = tuple(named_deal(setup.legal, state, move) for state, move in played.moves)
    score = setup.legal.score(played.final)
    repeating = bool(setup.legal.moves(played.final)) and not played.won
    return PlayedGame(
        setup, opening, player, texts, played.won, None if score == NO_SCORE else score, seconds, repeating, played.seen
    )
