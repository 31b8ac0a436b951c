"""Running the ``guts`` command in-process, as the CLI tests do."""

from __future__ import annotations

import pytest

from guts.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``guts ARGS``; its exit status, standard output and standard error."""
    try:
        main(list(args))
        code = 0
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
