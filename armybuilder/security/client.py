"""The visitor's address, as the rate limits count it, read safely from behind the proxy.

Behind nginx every request reaches the app server from the proxy (127.0.0.1), so limits keyed
by ``REMOTE_ADDR`` counted the whole internet as one visitor: ten failed logins by anyone locked
everyone out. Muster's nginx (deploy/nginx/muster-proxy.conf) sets ``X-Forwarded-For`` to the
address that connected to it. That header is believed only when the request comes from a proxy
listed in ``TRUSTED_PROXIES`` (addresses or networks); from anyone else it is the visitor's own
claim and changes nothing. The address used is the header's last hop that is not itself a trusted
proxy: the one the nearest trusted proxy saw connect, whether nginx replaces the header (Muster's
configuration) or appends to one the client sent.

``RATELIMIT_IP_META_KEY`` points django-ratelimit here, so every per-address limit ("ip",
"user_or_ip") counts per visitor.
"""

from __future__ import annotations

import functools
import ipaddress
import logging

from django.conf import settings
from django.http import HttpRequest

logger = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(values: list[str] | tuple[str, ...]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` as networks; raises ValueError naming an entry that is neither an
    address nor a network (``10.0.0.0/8``, ``::1``)."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return tuple(networks)


@functools.cache
def _trusted(values: tuple[str, ...]) -> tuple[Network, ...]:
    try:
        return parse_proxies(values)
    except ValueError as exc:
        # The deploy check (muster.W004) says which entry; meanwhile no proxy is believed.
        logger.error("TRUSTED_PROXIES ignored: %s", exc)
        return ()


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _is_trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address, proxies: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def client_ip(request: HttpRequest) -> str:
    """The visitor's address: ``REMOTE_ADDR``, or behind a trusted proxy the forwarded one."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    proxies = _trusted(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    peer = _address(remote)
    if not proxies or peer is None or not _is_trusted(peer, proxies):
        return remote
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            # Something the proxy did not write: believe nothing further left.
            return remote
        if not _is_trusted(address, proxies):
            return str(address)
    return remote
