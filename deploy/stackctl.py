"""The running stack's parts behind nginx, for deploy/smoke.py and deploy/loadtest.py (standard library).

``deploy/stack.sh start`` writes ``$STACK_DIR/stack.env`` (the app servers' ports, the two Redis
ports); the gunicorn masters' pid files are ``$STACK_DIR/gunicorn-<port>.pid``. ``STACK_DIR``
defaults to stack.sh's ``/tmp/muster-stack-<nginx port>``.
"""

from __future__ import annotations

import os
import socket
import time
import urllib.parse
from pathlib import Path


def stack_env(base: str) -> dict[str, str]:
    """What deploy/stack.sh wrote for us: the app servers' ports, the Redis ports, its directory."""
    directory = Path(os.environ.get("STACK_DIR") or f"/tmp/muster-stack-{urllib.parse.urlparse(base).port}")
    values = {"DIR": str(directory)}
    for line in (directory / "stack.env").read_text().splitlines():
        name, _, value = line.partition("=")
        values[name] = value.strip('"')
    return values


def worker_pids(stack: dict[str, str]) -> list[int]:
    """The gunicorn workers now: the children of each app server's master."""
    pids = []
    for port in stack["APP_PORTS"].split():
        master = int(Path(stack["DIR"], f"gunicorn-{port}.pid").read_text())
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        pids += [int(pid) for pid in children]
    return pids


def task_worker_pid(stack: dict[str, str]) -> int | None:
    """The task worker process now: the child of its supervisor (deploy/supervise.sh, worker.pid)."""
    supervisor = int(Path(stack["DIR"], "worker.pid").read_text())
    for child in Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split():
        try:
            if b"db_worker" in Path(f"/proc/{child}/cmdline").read_bytes():
                return int(child)
        except OSError:
            continue  # gone meanwhile (the supervisor's pause between two starts is a child too)
    return None


def busy_worker(stack: dict[str, str], within: float = 0.5) -> int | None:
    """A worker that is running now (state R in /proc), else any: within ``within`` seconds."""
    deadline = time.monotonic() + within
    pids = worker_pids(stack)
    while pids and time.monotonic() < deadline:
        for pid in pids:
            try:
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "R":
                    return pid
            except OSError:
                continue
        time.sleep(0.005)
        pids = worker_pids(stack)
    return pids[0] if pids else None


def redis_command(port: str, command: str) -> bytes:
    with socket.create_connection(("127.0.0.1", int(port)), timeout=5) as connection:
        connection.sendall(command.encode() + b"\r\n")
        try:
            return connection.recv(1024)
        except OSError:
            return b""


def stop_redis(stack: dict[str, str]) -> None:
    """Both Redis (the cache's and the rate-limit counters'), stopped without saving."""
    for port in (stack["REDIS_PORT"], stack["RATELIMIT_REDIS_PORT"]):
        redis_command(port, "SHUTDOWN NOSAVE")
