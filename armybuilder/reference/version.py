"""The version of the rules data, read from the database itself in one cheap query.

Every reference page and API answer depends only on the reference tables (editions, tables,
rows, special rules, weapons and which rules each weapon has), and those change only when the
built-in data is loaded, a catalogue is imported or staff edit them in the admin. The version is
each table's row count, sum of ids and latest ``updated_at``: an insert or a delete changes the
count and the sum, any saved edit moves ``updated_at`` (``armybuilder.stamps.Stamped``), and
``load_reference_data`` writes, with a new stamp, only the rows whose values differ (loading the
same data again leaves the version as it was). Nothing has to remember to invalidate anything: what is
kept for a version (rendered pages, ETags) is simply never asked for again once it moves.
"""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.utils.dateparse import parse_datetime

from armybuilder.reference.models import Edition, RulesRow, RulesTable, SearchAlias, SpecialRule, Weapon

# Search aliases decide what the weapons search finds, so they are part of the version too.
STAMPED = (Edition, RulesTable, RulesRow, SpecialRule, Weapon, SearchAlias)


@dataclass(frozen=True)
class DataVersion:
    stamp: str  # a short hash, for cache keys and ETags
    modified: datetime | None  # the latest change, for Last-Modified


def _sql() -> str:
    quote = connection.ops.quote_name
    selects = [
        f"SELECT {index}, COUNT(*), COALESCE(SUM({quote('id')}), 0), MAX({quote('updated_at')}) "
        f"FROM {quote(model._meta.db_table)}"
        for index, model in enumerate(STAMPED)
    ]
    through = Weapon.special_rules.through._meta.db_table
    selects.append(f"SELECT {len(STAMPED)}, COUNT(*), COALESCE(SUM({quote('id')}), 0), NULL FROM {quote(through)}")
    return " UNION ALL ".join(selects)


def _as_datetime(value: object) -> datetime | None:
    if isinstance(value, str):  # SQLite returns the stored text
        value = parse_datetime(value)
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return None


# The PostgreSQL connections that have the version query prepared (see ``_query``).
_PREPARED: weakref.WeakSet[object] = weakref.WeakSet()
STATEMENT = "muster_data_version"


def _query() -> str:
    """The version query, prepared once per PostgreSQL connection.

    Every reference request asks for the version, and planning this union of seven aggregates
    costs PostgreSQL as much as running it; a prepared statement is planned once per (persistent)
    connection. Django's cursors bind parameters on the client and never prepare, so the statement
    is prepared by its own SQL, outside Django's query log: a once-per-connection setting-up, like
    the time zone Django sets on a new connection. PostgreSQL re-plans it itself if a table changes.
    """
    # A transaction-pooling PgBouncer may hand each transaction another server connection, where
    # the statement was never prepared; Django's documented setting for that pooler says so.
    if connection.vendor != "postgresql" or connection.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS"):
        return _sql()
    connection.ensure_connection()
    raw = connection.connection
    if raw not in _PREPARED:
        with raw.cursor() as cursor:
            cursor.execute(f"PREPARE {STATEMENT} AS {_sql()}")
        _PREPARED.add(raw)
    return f"EXECUTE {STATEMENT}"


def data_version() -> DataVersion:
    """The rules data's current version: one query of seven small aggregates."""
    with connection.cursor() as cursor:
        cursor.execute(_query())
        return version_of(cursor.fetchall())


def version_of(rows: list[tuple]) -> DataVersion:
    rows = sorted(rows, key=lambda row: row[0])
    stamp = hashlib.blake2b(repr(rows).encode(), digest_size=8).hexdigest()
    stamps = [when for row in rows if (when := _as_datetime(row[3])) is not None]
    return DataVersion(stamp=stamp, modified=max(stamps, default=None))
