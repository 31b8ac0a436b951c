"""The server is a layer above the engine: nothing below it imports it, and ``import
guts`` or ``guts play`` never load the server's dependencies."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "guts"
SERVER_DEPENDENCIES = (
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "asyncpg",
    "pydantic",
    "httpx",
    "websockets",
    "guts.server",
)


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """Each module ``path`` imports, and whether the import is at the top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, id(node) in top))
    return found


def is_command_line(path: Path) -> bool:
    """Whether ``path`` is the CLI (``cli.py`` or a module of ``guts.commands``)."""
    parts = path.relative_to(SOURCE).parts
    return parts == ("cli.py",) or parts[0] == "commands"


def is_terminal_client(path: Path) -> bool:
    """Whether ``path`` is the terminal client of a server (``guts.client``)."""
    return path.relative_to(SOURCE).parts[0] == "client"


def test_nothing_outside_the_server_imports_it_but_the_cli_lazily() -> None:
    wrong = []
    for path in sorted(SOURCE.rglob("*.py")):
        if "server" in path.relative_to(SOURCE).parts[:-1]:
            continue
        for module, at_top in imports_of(path):
            if not module.startswith(SERVER_DEPENDENCIES):
                continue
            client_socket = is_terminal_client(path) and module.startswith("websockets")
            if at_top or not (is_command_line(path) or client_socket):
                wrong.append(f"{path.relative_to(SOURCE)} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_terminal_client_knows_nothing_of_the_server() -> None:
    wrong = [
        f"{path.relative_to(SOURCE)} imports {module}"
        for path in sorted((SOURCE / "client").rglob("*.py"))
        for module, _ in imports_of(path)
        if module.startswith("guts.server")
    ]
    assert not wrong, "\n".join(wrong)


def test_importing_guts_loads_no_server_dependency() -> None:
    probe = (
        "import sys, guts, guts.cli, guts.catalog, guts.play; "
        f"print(sorted(m for m in sys.modules if m.startswith({SERVER_DEPENDENCIES!r})))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
