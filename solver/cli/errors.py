"""How every command meets bad input: one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Turn a user's bad input (any ValueError or OSError) into one line on stderr and exit code 2."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("patience: interrupted (what was printed stands)", err=True)
            raise typer.Exit(130) from None
        except (ValueError, OSError) as error:
            typer.echo(f"patience: error: {error}", err=True)
            raise typer.Exit(2) from None

    return run  # type: ignore[return-value]
