"""Security headers on every page type: a strict CSP, a Permissions-Policy, nothing inline to block."""

from __future__ import annotations

import re

import pytest

from tests.security.pages import load_data, page_urls

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)


def _directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())


@pytest.mark.django_db
def test_every_page_type_has_a_strict_csp_and_nothing_inline(client, alice):
    army_list = load_data(alice)
    client.force_login(alice)
    start = ["/", f"/lists/{army_list.pk}/", f"/s/{army_list.share_token}/", f"/lists/{army_list.pk}/print/"]
    start += ["/lists/new/", "/lists/import/", "/lists/trash/", "/accounts/password_change/"]
    urls = page_urls(client.get, start)
    assert len(urls) >= 20, urls
    for url in urls:
        response = client.get(url)
        html = response.content.decode()
        directives = _directives(response)
        assert directives["default-src"] == "'self'", url
        assert response["Permissions-Policy"].startswith("camera=()"), url
        assert not INLINE_SCRIPT.search(html), (url, INLINE_SCRIPT.search(html))
        assert not INLINE_HANDLER.search(html), (url, INLINE_HANDLER.search(html))
        assert "{#" not in html and "{%" not in html, url  # no template comment or tag leaks into a page
        if "/print/document/" in url:
            assert directives["style-src"] == "'self' 'unsafe-inline'", url  # the one documented exception
            assert directives["script-src"] == "'none'", url
        else:
            assert directives["script-src"] == "'self'", url
            assert directives["style-src"] == "'self'", url
            assert not STYLE_ATTRIBUTE.search(html), (url, STYLE_ATTRIBUTE.search(html))
            assert not STYLE_ELEMENT.search(html), url


@pytest.mark.django_db
def test_anonymous_pages_and_forms_too(client, alice):
    load_data(alice)
    urls = page_urls(client.get, ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"])
    assert {"/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"} <= set(urls)
    for url in urls:
        response = client.get(url)
        assert "Content-Security-Policy" in response, url
        assert not STYLE_ATTRIBUTE.search(response.content.decode()), url


@pytest.mark.django_db
def test_json_pdf_and_error_responses_carry_the_headers(client, alice):
    army_list = load_data(alice)
    client.force_login(alice)
    for url in ["/healthz/", "/api/", f"/lists/{army_list.pk}/roster.pdf", "/no-such-page/"]:
        response = client.get(url)
        assert "Content-Security-Policy" in response, url
        assert "Permissions-Policy" in response, url
