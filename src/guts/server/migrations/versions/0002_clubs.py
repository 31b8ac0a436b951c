"""Clubs: a host's tables and nights, their members, the devices that claimed them, the
club tables' seats each member held, the host's open claim codes, and the counts of each
finished club table (read once from its record).

Revision ID: 0002_clubs
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_clubs"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_tables_club", "club_tables", ["club_id"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("member_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "club_devices",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("device_hash", sa.String(64), primary_key=True),
        sa.Column("member_id", sa.String(32), nullable=False),
    )
    op.create_table(
        "club_seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("member_id", sa.String(32), nullable=False),
    )
    op.create_index("ix_club_seats_club", "club_seats", ["club_id"])
    op.create_table(
        "club_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("member_id", sa.String(32), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_codes_club", "club_codes", ["club_id"])
    op.create_table(
        "club_nights",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("club_nights")
    op.drop_index("ix_club_codes_club", "club_codes")
    op.drop_table("club_codes")
    op.drop_index("ix_club_seats_club", "club_seats")
    op.drop_table("club_seats")
    op.drop_table("club_devices")
    op.drop_table("club_members")
    op.drop_index("ix_club_tables_club", "club_tables")
    op.drop_table("club_tables")
    op.drop_table("clubs")
