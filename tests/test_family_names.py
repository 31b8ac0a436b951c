"""Nothing outside a family's own package tells the families apart by name.

Every module under ``src/guts`` outside ``guts/games/<family>/`` is read with :mod:`ast`;
a family's name (each registered family's, read from the catalog) may not be one side of
a comparison whose other side is a family or game (``game.family == "draw"``,
``record.get("game") != "guts"``, ``family in ("draw", "bourre")``), nor a key of a mapping
or a member of a collection that names two families or more (a registry by name, like a
dict of each family's bots). The page's scripts are read as text for the same tests.
Everything a caller needs of a family it reads from the family (``guts.games.family``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from guts.catalog import FAMILIES

SOURCE = Path(__file__).resolve().parents[1] / "src" / "guts"
NAMES = frozenset(FAMILIES)


def _outside_families() -> list[Path]:
    own = [SOURCE / "games" / name for name in NAMES]
    return [path for path in sorted(SOURCE.rglob("*.py"))
            if not any(path.is_relative_to(folder) for folder in own)]  # fmt: skip


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and node.value in NAMES:
        return str(node.value)
    return None


def _names_in(node: ast.AST) -> list[str]:
    """The family names a literal collection holds (a call like frozenset({...}) too)."""
    if isinstance(node, ast.Call) and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for n in map(_name, node.elts) if n]
    return []


def _about_families(node: ast.AST) -> bool:
    """True if ``node`` reads a family or a game's family (its source mentions either)."""
    text = ast.unparse(node)
    return bool(re.search(r"famil|\bgame\b|\"game\"|'game'", text))


def offences(tree: ast.AST) -> list[str]:
    """Each place of ``tree`` that tells families apart by name, as ``line: source``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = [s for s in sides if _name(s) or len(_names_in(s)) >= 1]
            others = [s for s in sides if s not in named]
            if named and any(_about_families(s) for s in others):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None and _name(k)]
            if len(keys) >= 2:
                found.append(f"{node.lineno}: a mapping keyed by family names")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and len(_names_in(node)) >= 2:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_checker_finds_what_it_forbids() -> None:
    forbidden = ('game.family == "draw"', 'record.get("game") != "guts"',
                 'family in ("draw", "bourre")', 'X = {"guts": 1, "staged": 2}',
                 'TAKES = frozenset({"guts", "staged"})',
                 'if family == "bourre": pass')  # fmt: skip
    for source in forbidden:
        assert offences(ast.parse(source)), source
    for source in ('decision.kind == "draw"', 'FAMILIES[name].title', 'x = "guts"',
                   'user_cache_dir("guts")'):  # fmt: skip
        assert not offences(ast.parse(source)), source


def test_no_module_outside_a_family_tells_families_apart_by_name() -> None:
    found = {
        str(path.relative_to(SOURCE.parent)): wrong
        for path in _outside_families()
        if (wrong := offences(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not found, "families told apart by name outside their packages:\n" + "\n".join(
        f"  {path}: {line}" for path, lines in found.items() for line in lines
    )


def test_the_page_names_no_family() -> None:
    """The page's scripts compare no family with a family's name, nor key anything by
    one (a family's view comes from ``/api/families.js``)."""
    wrong = []
    for path in sorted((SOURCE / "web" / "static" / "js").glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            compared = re.search(r"famil\w*\s*[!=]==?\s*[\"'](\w+)[\"']", line)
            keyed = re.match(r"\s*(\w+)(\s*:|\s*\([^)]*\)\s*\{)", line)  # a key, a method
            if (compared and compared[1] in NAMES) or (keyed and keyed[1] in NAMES):
                wrong.append(f"{path.name}:{number}: {line.strip()}")
    assert not wrong, "the page names a family:\n  " + "\n  ".join(wrong)
