"""``guts serve``, ``guts host`` and ``guts ledger``: the online table server and its
terminal controls."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from guts.commands.common import OptionOpt, console, parse_key_values
from guts.errors import OptionError


def serve_command(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            help="A database URL (else GUTS_DATABASE_URL, else a "
            "SQLite file in the user data directory).",
        ),
    ] = None,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help="The base of the links handed out.")
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Seconds before a bot acts.")
    ] = 0.6,
    deal_delay: Annotated[float, typer.Option("--deal-delay", help="Seconds between deals.")] = 1.5,
    table: Annotated[
        str | None,
        typer.Option("--table", help="Open a table of this game at once and print its link."),
    ] = None,
    bots: Annotated[
        int, typer.Option("--bots", help="Bots seated at the --table (default 3).")
    ] = 3,
    bot: Annotated[str, typer.Option("--bot", help="The --table bots' kind.")] = "sensible",
    option: OptionOpt = None,
    buy_in: Annotated[int, typer.Option("--buy-in", help="The --table's buy-in.")] = 100,
    new_table: Annotated[
        bool,
        typer.Option("--new-table", help="Open a new --table, not the one of the last run."),
    ] = False,
    allowed_hosts: Annotated[
        str,
        typer.Option(
            "--allowed-hosts",
            help="Comma-separated Host names served (*.example.org "
            "for subdomains); others get 400. Default: any.",
        ),
    ] = "",
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Comma-separated proxy addresses or networks "
            "whose X-Forwarded-For names the client (* for any). Default: none.",
        ),
    ] = "",
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            help="Websockets one client address may hold (0: no limit).",
        ),
    ] = 50,
    tables_per_minute: Annotated[
        int,
        typer.Option(
            "--tables-per-minute", help="Tables one client address may open a minute (0: no limit)."
        ),
    ] = 60,
    flood_closes: Annotated[
        int,
        typer.Option(
            "--flood-close-after", help="Messages over the rate in a row that close a connection."
        ),
    ] = 200,
    header_timeout: Annotated[
        float,
        typer.Option("--header-timeout", help="Seconds a client has to send a request's headers."),
    ] = 10.0,
    expire_after: Annotated[
        float,
        typer.Option(
            "--expire-after",
            help="Hours after which a table with no person seated, idle, expires (0: never).",
        ),
    ] = 24.0,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="GUTS_REDIS_URL",
            help="A Redis URL: run as one node of several sharing the --database "
            "(PostgreSQL) and this Redis (else GUTS_REDIS_URL; none: a single node).",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            help="With --redis: how long a node's hold on a table lasts unless renewed "
            "(a dead node's tables are taken over after about this).",
        ),
    ] = 5.0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            help="With --redis: run this many local nodes behind the one --port "
            "(SO_REUSEPORT), starting again any that dies.",
        ),
    ] = 1,
    reuse_port: Annotated[
        bool, typer.Option("--reuse-port", hidden=True, help="A worker of --workers.")
    ] = False,
) -> None:
    """Run the online table server: migrate the database, rebuild the open tables, serve;
    with --table, open a table against bots at once and print the link to play at (run
    again, the table of the last run, while its night is not over)."""
    try:
        from guts.server.actor import Settings
        from guts.server.app import serve
    except ImportError as error:
        if (error.name or "guts").startswith("guts"):
            raise  # a bug of guts itself, not a missing extra
        raise OptionError(f"guts serve needs the server extra ({error.name} is missing): "
                          "pip install 'guts[server]'") from None  # fmt: skip
    if not 0 <= port <= 65535:
        raise OptionError(f"--port must be between 0 and 65535, not {port}")
    if bot_delay < 0 or deal_delay < 0:
        raise OptionError("--bot-delay and --deal-delay cannot be negative")
    from sqlalchemy.engine import make_url

    from guts.commands.kept_tables import KeptTables
    from guts.server.limits import Limits
    from guts.server.storage import database_url

    if min(max_connections, tables_per_minute, flood_closes) < 0 or header_timeout <= 0:
        raise OptionError("the limits cannot be negative, and --header-timeout is positive")
    if expire_after < 0:
        raise OptionError("--expire-after cannot be negative")
    limits = Limits(
        connections=max_connections, tables_per_minute=tables_per_minute,
        forwarded_allow_ips=_listed(forwarded_allow_ips), flood_closes=max(1, flood_closes),
        table_idle_s=expire_after * 3600, allowed_hosts=_listed(allowed_hosts),
    )  # fmt: skip
    body = None if table is None else _table_body(table, bots, bot, option or [], buy_in)
    url = database_url(database)
    if redis is not None and make_url(url).get_backend_name() != "postgresql":
        raise OptionError("--redis needs a PostgreSQL --database shared by the nodes "
                          "(postgresql://...), not SQLite")  # fmt: skip
    if lease_seconds <= 0.3:
        raise OptionError("--lease-seconds must be more than 0.3")
    if workers < 1:
        raise OptionError("--workers must be 1 or more")
    if workers > 1:
        if redis is None:
            raise OptionError("--workers needs --redis: each worker is a node of several")
        if port == 0:
            raise OptionError("--workers needs a --port other than 0 (they share it)")
        import sys

        from guts.server.workers import run_workers

        raise typer.Exit(run_workers(workers, sys.argv[1:]))
    import os

    from guts.server.workers import WORKER

    if os.environ.get(WORKER, "0") != "0":
        body = None  # --table is the first worker's to open
    kept, where = KeptTables(), make_url(url).render_as_string(hide_password=True)
    game = "" if body is None else str(body["preset"])
    last = None if body is None or new_table else kept.get(where, game)
    serve(host, port, url, public_url=public_url, table=body, last_table=last,
          opened=lambda table_id, secret: kept.keep(where, game, table_id, secret),
          settings=Settings(bot_delay=bot_delay, deal_delay=deal_delay), limits=limits,
          header_timeout=header_timeout, redis=redis, lease_s=lease_seconds,
          reuse_port=reuse_port)  # fmt: skip


def _listed(text: str) -> tuple[str, ...]:
    """The comma-separated items of ``text``, trimmed, empty ones left out."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _table_body(
    preset: str, bots: int, bot: str, option: list[str], buy_in: int
) -> dict[str, object]:
    """The ``POST /api/tables`` body of ``guts serve --table``, checked by the engine
    before the server starts (so a typo is one line, not a server that stops)."""
    from guts.server.presets import check_bots, table_game

    options = parse_key_values(option)
    game = table_game(preset)
    game.rules(options)
    if not 0 <= bots <= 9:
        raise OptionError(f"--bots must be between 0 and 9, not {bots}")
    if bots:
        check_bots(game, bot, options)
    if buy_in <= 0:
        raise OptionError(f"--buy-in must be positive, not {buy_in}")
    return {"preset": game.name, "options": options, "buy_in": buy_in, "bots": bots,
            "bot": bot, "auto_approve": True}  # fmt: skip


