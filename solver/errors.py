"""Every error this package raises for a caller to handle, in one place (``from solver.errors
import MoveError``), each defined here and re-exported where it is raised.

:class:`UserError` is the base of every error a user can fix by changing what they asked for;
the command line prints such an error as one line, ``patience: error: ...``, and exits with 2.
:class:`RunLost` is not one: a survey whose workers or scheduler went away is no bad value of the
caller's (the command line exits with 75, and rerunning carries on). Anything else that escapes
is a bug and is reported as an internal error. This module imports nothing of the package, so
the engine, the rulesets and the command line can all raise from it.
"""

from __future__ import annotations

import errno

__all__ = [
    "UserError",
    "CardError",
    "DealError",
    "MoveError",
    "UnreadableMove",
    "PositionError",
    "OptionError",
    "LimitError",
    "ArgumentTypeError",
    "UsageError",
    "InputError",
    "OutputError",
    "SurveyError",
    "SurveyBusy",
    "StoreFault",
    "RunLost",
    "SchedulerLost",
    "WorkerLost",
]


class UserError(ValueError):
    """Bad input: a card, deal, move, position, option, limit, file or argument the user can fix.

    The message names what is wrong and how to put it right, in one line.
    """


# --- the games: cards, deals, moves, positions, options --------------------------------------


class CardError(UserError):
    """A card, or a deal of cards, that cannot be read or is not the game's deck."""


class DealError(CardError):
    """A deal that does not carry the game's end cards where the layout needs them (Royal
    Marriage and its relatives)."""


class MoveError(UserError):
    """A move written in a form the game cannot read, naming cards that are not in play, or not
    legal where it is played."""


class UnreadableMove(MoveError):
    """A text in no form of move the game knows, or naming a card no deck has: not a move at all,
    as opposed to a move that cannot be made where it is played."""


class PositionError(UserError):
    """A position that cannot be read, or that no play of the game could ever hold."""


class OptionError(UserError):
    """An unknown game, variant or option, or an option value the game does not accept."""


# --- the searches and the arguments they are given ------------------------------------------


class LimitError(UserError):
    """A search limit that is not a positive, finite number."""


class ArgumentTypeError(UserError, TypeError):
    """An argument of the Python API of the wrong type (a TypeError too, as Python's own would
    be): its message says which argument and what it takes."""


class UsageError(UserError):
    """An argument the command line itself refuses: an unknown or missing argument or flag, a
    value of the wrong kind, arguments that do not go together, a file that cannot be read."""


# --- files, and surveys ------------------------------------------------------------------------


class InputError(UserError):
    """A file (or standard input) that cannot be read, or is not text: a NUL byte, bytes that are
    not UTF-8, a line longer than any this program writes."""


class OutputError(UserError):
    """A file a command writes (an export, a plot, a replay page) that cannot be written; the
    file that was there is left as it was."""


class SurveyError(UserError):
    """A survey that cannot run or be read: bad seed ranges, a foreign, damaged or mismatched file,
    a missing extra (Dask, matplotlib), an unreachable scheduler."""


class SurveyBusy(SurveyError):
    """Another survey is writing the survey file: a second writer would solve its deals again."""


class StoreFault(SurveyError):
    """The survey file failed (disk full, read-only, damaged, I/O error): ``what`` happened and
    the ``fix``, so that a survey can say how many deals it had stored by then, and whether
    rerunning once fixed carries on (``resumable``: not for a damaged file)."""

    def __init__(self, path: object, what: str, fix: str, resumable: bool = True) -> None:
        super().__init__(f"{path}: {what}; {fix}")
        self.path, self.what, self.fix, self.resumable = path, what, fix, resumable

    def __reduce__(self) -> tuple[type[StoreFault], tuple[object, str, str, bool]]:
        # An exception pickles as its class and args (the one message here): rebuild from the parts.
        return (type(self), (self.path, self.what, self.fix, self.resumable))


class RunLost(RuntimeError):
    """What solved a survey's deals went away mid-survey: the deals stored so far are kept, and
    rerunning the same call carries on. Not a :class:`UserError` (nothing the caller gave was
    wrong; a RuntimeError, as concurrent.futures' BrokenProcessPool is); the command line exits
    with 75, a temporary failure."""


class SchedulerLost(RunLost):
    """The Dask scheduler went away mid-survey."""


class WorkerLost(RunLost):
    """A worker process of the pool died mid-survey (killed, out of memory, or unable to start)."""


#: What the system may refuse of a file or a stream the user chose, and how to fix it: the user's
#: to mend (exit code 2), not a bug.
SYSTEM_REFUSALS = {
    errno.ENOSPC: "free some space, or write elsewhere",
    errno.EDQUOT: "free some space, or write elsewhere",
    errno.EFBIG: "write elsewhere",
    errno.EIO: "check the disk, or write elsewhere",
    errno.ENAMETOOLONG: "give a shorter name",
    errno.EACCES: "give a file you may use",
    errno.EPERM: "give a file you may use",
    errno.EROFS: "write elsewhere",
    errno.ENOENT: "give a file in a directory that exists",
    errno.ENOTDIR: "give a file in a directory that exists",
    errno.EISDIR: "give a file name, not a directory",
    errno.ELOOP: "give a name without a loop of links",
}
