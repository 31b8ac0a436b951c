"""The ``guts`` command line: the Typer app and its entry point.

Each command lives in a module of :mod:`guts.commands`, named for its concern; the
everyday ones (hands, the games, play, replays) come first in ``guts --help``. Every error
a user can cause prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from guts.commands import register_all
from guts.commands.common import parse_key_values
from guts.commands.play import check_writable
from guts.errors import GutsError

__all__ = ["app", "main", "parse_key_values"]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Guts, match-the-pot games, draw poker and Bourré: rankings, censuses and play.",
)

FIRST = ("hands", "catalog", "play", "histories")
"""The modules of :mod:`guts.commands` whose commands lead ``guts --help``, in order:
eval and compare, games and rules, play, replay and export."""

register_all(app, first=FIRST)

_check_writable = check_writable  # the --history check, as the CLI's tests name it


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; user errors print one line on stderr and exit with status 2."""
    try:
        result = app(
            args=list(argv) if argv is not None else None,
            prog_name="guts",
            standalone_mode=False,
        )
    except GutsError as error:
        print(f"guts: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except typer.TyperException as error:  # usage errors: bad flags, missing arguments
        message = " ".join(error.format_message().split())
        if not message:  # plain `guts`: the help was shown
            raise SystemExit(0) from None
        print(f"guts: {message} (see guts --help)", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if isinstance(result, int) and result:
        raise SystemExit(result)