def host_command(
    preset: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    option: OptionOpt = None,
    buy_in: Annotated[int, typer.Option("--buy-in", help="Each player's buy-in.")] = 100,
    bots: Annotated[int, typer.Option("--bots", help="Seat this many bots.")] = 0,
    bot: Annotated[str, typer.Option("--bot", help="The bots' kind.")] = "sensible",
    auto_approve: Annotated[
        bool, typer.Option("--auto-approve", help="Seat players without the host's approval.")
    ] = False,
    start: Annotated[bool, typer.Option("--start", help="Start the game at once.")] = False,
    clock: Annotated[
        int, typer.Option("--clock", help="Seconds for each decision of a person (0: none).")
    ] = 30,
    time_bank: Annotated[
        int, typer.Option("--time-bank", help="Each person's extra seconds for the night.")
    ] = 60,
    away_after: Annotated[
        int, typer.Option("--away-after", help="Timeouts in a row that set a player away.")
    ] = 2,
    server: Annotated[
        str, typer.Option("--server", help="The server's URL.")
    ] = "http://127.0.0.1:8000",
    json_out: Annotated[bool, typer.Option("--json", help="Print the links as JSON.")] = False,
) -> None:
    """Open a table on a guts server and print its join link and host link."""
    try:
        import httpx
    except ImportError:
        raise OptionError("guts host needs the server extra: pip install 'guts[server]'") from None
    for name, value in (("--clock", clock), ("--time-bank", time_bank),
                        ("--away-after", away_after)):  # fmt: skip
        if not 0 <= value <= 3600:
            raise OptionError(f"{name} must be between 0 and 3600, not {value}")
    body = {"preset": preset, "options": parse_key_values(option or []), "buy_in": buy_in,
            "bots": bots, "bot": bot, "auto_approve": auto_approve, "start": start,
            "clock": clock, "time_bank": time_bank, "away_after": away_after}  # fmt: skip
    url = server.rstrip("/") + "/api/tables"
    try:
        response = httpx.post(url, json=body, timeout=30)
    except httpx.HTTPError as error:
        raise OptionError(f"cannot reach a guts server at {server} ({error}): "
                          "start one with `guts serve`") from None  # fmt: skip
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    if response.status_code != 201:
        why = answer.get("message") if isinstance(answer, dict) else None
        raise OptionError(f"the server refused the table: {why or response.status_code}")
    links = {key: answer[key] for key in ("table_id", "join_url", "host_url")}
    if json_out:
        print(json.dumps(links))
        return
    console.print(f"Table {links['table_id']} of {preset} is open.", markup=False, highlight=False)
    console.print(f"Send the players this link: {links['join_url']}", markup=False,
                  highlight=False)  # fmt: skip
    console.print(f"Keep the host link (it holds the host secret): {links['host_url']}",
                  markup=False, highlight=False)  # fmt: skip


