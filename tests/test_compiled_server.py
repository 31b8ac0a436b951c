"""The compiled build (``GUTS_COMPILE=1``, ``setup.py``) plays as the Python one: the
wheel it makes holds the server's hot modules as extension modules, and the server tests
that run the server in their own process (the actors, the barrier, the dealer, the
state, the app) pass with them in place of their source; ``-m slow``: every server test,
those that start ``guts serve`` processes too (which then run on the wheel as well).

The wheel is built once per version of what it compiles (the modules, ``setup.py`` and
``pyproject.toml``) and kept in ``build/compiled-server/``, under a file lock (the
test run's workers, or two runs, build it once and wait for it); a machine without a C
compiler skips this with that reason."""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["setup.py", "pyproject.toml"]
COMPILED = ["actor", "barrier", "dealer", "state"]
"""The server's modules the compiled build compiles (``setup.py``'s ``COMPILED``)."""


def _compiler() -> str | None:
    command = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(command)


pytestmark = [
    pytest.mark.skipif(_compiler() is None, reason="no C compiler to build with"),
    pytest.mark.xdist_group("compiled-server"),  # one worker builds and tests; the rest go on
]


def _fingerprint() -> str:
    digest = hashlib.sha256()
    paths = SOURCES + [f"src/guts/server/{name}.py" for name in COMPILED]
    for path in paths:
        digest.update(path.encode() + b"\0" + (ROOT / path).read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def compiled_site() -> Path:
    """A folder holding the compiled wheel's files, as site-packages would."""
    folder = ROOT / "build" / "compiled-server" / _fingerprint()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(folder.with_name(folder.name + ".lock")):
        return _built(folder)


def _built(folder: Path) -> Path:
    """The wheel's files in ``folder / "site"``, built unless they were (under the lock)."""
    site = folder / "site"
    if (folder / "done").exists():
        return site
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(folder), str(ROOT)],
        env={**os.environ, "GUTS_COMPILE": "1"}, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = folder.glob("guts-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    (folder / "done").touch()
    return site


def _python(site: Path, *arguments: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """This Python with the compiled wheel first on its path."""
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(site)}, timeout=timeout,
    )  # fmt: skip


def test_the_wheel_holds_the_compiled_modules(compiled_site: Path) -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    built = sorted(p.name.split(".")[0] for p in (compiled_site / "guts").rglob("*")
                   if p.name.endswith(suffixes))  # fmt: skip
    assert built == COMPILED
    names = [f"guts.server.{name}" for name in COMPILED]
    shown = _python(compiled_site, "-c", "import importlib\n"
                    f"for name in {names!r}: print(importlib.import_module(name).__file__)",
                    timeout=120)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    files = [Path(file) for file in shown.stdout.split()]
    assert [file.parent for file in files] == [compiled_site / "guts" / "server"] * len(COMPILED)
    assert [file.name.split(".")[0] for file in files] == COMPILED
    assert all(file.name.endswith(suffixes) for file in files)


def _in_process(path: Path) -> bool:
    """True for a server test file that starts no process (no ``guts serve``)."""
    text = path.read_text(encoding="utf-8")
    return "subprocess" not in text and "Server(" not in text and "def server(" not in text


def _passes(site: Path, *paths: str) -> None:
    ran = _python(site, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-x", *paths,
                  timeout=1500)  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    assert re.search(r"^\d+ passed", ran.stdout.splitlines()[-1]), ran.stdout[-500:]


def test_the_in_process_server_tests_pass_compiled(compiled_site: Path) -> None:
    files = sorted(p for p in (ROOT / "tests" / "server").glob("test_*.py") if _in_process(p))
    assert len(files) >= 10 and (ROOT / "tests" / "server" / "test_actor.py") in files
    _passes(compiled_site, *(str(path.relative_to(ROOT)) for path in files))


@pytest.mark.slow
def test_every_server_test_passes_compiled(compiled_site: Path) -> None:
    _passes(compiled_site, "tests/server")
