"""Alembic migrations of the hotdice database, shipped in the package and applied on start
(:func:`hotdice.store.migrate.upgrade`); no ``alembic.ini``: the configuration is made in code.

A schema change is a new module in ``versions/`` whose ``down_revision`` is the current head, written out
by hand or drafted with ``alembic.command.revision(hotdice.store.migrate.config(connection), message,
autogenerate=True)`` against an up-to-date database, then read and corrected. Use ``op.batch_alter_table``
for changes SQLite cannot make in place.
"""
