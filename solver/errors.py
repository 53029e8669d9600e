"""The one base of every error a user can fix by changing what they asked for.

The command line prints such an error as one line, ``patience: error: ...``, and exits with 2;
anything else that escapes is a bug and is reported as an internal error.
"""

from __future__ import annotations

import errno


class UserError(ValueError):
    """Bad input: a card, deal, move, position, option, limit, file or argument the user can fix.

    The message names what is wrong and how to put it right, in one line.
    """


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
