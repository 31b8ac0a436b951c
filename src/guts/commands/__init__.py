"""The ``guts`` subcommands that live in a module of their own, one module per command
group (``census``, ``simulate``, ``server`` ...).

Each such module defines ``register(app)``, which adds its commands to the Typer app;
:func:`register_all` finds them, so a new command is a new module here and nothing else.
Modules import their heavy dependencies inside the command, so ``guts --help`` stays fast.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["register_all"]


def register_all(app: typer.Typer, first: Sequence[str] = ()) -> None:
    """Add the commands of every module of this package that has a ``register``: the
    modules named in ``first`` in that order, then the others by name (``guts --help``
    lists commands in the order they were added)."""
    rest = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in first)
    for name in [*first, *rest]:
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
