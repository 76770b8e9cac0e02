"""Django's Redis cache, degraded to no cache while Redis is down or full.

Muster keeps rate-limit counters, reference pages and PDFs in the cache; none of them is needed
to answer a request. With the plain backend a stopped Redis (or one refusing writes with "OOM
command not allowed" at its ``maxmemory``) made login, every PDF and uncached reference pages
answer 500: django-ratelimit's fail-open catches only ``socket.gaierror``. This backend catches
Redis's errors in every cache method and behaves as an empty cache that keeps nothing: a read is
a miss, a write is dropped (``add`` and ``touch`` answer False), and ``incr`` raises the
ValueError of a missing key, which django-ratelimit treats as a cache it could not count in, so
with ``RATELIMIT_FAIL_OPEN`` the request goes through. Each failure is logged, at most once per
``LOG_EVERY`` seconds per process, so an outage does not flood the log.

``available()`` is the health check's probe: a write and a read of a fresh value.

``RateLimitCache`` is the rate-limit counters' store: while its Redis is down or full the counters
are kept in this process instead (``fallback_active``), so failed logins stay limited through an
outage. Refusing every limited request instead would let anyone who fills Redis lock every player
out of signing in; counting per process keeps the limits, only looser: with W worker processes
a client meets at most W times the limit (gunicorn's workers, cores + 1 per server).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# A socket error from the connection (refused, reset) is wrapped by redis-py; OSError covers any
# that is not.
FAILURES = (RedisError, OSError)
LOG_EVERY = 10.0
WINDOW_MAX = 3600 + 60  # seconds: the longest rate-limit window Muster uses (per hour), and a margin


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._last_logged = 0.0
        self._log_lock = threading.Lock()

    def _failed(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        with self._log_lock:
            if now - self._last_logged < LOG_EVERY:
                return
            self._last_logged = now
        logger.warning("Cache unavailable (%s: %s); answering without it", operation, exc)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except FAILURES as exc:
            self._failed("add", exc)
            return False

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except FAILURES as exc:
            self._failed("get", exc)
            return default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except FAILURES as exc:
            self._failed("set", exc)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().touch(key, timeout, version)
        except FAILURES as exc:
            self._failed("touch", exc)
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except FAILURES as exc:
            self._failed("delete", exc)
            return False

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except FAILURES as exc:
            self._failed("get_many", exc)
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except FAILURES as exc:
            self._failed("has_key", exc)
            return False

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except FAILURES as exc:
            self._failed("incr", exc)
            raise ValueError(f"Key '{key}' not found (the cache is unavailable)") from exc

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except FAILURES as exc:
            self._failed("set_many", exc)
            return list(data)  # the keys that could not be stored

    def delete_many(self, keys, version=None):
        try:
            super().delete_many(keys, version)
        except FAILURES as exc:
            self._failed("delete_many", exc)

    def clear(self):
        try:
            return super().clear()
        except FAILURES as exc:
            self._failed("clear", exc)
            return False

    def available(self) -> bool:
        """Whether Redis stores and returns a value now (the health check's probe)."""
        token = secrets.token_hex(8)
        try:
            # Straight to the client: the methods above would hide the failure.
            super().set("muster:healthz", token, 10)
            return super().get("muster:healthz") == token
        except FAILURES as exc:
            self._failed("health check", exc)
            return False


class RateLimitCache(ResilientRedisCache):
    """Redis for the rate-limit counters, each process's own memory while Redis cannot count.

    django-ratelimit counts with ``add`` (a new window), ``incr`` (a request in it) and ``get``;
    those three fall back to a per-process cache, so a counter is always kept somewhere.
    """

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        # A name of its own per store: Django's local memory caches share their data by name.
        self._local = LocMemCache(f"muster-ratelimit-fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 100_000}})
        self._failed_at = 0.0

    def _fall_back(self, operation: str, exc: Exception) -> LocMemCache:
        self._failed(operation, exc)
        self._failed_at = time.monotonic()
        return self._local

    @property
    def fallback_active(self) -> bool:
        """Whether a counter had to be kept in this process within the last minute."""
        return bool(self._failed_at) and time.monotonic() - self._failed_at < 60

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return RedisCache.add(self, key, value, timeout, version)
        except FAILURES as exc:
            return self._fall_back("add", exc).add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        try:
            return RedisCache.incr(self, key, delta, version)
        except FAILURES as exc:
            local = self._fall_back("incr", exc)
            try:
                return local.incr(key, delta, version)
            except ValueError:  # the window began while Redis still answered: start it here
                # Each window has a key of its own, so outliving it counts nothing twice.
                local.add(key, delta, WINDOW_MAX, version)
                return delta

    def get(self, key, default=None, version=None):
        try:
            return RedisCache.get(self, key, default, version)
        except FAILURES as exc:
            return self._fall_back("get", exc).get(key, default, version)
