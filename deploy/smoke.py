"""Smoke test of a running Muster stack through nginx (``deploy/stack.sh start`` prints its URL).

    .venv/bin/python deploy/smoke.py https://127.0.0.1:8443

Standard library only. Checks, in order: health, pages and their headers, static files from
nginx (gzip), a list import, an htmx action, a PDF, a 429 from a rate limit shared by every
worker (Redis), and an oversized body refused by nginx. Every request has a timeout; the
whole run takes seconds. Exits non-zero on the first failure, saying what failed.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import re
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 30
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE  # the stack's certificate is self-signed


class Failed(Exception):
    pass


class Session:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=CONTEXT),
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirect(),
        )

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(self, method: str, path: str, data: dict | bytes | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        if method == "POST":
            request.add_header("X-CSRFToken", self.csrf())
            request.add_header("Referer", self.base + path)
            if isinstance(data, dict):
                request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers.items()), error.read()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


PASSED = []


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)
    PASSED.append(what)
    print(f"  ok  {what}")


def main(base: str, apps: list[str]) -> None:
    s = Session(base)
    status, headers, body = s.request("GET", "/healthz/")
    check(status == 200 and json.loads(body)["database"] == "ok", "/healthz/ answers 200 with the database up")

    for path in ["/", "/reference/", "/reference/v3/", "/calc/", "/calc/shooting/", "/lists/", "/accounts/login/"]:
        status, headers, body = s.request("GET", path)
        check(status == 200, f"GET {path} is 200")
    check("script-src 'self'" in headers.get("Content-Security-Policy", ""), "pages carry the CSP")
    check("camera=()" in headers.get("Permissions-Policy", ""), "pages carry the Permissions-Policy")
    check("gunicorn" not in headers.get("Server", "").lower(), f"no gunicorn banner (Server: {headers.get('Server')})")
    check(s.base.startswith("https://") and any(c.secure for c in s.jar), "served over TLS, with secure cookies")

    status, headers, body = s.request("GET", "/")
    css = re.search(rb'href="(/static/css/muster\.[0-9a-f]+\.css)"', body)
    check(css is not None, "the home page links its hashed stylesheet")
    status, headers, body = s.request("GET", css.group(1).decode(), headers={"Accept-Encoding": "gzip"})
    check(status == 200 and headers.get("Content-Encoding") == "gzip", "nginx serves static files, gzipped")
    check("immutable" in headers.get("Cache-Control", ""), "static files are cached for good")
    js = re.search(rb'src="(/static/js/muster\.[0-9a-f]+\.js)"', s.request("GET", "/")[2])
    check(js is not None and s.request("GET", js.group(1).decode())[0] == 200, "the htmx failure script is served")

    # A list, imported anonymously (kept in the visitor's session), then changed through htmx.
    document = {
        "format": "muster-list/1",
        "name": "Smoke test",
        "edition": "v3",
        "army": ["v3", "generic"],
        "points_limit": 1000,
        "entries": [],
    }
    s.request("GET", "/lists/import/")
    status, headers, body = s.request("POST", "/lists/import/", {"text": json.dumps(document)})
    check(status == 302 and re.match(r".*/lists/\d+/$", headers.get("Location", "")), "a list is imported")
    builder = urllib.parse.urlparse(headers["Location"]).path
    status, headers, body = s.request("GET", builder)
    check(status == 200 and b"Smoke test" in body, "its builder opens")
    unit = re.search(rb'name="unit" value="(\d+)"', body)
    check(unit is not None, "the builder offers units")
    status, headers, body = s.request(
        "POST", f"{builder}entries/add/", {"unit": unit.group(1).decode()}, headers={"HX-Request": "true"}
    )
    check(status == 200 and b"<html" not in body[:200].lower() and b"entry-" in body, "an htmx action swaps a fragment")

    status, headers, body = s.request("GET", f"{builder}roster.pdf")
    check(status == 200 and body.startswith(b"%PDF-"), "the list's roster PDF renders")

    # Wrong passwords until refused: the limit is 10 a minute per address, counted in Redis
    # whichever worker or app server answers. Windows are fixed, so one that ends mid-run lets up
    # to 10 more through: at most 21 tries.
    s.request("GET", "/accounts/login/")
    statuses = []
    while len(statuses) < 21 and 429 not in statuses:
        status, headers, body = s.request("POST", "/accounts/login/", {"username": "smoke", "password": "wrong"})
        statuses.append(status)
    check(statuses[:10] == [200] * 10 and statuses[-1] == 429, f"repeated logins get a 429 ({len(statuses)} tries)")
    check(int(headers.get("Retry-After", "0")) > 0, "the 429 says when to retry")
    check(b"Too many requests" in body, "the 429 page says why")

    # Straight to an app server (as a scanner on the private network would): no gunicorn banner either.
    for app in apps:
        connection = http.client.HTTPConnection(*app.split(":"), timeout=TIMEOUT)
        connection.request("GET", "/ping/", headers={"X-Forwarded-Proto": "https"})
        response = connection.getresponse()
        response.read()
        server = response.getheader("Server", "")
        check(response.status == 200 and "gunicorn" not in server.lower(), f"{app} answers without a banner ({server})")
        connection.close()

    # A 3 MB body: nginx refuses it from its Content-Length, before a byte reaches gunicorn.
    parsed = urllib.parse.urlparse(base)
    connection = http.client.HTTPSConnection(parsed.hostname, parsed.port, timeout=TIMEOUT, context=CONTEXT)
    connection.putrequest("POST", "/lists/import/")
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(3 * 1024 * 1024))
    connection.endheaders()
    response = connection.getresponse()
    check(response.status == 413, f"an oversized body is refused with 413 ({response.status})")
    connection.close()


if __name__ == "__main__":
    started = time.monotonic()
    try:
        # deploy/smoke.py URL [HOST:PORT of each app server...]
        main(sys.argv[1] if len(sys.argv) > 1 else "https://127.0.0.1:8443", sys.argv[2:])
    except Failed as failure:
        print(f"SMOKE TEST FAILED: {failure}", file=sys.stderr)
        print(f"smoke: {len(PASSED)} passed, 1 failed")
        sys.exit(1)
    print(f"smoke test through nginx took {time.monotonic() - started:.1f} s")
    print(f"smoke: {len(PASSED)} passed, 0 failed")
