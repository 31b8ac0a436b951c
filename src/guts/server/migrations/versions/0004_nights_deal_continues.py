"""Dealer's choice nights stored before ``deal-after-game`` existed keep the deal they
were played with: ``continues`` (the button went on from where each game left it), so
that their commands rebuild the same night; new nights pass the deal left game to game.

Revision ID: 0004_nights_deal_continues
Revises: 0003_leases
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_nights_deal_continues"
down_revision: str | None = "0003_leases"
branch_labels: str | None = None
depends_on: str | None = None

NIGHT = "dealers-choice"
OPTION = "deal-after-game"

_TABLES = sa.table(
    "tables",
    sa.column("id", sa.String(64)),
    sa.column("preset", sa.String(64)),
    sa.column("options", sa.JSON()),
)


def _nights() -> list[tuple[str, dict[str, str]]]:
    rows = op.get_bind().execute(
        sa.select(_TABLES.c.id, _TABLES.c.options).where(_TABLES.c.preset == NIGHT)
    )
    return [(table_id, dict(options)) for table_id, options in rows]


def _store(table_id: str, options: dict[str, str]) -> None:
    op.get_bind().execute(
        _TABLES.update().where(_TABLES.c.id == table_id).values(options=options)
    )


def upgrade() -> None:
    for table_id, options in _nights():
        if OPTION not in options:
            _store(table_id, {**options, OPTION: "continues"})


def downgrade() -> None:
    """The older server played every night ``continues`` and knows no such option; a
    night played ``passes`` keeps it (the older server refuses to rebuild it)."""
    for table_id, options in _nights():
        if options.get(OPTION) == "continues":
            del options[OPTION]
            _store(table_id, options)
