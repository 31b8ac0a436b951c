"""``guts join JOIN_URL --name Jo``: play a seat of a web table from the terminal."""

from __future__ import annotations

from typing import Annotated

import typer

from guts.commands.common import console


def join_command(
    join_url: Annotated[str, typer.Argument(help="The table's join link (from guts host).")],
    name: Annotated[str, typer.Option("--name", help="Your nickname at the table.")] = "",
    buy_in: Annotated[
        int | None, typer.Option("--buy-in", help="Chips to buy in for (the table's if left out).")
    ] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Watch without taking a seat.")] = False,
) -> None:
    """Play a seat of a web table from the terminal (answers from standard input; the
    end of input, Ctrl-D, leaves the seat and cashes out at the next deal boundary). The
    seat's device token is kept in the user data directory: stopped (Ctrl-C) or cut off
    and run again with the same link and nickname, it takes up the same seat."""
    from guts.client.terminal import TableClient
    from guts.client.tokens import SeatTokens
    from guts.errors import OptionError

    if not watch and not name.strip():
        raise OptionError("--name: give your nickname at the table (or --watch)")
    if buy_in is not None and buy_in < 1:
        raise OptionError(f"--buy-in must be at least 1, not {buy_in}")
    client = TableClient(join_url, name, buy_in=buy_in, watch=watch, console=console,
                         tokens=SeatTokens())  # fmt: skip
    try:
        client.run()
    except KeyboardInterrupt:
        if client.token is None or client.left:
            raise typer.Exit(130) from None
        console.print("Stopped. Your seat is kept (played safe when its clock runs out): run "
                      "the same command again to take it up; to leave the table, end the "
                      "input (Ctrl-D) at a prompt.", markup=False, highlight=False)  # fmt: skip
        raise typer.Exit(130) from None


def register(app: typer.Typer) -> None:
    """Add ``guts join`` to ``app``."""
    app.command("join")(join_command)
