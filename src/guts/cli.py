"""The ``guts`` command line: hands and censuses, the games, play, and replays.

Every error a user can cause prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from guts.cards import Card, format_cards, parse_cards
from guts.errors import GutsError, OptionError
from guts.rankings import DEFAULT_CARDS, RANKINGS, Ranking, make_ranking
from guts.rankings.wilds import JokerMode, Wilds

if TYPE_CHECKING:
    from guts.history import History

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Guts, match-the-pot games, draw poker and Bourré: rankings, censuses and play.",
)
console = Console()

RankingArg = Annotated[str, typer.Argument(help=f"One of: {', '.join(RANKINGS)}.")]
WildOpt = Annotated[
    str, typer.Option("--wild", help="Wild ranks and cards, e.g. 2 or 2,Js,Jh.")
]
JokerOpt = Annotated[
    str | None, typer.Option("--joker", help="How jokers play: bug or wild (adds one joker).")
]
JokersOpt = Annotated[
    int | None, typer.Option("--jokers", help="Number of jokers in the pack (0-2).")
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="An option KEY=VALUE (repeatable)."),
]


def parse_key_values(pairs: Sequence[str]) -> dict[str, str]:
    """``["a=1", "b=2"]`` as a dict; a pair without ``=`` is an OptionError."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} must look like KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def build_ranking(
    name: str, wild: str, joker: str | None, jokers: int | None, option: list[str] | None
) -> Ranking:
    """The ranking the command-line flags describe."""
    mode = JokerMode.parse(joker) if joker is not None else JokerMode.BUG
    count = jokers if jokers is not None else (1 if joker is not None else 0)
    if not 0 <= count <= 2:
        raise OptionError(f"--jokers must be 0, 1 or 2, not {count}")
    if joker is not None and count == 0:
        raise OptionError("--joker says how jokers play, but --jokers 0 puts none in the pack")
    wilds = Wilds.parse(wild, mode)
    return make_ranking(name, parse_key_values(option or []), wilds=wilds, jokers=count)


