"""Health check, Muster's own 500 and 503 pages, mail failures reported, deploy checks."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.core import checks
from django.db import OperationalError
from django.test import Client

from armybuilder.security.checks import check_mail, check_shared_cache


@pytest.mark.django_db
def test_healthz_answers_200_with_the_database(client):
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "local", "ratelimit": "local", "failed": []}


@pytest.mark.django_db
def test_healthz_answers_503_without_the_database(client):
    with mock.patch("armybuilder.site.views.connection.cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/healthz/")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"
    assert response.json()["failed"] == ["database"]
    assert response["Retry-After"]


def test_connections_are_health_checked(settings):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("en", "Briefly unavailable"), ("fr", "Momentanément indisponible")])
def test_a_page_gets_musters_503_while_the_database_is_down(client, language, words):
    with mock.patch("armybuilder.site.views.Edition.objects.all", side_effect=OperationalError("server closed")):
        response = client.get("/", headers={"Accept-Language": language})
    assert response.status_code == 503
    assert words in response.content.decode()
    assert response["Retry-After"] == "30"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("en", "Something went wrong"), ("fr", "Une erreur s'est produite")])
def test_an_error_gets_musters_own_500_page(language, words):
    client = Client(raise_request_exception=False)
    with mock.patch("armybuilder.site.views.Edition.objects.all", side_effect=RuntimeError("bug")):
        response = client.get("/", headers={"Accept-Language": language})
    assert response.status_code == 500
    html = response.content.decode()
    assert words in html and "Muster" in html


class _BrokenMail:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("no SMTP server")


@pytest.mark.django_db
def test_a_password_reset_mail_that_cannot_be_sent_is_logged_as_an_error(client, alice, caplog, settings):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}._BrokenMail"}}
    with caplog.at_level(logging.ERROR):
        response = client.post("/accounts/password_reset/", {"email": alice.email})
    assert response.status_code == 302  # the visitor is not told whether the address exists
    assert any(r.levelno == logging.ERROR and "password reset" in r.getMessage().lower() for r in caplog.records)


def test_deploy_check_warns_about_default_mail_settings(settings):
    settings.DEBUG = False
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {}}}
    assert [m.id for m in check_mail(None)] == ["muster.W001"]
    settings.MAILERS = {
        "default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {"host": "smtp.example.org"}}
    }
    settings.DEFAULT_FROM_EMAIL = "muster@example.org"
    assert check_mail(None) == []


def test_deploy_check_warns_about_a_per_process_cache(settings):
    settings.DEBUG = False
    assert [m.id for m in check_shared_cache(None)] == ["muster.W003"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://x"}}
    assert check_shared_cache(None) == []


def test_the_checks_are_registered_for_deploy_only():
    registered = checks.registry.registry.get_checks(include_deployment_checks=True)
    assert check_mail in registered and check_shared_cache in registered
    assert check_mail not in checks.registry.registry.get_checks(include_deployment_checks=False)
