"""Alembic environment: the app passes its own connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from kingsbreakfast.server.models import Base

target_metadata = Base.metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:  # run from the alembic command line with sqlalchemy.url set
        from sqlalchemy import create_engine

        url = context.config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("set sqlalchemy.url or pass a connection")
        with create_engine(url).begin() as own:
            context.configure(connection=own, target_metadata=target_metadata)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
