"""The database's Alembic migrations (``versions/``), run at startup by
:func:`guts.server.storage.migrate`; no ``env.py`` is needed, the storage module drives
Alembic's environment itself."""
