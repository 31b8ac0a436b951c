"""``guts club``: a host's club on a guts server, from the terminal: start one, see its
members, and export their stats as CSV (what the club page shows and downloads).

The club secret is the host's credential: give it with ``--secret`` or, out of the
shell's history, in ``GUTS_CLUB_SECRET``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from guts.commands.common import console

__all__ = ["register"]

club_app = typer.Typer(help="A host's club: its members, their nights and stats.",
                       no_args_is_help=True)  # fmt: skip

ServerArg = Annotated[str, typer.Argument(help="The server's address, e.g. http://127.0.0.1:8000")]
ClubArg = Annotated[str, typer.Argument(help="The club's id (the end of its page's link).")]
SecretOpt = Annotated[
    str,
    typer.Option("--secret", envvar="GUTS_CLUB_SECRET", show_envvar=True,
                 help="The club secret (its host's credential)."),
]  # fmt: skip
TIMEOUT = 60.0


def _answer(response: Any, expected: int = 200) -> Any:
    """The JSON or text of a server's answer; the server's message and exit 1 if refused."""
    if response.status_code != expected:
        try:
            message = response.json().get("message", response.text)
        except ValueError:
            message = response.text
        console.print(f"[red]the server refused: {message}[/red]")
        raise typer.Exit(1)
    kind = response.headers.get("content-type", "")
    return response.json() if "json" in kind else response.text


def _url(server: str, path: str) -> str:
    return f"{server.rstrip('/')}{path}"


@club_app.command("new")
def new_club(
    server: ServerArg,
    name: Annotated[str, typer.Option("--name", help="The club's name.")] = "My game",
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Start a club: prints its page and its secret (keep the secret: it is the host's)."""
    import httpx

    made = _answer(httpx.post(_url(server, "/api/clubs"), json={"name": name}, timeout=TIMEOUT),
                   201)  # fmt: skip
    if as_json:
        print(json.dumps(made))
        return
    print(f"Club {made['name']!r} is open: {made['club_url']}\n"
          f"Its secret (the host's; open the page with it once): "
          f"{made['club_url']}#host={made['club_secret']}\n"
          f"  export GUTS_CLUB_SECRET={made['club_secret']}")  # fmt: skip


@club_app.command("show")
def show_club(server: ServerArg, club: ClubArg, secret: SecretOpt) -> None:
    """The club's members: nights, net, and how often in at Guts."""
    import httpx
    from rich.table import Table

    view = _answer(httpx.get(_url(server, f"/api/clubs/{club}"), timeout=TIMEOUT,
                             headers={"authorization": f"Bearer {secret}"}))  # fmt: skip
    table = Table(title=f"{view['club']['name']}: {len(view['members'])} members, "
                        f"{view['tables']} tables")  # fmt: skip
    for column in ("Member", "Nights", "Net", "Guts in", "Draw showdowns won"):
        table.add_column(column, justify="left" if column == "Member" else "right")
    for member in view["members"]:
        families = {f["family"]: f for f in member["families"]}
        guts = [families[f] for f in ("guts", "staged") if f in families]
        declared, went = sum(f["declared"] for f in guts), sum(f["in"] for f in guts)
        draw = families.get("draw")
        table.add_row(member["name"], str(len(member["nights"])), f"{member['net']:+d}",
                      f"{went}/{declared}" if declared else "-",
                      f"{draw['showdowns_won']}/{draw['showdowns']}" if draw else "-")  # fmt: skip
    console.print(table)


@club_app.command("export")
def export_club(
    server: ServerArg,
    club: ClubArg,
    secret: SecretOpt,
    nights: Annotated[bool, typer.Option("--nights", help="One row a member's night.")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Write to FILE.")] = None,
) -> None:
    """The club's stats as CSV: a row per member (or per member's night, ``--nights``)."""
    import httpx

    kind = "nights" if nights else "members"
    text = _answer(httpx.get(_url(server, f"/api/clubs/{club}/export?kind={kind}"),
                             headers={"authorization": f"Bearer {secret}"},
                             timeout=TIMEOUT))  # fmt: skip
    if out is None:
        print(text, end="")
    else:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


def register(app: typer.Typer) -> None:
    """Add ``guts club`` to ``app``."""
    app.add_typer(club_app, name="club")
