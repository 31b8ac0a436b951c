"""``python -m guts`` runs the command line."""

from guts.cli import main

main()
