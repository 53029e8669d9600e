"""The one base of every error a user can fix by changing what they asked for.

The command line prints such an error as one line, ``patience: error: ...``, and exits with 2;
anything else that escapes is a bug and is reported as an internal error.
"""

from __future__ import annotations


class UserError(ValueError):
    """Bad input: a card, deal, move, position, option, limit, file or argument the user can fix.

    The message names what is wrong and how to put it right, in one line.
    """