@app.command("eval")
def eval_command(
    ranking: RankingArg,
    cards: Annotated[list[str], typer.Argument(help="The hand, e.g. As Kd 10h or AsKd10h.")],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Print a hand's category, description and the cards that play."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    hand = parse_cards(" ".join(cards))
    result = rank.evaluate(hand)
    console.print(f"[bold]{result.description}[/bold]  ({result.category.value})")
    console.print(f"plays: {format_cards(result.cards)}")
    for wild_card, stood in result.stands_for:
        console.print(f"  {wild_card} stands for {stood}")
    console.print(f"strength: {result.strength}")


@app.command()
def compare(
    ranking: RankingArg,
    hands: Annotated[list[str], typer.Argument(help='Hands, each quoted: "As Kd" "Qh Qc".')],
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
) -> None:
    """Order hands best first; tied hands share a place."""
    rank = build_ranking(ranking, wild, joker, jokers, option)
    parsed = [parse_cards(hand) for hand in hands]
    seen: dict[Card, int] = {}
    for number, hand in enumerate(parsed):
        for card in hand:
            if card in seen and not card.is_joker:
                raise OptionError(f"{card.ascii} is in hand {seen[card] + 1} and hand {number + 1}")
            seen[card] = number
    evaluated = sorted(
        ((rank.evaluate(hand), hand) for hand in parsed), key=lambda pair: -pair[0].strength
    )
    place = 0
    previous: int | None = None
    for index, (result, hand) in enumerate(evaluated):
        tie = result.strength == previous
        if not tie:
            place = index + 1
        previous = result.strength
        mark = "=" if tie or _ties_next(evaluated, index) else " "
        console.print(f"{place:>2}{mark} {format_cards(hand):<24} {result.description}")


def _ties_next(evaluated: Sequence[tuple[object, object]], index: int) -> bool:
    if index + 1 >= len(evaluated):
        return False
    here, after = evaluated[index][0], evaluated[index + 1][0]
    return getattr(here, "strength", None) == getattr(after, "strength", None)


@app.command("census")
def census_command(
    ranking: RankingArg,
    cards: Annotated[int | None, typer.Option("--cards", help="Cards per hand.")] = None,
    wild: WildOpt = "",
    joker: JokerOpt = None,
    jokers: JokersOpt = None,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    sample: Annotated[
        int | None, typer.Option("--sample", help="Estimate from N random hands.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --sample.")] = None,
) -> None:
    """Count every hand of N cards by category (or estimate with --sample)."""
    from guts.census import census, sample_census

    rank = build_ranking(ranking, wild, joker, jokers, option)
    if seed is not None and sample is None:
        raise OptionError("--seed only applies to a sampled census: add --sample N")
    size = cards if cards is not None else DEFAULT_CARDS[ranking]
    show = sys.stderr.isatty() and not as_json
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    ) as bar:
        task = bar.add_task(f"{ranking} {size}-card hands", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        if sample is not None:
            result = sample_census(rank, size, sample, seed, progress)
        else:
            result = census(rank, size, progress)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    title = f"{ranking}, {size} cards, {rank.deck.describe()}"
    if rank.options():
        title += " (" + ", ".join(f"{k}={v}" for k, v in rank.options().items()) + ")"
    table = Table(title=title + (" — sampled" if result.sampled else ""))
    table.add_column("category")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    table.add_column("1 in", justify="right")
    if result.sampled:
        table.add_column("95% interval", justify="right")
    for category, count in result.categories.items():
        share = count / result.total
        row = [
            category.label,
            f"{count:,}",
            f"{100 * share:.4f}%",
            f"{1 / share:,.1f}" if count else "-",
        ]
        if result.sampled:
            low, high = result.intervals[category]
            row.append(f"{100 * low:.4f}-{100 * high:.4f}%")
        table.add_row(*row)
    table.add_section()
    table.add_row("total", f"{result.total:,}", "100%", "")
    console.print(table)
    console.print(f"{result.classes:,} distinct hand strengths")
    if result.no_pair_by_top_card is not None:
        tops = ", ".join(f"{k}: {v:,}" for k, v in result.no_pair_by_top_card.items())
        console.print(f"no-pair hands by top card: {tops}")


@app.command()
def games() -> None:
    """List every game preset, one line each."""
    from guts.catalog import games as all_games

    for family in ("guts", "staged", "draw", "bourre"):
        entries = [g for g in all_games().values() if g.family == family]
        if entries:
            print(family)
        for game in entries:
            print(f"  {game.name:<26} {game.description}")


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    option: OptionOpt = None,
) -> None:
    """Print the full rules of GAME as the engine plays them, every option and its value."""
    from guts.catalog import find_game

    found = find_game(game)
    text = found.rules(parse_key_values(option or [])).describe()
    print(f"{found.name}: {found.description}\n")
    print(text)


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    players: Annotated[int, typer.Option("--players", "-n", help="Players at the table.")] = 4,
    seat: Annotated[str, typer.Option("--seat", help="Your name at the table.")] = "You",
    bots: Annotated[str, typer.Option("--bots", help="random, threshold or sensible.")] = (
        "sensible"
    ),
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for a repeatable game.")] = None,
    option: OptionOpt = None,
    stack: Annotated[int, typer.Option("--stack", help="Chips each player buys in for.")] = 100,
    watch: Annotated[bool, typer.Option("--watch", help="Every seat is a bot; narrate.")] = False,
    deals: Annotated[
        int | None, typer.Option("--deals", help="Stop after at most N deals (games end too).")
    ] = None,
    history: Annotated[
        str | None, typer.Option("--history", help="Write a JSON-lines hand history.")
    ] = None,
) -> None:
    """Play GAME in the terminal against bots (or --watch them play)."""
    from guts.catalog import find_game
    from guts.play import PlayConfig, play

    found = find_game(game)
    if not 2 <= players <= 26:
        raise OptionError(f"--players must be between 2 and 26, not {players}")
    if stack < 1:
        raise OptionError(f"--stack must be at least 1, not {stack}")
    if deals is not None and deals < 1:
        raise OptionError(f"--deals must be at least 1, not {deals}")
    config = PlayConfig(
        players=players, seat_name=seat, bots=bots, seed=seed,
        options=parse_key_values(option or []), stack=stack, watch=watch, deals=deals,
        history=history,
    )  # fmt: skip
    from guts.bots import check_bot_kind, policy_for

    check_bot_kind(bots, found.family)  # an unknown bot kind fails before the game starts
    if history is not None:
        _check_writable(history)  # and so does a history that could not be written
    play(found, config, lambda kind, g, session: policy_for(kind, g.family, session), console)


def _check_writable(path: str) -> None:
    """Raise OptionError unless a file can be written at ``path`` (tried now, so that a bad
    path fails before the game is played rather than after it)."""
    from pathlib import Path

    target = Path(path)
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise OptionError(f"--history: cannot write {path}: {error.strerror or error}") from None
    if not existed:
        target.unlink(missing_ok=True)


