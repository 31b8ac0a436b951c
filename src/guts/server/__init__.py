"""The online table: ``guts serve`` and the pieces it is made of.

Each piece is its own module, from the bottom up (DESIGN.md, "The server"):
:mod:`~guts.server.storage` (the database: tables, seats and the append-only actions,
migrated by Alembic), :mod:`~guts.server.dealer` (the server's shuffles, recorded so a
table replays), :mod:`~guts.server.commands` (the commands as stored: a table's record),
:mod:`~guts.server.protocol` (every message as a typed, versioned model),
:mod:`~guts.server.barrier` (the one place game state is turned into what a client may
receive), :mod:`~guts.server.state` (what a table's commands build, live or replayed),
:mod:`~guts.server.actor` (one task per open table, owning its state: commit, then tell;
its concerns are :mod:`~guts.server.open_table`, :mod:`~guts.server.seats`,
:mod:`~guts.server.hosting`, :mod:`~guts.server.chat`, :mod:`~guts.server.clocks`,
:mod:`~guts.server.autopilot` and :mod:`~guts.server.telling`),
:mod:`~guts.server.tables` (a server's tables) and :mod:`~guts.server.app` (the HTTP and
websocket routes, ``guts serve``). The engine never imports any of them; they need the
``server`` extra (``pip install 'guts[server]'``).
"""
