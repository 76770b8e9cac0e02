"""A form refused by the CSRF check gets Muster's page in the visitor's language, not
Django's unstyled default."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def strict():
    return Client(enforce_csrf_checks=True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "security token is missing or out of date"), ("fr", "jeton de sécurité est absent ou périmé")],
)
def test_a_form_without_its_token_gets_musters_403_page(strict, language, words):
    response = strict.post(
        "/accounts/login/", {"username": "a", "password": "b"}, headers={"Accept-Language": language}
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert words in html
    assert 'class="site-header"' in html and "Muster" in html  # the site's layout
    assert "CSRF verification failed" not in html  # not Django's page


@pytest.mark.django_db
def test_htmx_gets_the_notice_as_plain_text(strict):
    response = strict.post("/lists/new/", {}, headers={"HX-Request": "true"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/plain")
    assert "security token" in response.content.decode()