def _read_history_file(path: str) -> History:
    """The hand history in file ``path``; a missing, unreadable or malformed file is a
    HistoryError naming it."""
    from guts.history import HistoryError, read_history

    try:
        with open(path, encoding="utf-8") as source:
            return read_history(source)
    except OSError as error:
        raise HistoryError(f"cannot read {path}: {error.strerror or error}") from None
    except HistoryError as error:
        raise HistoryError(f"{path}: {error}") from None


@app.command("replay")
def replay_command(
    path: Annotated[str, typer.Argument(help="A hand history written by --history.")],
    seat: Annotated[
        str | None, typer.Option("--seat", help="Replay from this player's side.")
    ] = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each deal.")] = False,
) -> None:
    """Step through a recorded session (replayed and checked event by event)."""
    from guts.history import replay
    from guts.narrate import Narrator

    session = replay(_read_history_file(path))
    names = list(session.table.names)
    viewer = None
    if seat is not None:
        if seat not in names:
            raise OptionError(f"no player {seat!r} in this history: {', '.join(names)}")
        viewer = names.index(seat)
    narrator = Narrator(names)
    for event in session.visible_events(viewer):
        line = narrator.tell(event)
        if line is None:
            continue
        console.print(line, markup=False, highlight=False)
        if step and event.kind.endswith("deal-ended") and sys.stdin.isatty():
            input("-- Enter for the next deal --")
    console.print(session.over_reason or "the record ends here")


@app.command("export")
def export_command(
    path: Annotated[str, typer.Argument(help="A draw poker hand history (--history).")],
    deal: Annotated[int | None, typer.Option("--deal", help="Only this deal (1, 2, ...).")] = None,
    out: Annotated[
        str | None, typer.Option("--out", help="Write deal-N.phh files into this folder.")
    ] = None,
) -> None:
    """Export draw poker deals to PHH, the TOML-based Poker Hand History format."""
    from pathlib import Path

    from guts.games.draw.events import DealStarted
    from guts.games.draw.phh import PhhError, deal_to_phh
    from guts.history import replay

    history = _read_history_file(path)
    if history.record.get("game") != "draw":
        raise PhhError("PHH export is for draw poker histories (five-card-draw and its family)")
    session = replay(history)  # a record that replays is whole, so the export can read it
    started = sum(1 for event in session.events if isinstance(event, DealStarted))
    if deal is not None and not 1 <= deal <= started:
        raise PhhError(f"--deal must be between 1 and {started}, not {deal}")
    numbers = [deal] if deal is not None else list(range(1, started + 1))
    game = history.preset or "draw"
    texts = {n: deal_to_phh(history.record, n, game=game) for n in numbers}
    if out is None:
        print("\n".join(f"# deal {n}\n{text}" for n, text in texts.items()))
        return
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for n, text in texts.items():
            (folder / f"deal-{n}.phh").write_text(text, encoding="utf-8")
    except OSError as error:
        raise OptionError(f"--out: cannot write into {out}: {error.strerror or error}") from None
    console.print(f"{len(texts)} PHH file(s) written to {folder}")


