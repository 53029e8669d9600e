"""The service's own user errors: a survey that cannot run, be stored or be read, an input that
cannot be read, and an output that cannot be written."""

from __future__ import annotations

from solver.errors import UserError


class SurveyError(UserError):
    """A survey that cannot run or be read: bad seed ranges, a foreign, damaged or mismatched file,
    a missing extra (Dask, matplotlib), an unreachable scheduler."""


class SurveyBusy(SurveyError):
    """Another survey is writing the survey file: a second writer would solve its deals again."""


class InputError(UserError):
    """A file (or standard input) that cannot be read, or is not text: a NUL byte, bytes that are
    not UTF-8, a line longer than any this program writes."""


class OutputError(UserError):
    """A file a command writes (an export, a plot, a replay page) that cannot be written; the
    file that was there is left as it was."""


class StoreFault(SurveyError):
    """The survey file failed (disk full, read-only, damaged, I/O error): ``what`` happened and
    the ``fix``, so that a survey can say how many deals it had stored by then, and whether
    rerunning once fixed carries on (``resumable``: not for a damaged file)."""

    def __init__(self, path: object, what: str, fix: str, resumable: bool = True) -> None:
        super().__init__(f"{path}: {what}; {fix}")
        self.path, self.what, self.fix, self.resumable = path, what, fix, resumable


class RunLost(SurveyError):
    """What solved a survey's deals went away mid-survey: the deals stored so far are kept, and
    rerunning the same command carries on. The command line exits with 75, a temporary failure."""


class SchedulerLost(RunLost):
    """The Dask scheduler went away mid-survey."""


class WorkerLost(RunLost):
    """A worker process of the pool died mid-survey (killed, out of memory, or unable to start)."""
