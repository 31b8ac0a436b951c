"""Regenerate the frequency tables of docs/rankings.md from ``guts census``.

    python docs/census_tables.py            # rewrite the tables in docs/rankings.md
    python docs/census_tables.py --check    # exit 1 if the document is out of date

Each table is the output of ``guts census RANKING ... --json`` for the command shown
above it; the text between the ``<!-- census: ... -->`` and ``<!-- end census -->``
markers is replaced.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).with_name("rankings.md")
BLOCK = re.compile(r"(<!-- census: (?P<args>.*?) -->\n)(?P<body>.*?)(<!-- end census -->)", re.S)


def table(args: str) -> str:
    """A Markdown table from one census run."""
    command = [sys.executable, "-m", "guts", "census", *shlex.split(args), "--json"]
    data = json.loads(subprocess.run(command, check=True, capture_output=True,
                                     text=True).stdout)
    total = data["total"]
    lines = [
        f"`guts census {args}`: {total:,} hands, {data['classes']:,} distinct strengths.",
        "",
        "| category | hands | share | 1 in |",
        "|---|---:|---:|---:|",
    ]
    for category, count in data["categories"].items():
        odds = f"{total / count:,.1f}" if count else "-"
        lines.append(f"| {category} | {count:,} | {100 * count / total:.4f}% | {odds} |")
    if "no-pair-by-top-card" in data:
        lines += ["", "| no-pair top card | hands |", "|---|---:|"]
        lines += [f"| {k} | {v:,} |" for k, v in data["no-pair-by-top-card"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    text = DOC.read_text()
    new = BLOCK.sub(lambda m: m.group(1) + table(m.group("args")) + m.group(4), text)
    if "--check" in sys.argv:
        raise SystemExit(0 if new == text else 1)
    DOC.write_text(new)


if __name__ == "__main__":
    main()