@app.command("simulate")
def simulate_command(
    game: Annotated[str, typer.Argument(help="A game from `guts games`.")],
    players: Annotated[int, typer.Option("--players", "-n", help="Players at the table.")] = 4,
    bots: Annotated[
        str, typer.Option("--bots", help="Bot kinds, one per seat, cycled: sensible,random.")
    ] = "sensible",
    sessions: Annotated[
        int | None, typer.Option("--sessions", help="Play N whole sessions.")
    ] = None,
    deals: Annotated[
        int | None, typer.Option("--deals", help="Play sessions until N deals are played.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for a repeatable run.")] = None,
    option: OptionOpt = None,
    buy_in: Annotated[int, typer.Option("--buy-in", help="Chips each player buys in for.")] = 100,
    max_deals: Annotated[
        int, typer.Option("--max-deals", help="Stop a session after N deals.")
    ] = 1000,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes.")] = 1,
    executor: Annotated[
        str, typer.Option("--executor", help="Where batches run: process, dask or ray.")
    ] = "process",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Address of a Dask or Ray cluster.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Simulate sessions of GAME between bots: nets, busts, session lengths, pots, outcomes."""
    from guts.sim import SimSpec, open_executor, render, report, simulate
    from guts.sim.seeding import new_seed

    if (sessions is None) == (deals is None):
        raise OptionError("give either --sessions N or --deals N (not both)")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    spec = SimSpec.make(
        game, players=players, bots=bots, options=parse_key_values(option or []),
        buy_in=buy_in, seed=new_seed() if seed is None else seed, max_deals=max_deals,
    )  # fmt: skip
    plan = {"sessions": sessions} if sessions is not None else {"deals": deals or 0}
    unit, total = next(iter(plan.items()))
    show = sys.stderr.isatty() and not as_json
    with (
        open_executor(executor, workers, scheduler) as pool,
        Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=Console(stderr=True), disable=not show,
            transient=True,
        ) as bar,
    ):  # fmt: skip
        task = bar.add_task(f"{game}: {unit}", total=total)

        def progress(sessions_done: int, deals_done: int) -> None:
            bar.update(task, completed=sessions_done if unit == "sessions" else deals_done)

        summary = simulate(spec, sessions=sessions, deals=deals, executor=pool,
                           workers=workers, progress=progress)  # fmt: skip
    data = report(spec, summary, plan)
    if as_json:
        print(json.dumps(data))
        return
    render(data, console)


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option("--database", help="A database URL (else GUTS_DATABASE_URL, else a "
                     "SQLite file in the user data directory)."),
    ] = None,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help="The base of the links handed out.")
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Seconds before a bot acts.")
    ] = 0.6,
    deal_delay: Annotated[
        float, typer.Option("--deal-delay", help="Seconds between deals.")
    ] = 1.5,
) -> None:
    """Run the online table server: migrate the database, rebuild the open tables, serve."""
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
    from guts.server.storage import database_url

    serve(host, port, database_url(database), public_url=public_url,
          settings=Settings(bot_delay=bot_delay, deal_delay=deal_delay))  # fmt: skip


@app.command("host")
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
    body = {"preset": preset, "options": parse_key_values(option or []), "buy_in": buy_in,
            "bots": bots, "bot": bot, "auto_approve": auto_approve, "start": start}  # fmt: skip
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
    console.print(f"Table {links['table_id']} of {preset} is open.", highlight=False)
    console.print(f"Send the players this link: {links['join_url']}", highlight=False)
    console.print(f"Keep the host link (it holds the host secret): {links['host_url']}",
                  highlight=False)  # fmt: skip


@app.command("ledger")
def ledger_command(
    host_url: Annotated[str, typer.Argument(help="The table's host link (from guts host).")],
    csv: Annotated[bool, typer.Option("--csv", help="Print the ledger as CSV.")] = False,
) -> None:
    """Print a table's ledger (each player's buy-in, cash-out, stack and net) and who
    pays whom to settle it."""
    from urllib.parse import urlsplit

    try:
        import httpx
    except ImportError:
        raise OptionError("guts ledger needs the server extra: pip install 'guts[server]'") \
            from None
    link = urlsplit(host_url)
    secret = link.fragment.removeprefix("host=") if link.fragment.startswith("host=") else ""
    table_id = link.path.rstrip("/").rpartition("/t/")[2] if "/t/" in link.path else ""
    if not (link.scheme in ("http", "https") and link.netloc and table_id and secret):
        raise OptionError("give the host link guts host printed: http://SERVER/t/TABLE#host=SECRET")
    url = f"{link.scheme}://{link.netloc}/api/tables/{table_id}/ledger"
    try:
        response = httpx.get(url, params={"format": "csv"} if csv else None, timeout=30,
                             headers={"authorization": f"Bearer {secret}"})  # fmt: skip
    except httpx.HTTPError as error:
        raise OptionError(f"cannot reach the server at {link.netloc} ({error})") from None
    if response.status_code != 200:
        try:
            why = response.json().get("message")
        except ValueError:
            why = None
        raise OptionError(f"the server refused: {why or response.status_code}")
    if csv:
        print(response.text, end="")
        return
    answer = response.json()
    out = Table(title=f"Ledger of table {table_id} ({answer['status']})")
    for column in ("player", "buy-in", "cash-out", "stack", "net"):
        out.add_column(column, justify="left" if column == "player" else "right")
    for row in answer["players"]:
        out.add_row(row["player_nickname"], str(row["buy_in"]), str(row["buy_out"]),
                    str(row["stack"]), f"{row['net']:+d}")  # fmt: skip
    console.print(out)
    for payment in answer["settlement"]:
        console.print(f"{payment['from']} pays {payment['to']} {payment['amount']}",
                      markup=False, highlight=False)  # fmt: skip


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
