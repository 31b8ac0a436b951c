"""Where the commands come from: every command is a module of ``guts.commands``, added
once, the everyday ones (hands, the games, play, replays) first in ``guts --help``."""

from __future__ import annotations

import importlib
import pkgutil

import typer
from typer.core import TyperGroup

import guts.commands
from guts.cli import app
from guts.commands import register_all


def command_names(target: typer.Typer) -> list[str]:
    """The commands of ``target`` in the order ``--help`` lists them."""
    group = typer.main.get_command(target)
    assert isinstance(group, TyperGroup)
    return group.list_commands(typer.Context(group))


def module_commands(name: str) -> list[str]:
    """The commands that module ``name`` of ``guts.commands`` adds to an app of its own."""
    single = typer.Typer()
    importlib.import_module(f"guts.commands.{name}").register(single)
    return [info.name or "" for info in single.registered_commands] + [
        info.name or "" for info in single.registered_groups
    ]


def test_the_everyday_commands_lead_the_help_in_order() -> None:
    assert command_names(app)[:7] == ["eval", "compare", "games", "rules", "play", "replay",
                                      "export"]  # fmt: skip


def test_every_command_is_a_module_of_commands_added_once() -> None:
    names = command_names(app)
    modules = [m.name for m in pkgutil.iter_modules(guts.commands.__path__)]
    loaded = [importlib.import_module(f"guts.commands.{name}") for name in modules]
    registering = [module.__name__.rpartition(".")[2] for module in loaded
                   if hasattr(module, "register")]  # fmt: skip
    from_modules = [command for name in registering for command in module_commands(name)]
    assert len(app.registered_commands) + len(app.registered_groups) == len(names)
    assert sorted(names) == sorted(from_modules)


def test_modules_named_first_register_first_in_that_order() -> None:
    target = typer.Typer()
    register_all(target, first=("histories", "hands"))
    names = command_names(target)
    assert names[:4] == ["replay", "export", "eval", "compare"]
    rest = names[4:]  # then by module name: catalog, census, ... solve
    assert rest.index("games") < rest.index("census") < rest.index("play") < rest.index("solve")