def ledger_command(
    host_url: Annotated[str, typer.Argument(help="The table's host link (from guts host).")],
    csv: Annotated[bool, typer.Option("--csv", help="Print the ledger as CSV.")] = False,
    log_csv: Annotated[
        bool,
        typer.Option("--log-csv", help="Print the night's full log as CSV (PokerNow's)."),
    ] = False,
) -> None:
    """Print a table's ledger (each player's buy-in, cash-out, stack and net) and who
    pays whom to settle it; or, with --log-csv, the night's full log as PokerNow's log
    CSV (entry, at, order; newest first)."""
    from urllib.parse import urlsplit

    try:
        import httpx
    except ImportError:
        raise OptionError(
            "guts ledger needs the server extra: pip install 'guts[server]'"
        ) from None
    link = urlsplit(host_url)
    secret = link.fragment.removeprefix("host=") if link.fragment.startswith("host=") else ""
    table_id = link.path.rstrip("/").rpartition("/t/")[2] if "/t/" in link.path else ""
    if not (link.scheme in ("http", "https") and link.netloc and table_id and secret):
        raise OptionError("give the host link guts host printed: http://SERVER/t/TABLE#host=SECRET")
    url = f"{link.scheme}://{link.netloc}/api/tables/{table_id}/ledger"
    try:
        wanted = "log" if log_csv else "csv" if csv else None
        response = httpx.get(url, params={"format": wanted} if wanted else None, timeout=30,
                             headers={"authorization": f"Bearer {secret}"})  # fmt: skip
    except httpx.HTTPError as error:
        raise OptionError(f"cannot reach the server at {link.netloc} ({error})") from None
    if response.status_code != 200:
        try:
            why = response.json().get("message")
        except ValueError:
            why = None
        raise OptionError(f"the server refused: {why or response.status_code}")
    if wanted:
        print(response.text, end="")
        return
    _print_ledger(table_id, response.json())


def _print_ledger(table_id: str, answer: dict[str, Any]) -> None:
    """The ledger's rows as a table, then who pays whom (or why nobody pays yet). What
    players wrote (their nicknames) and the link's table id are text, never markup."""
    out = Table(title=Text(f"Ledger of table {table_id} ({answer['status']})"))
    for column in ("player", "buy-in", "cash-out", "stack", "net"):
        out.add_column(column, justify="left" if column == "player" else "right")
    for row in answer["players"]:
        out.add_row(Text(row["player_nickname"]), str(row["buy_in"]), str(row["buy_out"]),
                    str(row["stack"]), f"{row['net']:+d}")  # fmt: skip
    console.print(out)
    if answer.get("unsettled"):
        console.print(f"No settlement yet: {answer['unsettled']}.", markup=False, highlight=False)
    for payment in answer["settlement"]:
        console.print(f"{payment['from']} pays {payment['to']} {payment['amount']}",
                      markup=False, highlight=False)  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add ``guts serve``, ``guts host`` and ``guts ledger`` to ``app``."""
    app.command("serve")(serve_command)
    app.command("host")(host_command)
    app.command("ledger")(ledger_command)
