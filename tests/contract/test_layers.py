"""The import graph of ``guts`` has no cycles: each module imports only modules below it.

Every ``import`` and ``from ... import`` statement of every module under ``src/guts`` is
read with :mod:`ast`, wherever it sits: at the top, inside a function (lazy imports),
or under ``if TYPE_CHECKING:``. A lazy import still says which module depends on which,
so it counts; laziness is for import time, never a way around a cycle. An edge runs
from the importing module to the module it names: ``from guts.rankings import compiled``
names the module ``guts.rankings.compiled``, ``from guts.rankings import Category`` the
package ``guts.rankings``. The parent packages that Python imports on the way are not
edges (every module would then sit in a cycle with its package's ``__init__``), and
neither are dynamic imports (``importlib.import_module`` with a computed name, as the
ranking registry does).

The whole of ``guts`` is asserted acyclic, and the engine's layers (cards, rankings,
table, betting, games) never import an interface (narration, the terminal table, the
CLI, histories, the catalog); the families' bots, which sit above their engines, are the
exception. :data:`ACYCLIC_PACKAGES` names packages checked on their own too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src"
ROOT_PACKAGE = "guts"

ACYCLIC_PACKAGES = ["guts.rankings"]
"""Packages whose modules must import one another without a cycle."""


def module_files(root: Path = SOURCE, package: str = ROOT_PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name (``__init__`` files
    under their package's name)."""
    found: dict[str, Path] = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module name of a (possibly relative) ``from`` import."""
    if level == 0:
        return name or ""
    base = module.split(".")
    drop = level - 1 if is_package else level
    base = base[: len(base) - drop] if drop else base
    return ".".join([*base, name] if name else base)


def imported_modules(module: str, path: Path, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``module`` (source ``path``) imports anywhere."""
    modules = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(_nearest(alias.name, modules))
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                targets.add(submodule if submodule in modules else _nearest(source, modules))
    targets.discard("")
    return targets


def _nearest(name: str, modules: set[str]) -> str:
    """``name`` itself if it is a known module, else its closest known parent, else ""."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return ""


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module's imports among the modules of ``files``."""
    return {module: imported_modules(module, path, files) for module, path in files.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` as closed paths (the first module repeated at the
    end), sorted: through each module on a cycle, a shortest one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graphs here are small
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    found: set[tuple[str, ...]] = set()
    for component in components:
        for start in component:
            if len(component) > 1 or start in graph.get(start, ()):
                path = _closed_path(graph, component, start)[:-1]
                turn = path.index(min(path))  # the same cycle seen from each of its modules
                found.add((*path[turn:], *path[:turn], min(path)))
    return sorted(list(path) for path in found)


def _closed_path(graph: Mapping[str, set[str]], component: set[str], start: str) -> list[str]:
    """A shortest path from ``start`` back to itself inside ``component`` (breadth first)."""
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph.get(node, set()) & component):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if target not in parents:
                    parents[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is not on a cycle")


def within(graph: Mapping[str, set[str]], package: str) -> dict[str, set[str]]:
    """The part of ``graph`` among ``package`` and its modules."""

    def inside(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    return {node: {t for t in targets if inside(t)} for node, targets in graph.items()
            if inside(node)}  # fmt: skip


def describe(found: list[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " -> ".join(path) for path in found)


GRAPH = import_graph(module_files())


def test_the_graph_sees_the_known_imports() -> None:
    """A sanity check of the parser on imports this package is known to hold: top-level,
    ``from package import module``, and lazy ones inside functions."""
    assert "guts.rankings.tables" in GRAPH["guts.rankings.batch_high"]
    assert "guts.rankings.compiled" in GRAPH["guts.rankings.batch_high"]  # lazy, in a function
    assert "guts.rankings.batch_high" in GRAPH["guts.rankings.high"]  # lazy, in a method
    assert "guts.rankings.base" in GRAPH["guts.rankings"]


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set(), "e": {"e"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"], ["e", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_relative_imports_resolve() -> None:
    assert _absolute("guts.rankings.high", False, 1, "tables") == "guts.rankings.tables"
    assert _absolute("guts.rankings", True, 1, "base") == "guts.rankings.base"
    assert _absolute("guts.rankings.high", False, 2, None) == "guts"


@pytest.mark.parametrize("package", ACYCLIC_PACKAGES)
def test_package_imports_have_no_cycle(package: str) -> None:
    found = cycles(within(GRAPH, package))
    assert not found, describe(found)


def test_guts_imports_have_no_cycle() -> None:
    found = cycles(GRAPH)
    assert not found, describe(found)


ENGINE = ("guts.cards", "guts.grammar", "guts.rankings", "guts.table", "guts.betting",
          "guts.games")  # fmt: skip
"""The engine's layers (DESIGN.md): pure state machines, below every interface."""
INTERFACES = ("guts.narrate", "guts.play", "guts.cli", "guts.bots", "guts.history",
              "guts.catalog", "guts.census")  # fmt: skip
"""The layers above the engine: they may import it, never the other way round."""


def _under(name: str, roots: tuple[str, ...]) -> bool:
    return any(name == root or name.startswith(root + ".") for root in roots)


def test_the_engine_imports_no_interface() -> None:
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        if _under(module, ENGINE) and not module.endswith(".bots")
        for target in targets
        if _under(target, INTERFACES)
    )
    assert not wrong, "the engine reaches up into an interface:\n  " + "\n  ".join(wrong)
