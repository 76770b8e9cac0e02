"""Create the PostgreSQL database a DATABASE_URL names, if it is missing (for `make smoke` and `make loadtest`)."""

from __future__ import annotations

import sys
import urllib.parse

import psycopg
from psycopg import sql


def main(url: str) -> None:
    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    server = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(server, autocommit=True, connect_timeout=10) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


if __name__ == "__main__":
    main(sys.argv[1])
