"""Table leases: which node owns each table, since which generation, and until when
(the servers of several nodes share one database; see ``guts.server.lease``).

Revision ID: 0003_leases
Revises: 0002_clubs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_leases"
down_revision: str | None = "0002_clubs"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_leases_owner", "leases")
    op.drop_table("leases")
