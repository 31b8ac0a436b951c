"""The build: pure Python by default; with ``GUTS_COMPILE=1``, the engine's and the
server's hot modules compiled to C extensions by mypyc (cards, the table and its ledger,
the hand rankings and their tables, betting, the recorded session and a Guts deal's path through
it; a table's actor and its concerns, its state, the information barrier and the
dealer), which takes a C compiler and a few minutes.

    GUTS_COMPILE=1 pip install '.[server]'

The modules compiled are listed in ``pyproject.toml`` (``[tool.guts] compiled``), with
everything else. The compiled modules behave as the Python ones (``tests/test_compiled.py``
plays seeded sessions of every preset on them and compares them event by event); an
editable install is never compiled, since an extension module beside its source would
shadow every later edit of it.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).parent
PYPROJECT = tomllib.loads((HERE / "pyproject.toml").read_text())
COMPILED: list[str] = PYPROJECT["tool"]["guts"]["compiled"]
"""The modules ``GUTS_COMPILE=1`` compiles (paths from this folder)."""
METADATA_ONLY = {"egg_info", "dist_info"}
"""setuptools commands that only write the metadata: nothing to compile for them."""
BUILDS = {"build", "build_ext", "bdist_wheel", "install", "develop", "editable_wheel"}


def compiling() -> bool:
    """Whether this build compiles: ``GUTS_COMPILE`` is set to yes, and it is not an
    editable install."""
    wanted = os.environ.get("GUTS_COMPILE", "").strip().lower() in {"1", "yes", "true", "on"}
    if wanted and "editable_wheel" in sys.argv:
        print("guts: GUTS_COMPILE ignored: an editable install stays pure Python",
              file=sys.stderr)  # fmt: skip
        return False
    return wanted


def build_requirements() -> list[str]:
    """What compiling needs besides setuptools: mypy (its mypyc), and what the compiled
    modules import, so that mypy knows their types as the type check does."""
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    mypy = next(r for r in extras["test"] if r.startswith("mypy>"))
    return [mypy, *project["dependencies"], *extras["server"]]


def options() -> dict[str, Any]:
    """``setup()``'s arguments: none for a pure-Python build. A compiled build asks for
    its build requirements (PEP 517 build isolation installs them, then runs this file
    again) and, once mypyc is there, for the extension modules."""
    if not compiling():
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:  # asked for the build requirements (or built without them)
        return {"setup_requires": build_requirements()}
    if METADATA_ONLY & set(sys.argv[1:]) and not BUILDS & set(sys.argv[1:]):
        return {}  # writing the metadata, which the extensions do not change
    return {"ext_modules": mypycify(COMPILED, opt_level="3", group_name="guts_native")}


setup(**options())
