"""Muster as an installable app, and its header menu: the manifest, its icons, and what every page links."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from PIL import Image

STATIC = Path(settings.BASE_DIR) / "static"


def _static_file(url: str) -> Path:
    assert url.startswith(settings.STATIC_URL), url
    return STATIC / url.removeprefix(settings.STATIC_URL)


def test_the_manifest_says_what_an_install_needs(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["short_name"] == "Muster"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#4b5320" and manifest["background_color"] == "#f7f5ef"
    # Each icon is a real PNG of the size it claims: 192 and 512, one of them maskable.
    sizes = set()
    for icon in manifest["icons"]:
        with Image.open(_static_file(icon["src"])) as image:
            assert image.format == "PNG"
            assert f"{image.width}x{image.height}" == icon["sizes"]
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    forms = set()
    for shot in manifest["screenshots"]:
        with Image.open(_static_file(shot["src"])) as image:
            assert f"{image.width}x{image.height}" == shot["sizes"]
        forms.add(shot["form_factor"])
    assert forms == {"narrow", "wide"}


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "fr"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["lang"] == "fr"
    assert "Bolt Action" in manifest["name"] and "listes" in manifest["name"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/reference/", "/lists/", "/calc/", "/events/", "/accounts/login/"])
def test_every_page_links_the_manifest_and_the_touch_icon(client, path):
    page = client.get(path).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'rel="apple-touch-icon"' in page and '<meta name="theme-color" content="#4b5320">' in page
    with Image.open(STATIC / "site/icons/apple-touch-icon.png") as image:
        assert image.size == (180, 180) and image.mode == "RGB"  # iOS wants an opaque square


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "current"),
    [("/lists/", "/lists/"), ("/calc/", "/calc/"), ("/reference/", "/reference/"), ("/events/", "/events/")],
)
def test_the_header_marks_the_current_page_and_only_it(client, path, current):
    page = client.get(path).content.decode()
    header = page[page.index('<header class="site-header">') : page.index("</header>")]
    assert header.count('aria-current="page"') == 1
    assert f'<a href="{current}" aria-current="page">' in header


@pytest.mark.django_db
def test_the_menu_works_without_javascript(client):
    # A <details> opens without a script; its items are plain links and forms.
    page = client.get("/").content.decode()
    assert '<details class="nav-menu" data-nav-menu>' in page
    menu = page[page.index("<details") : page.index("</details>")]
    for link in ('href="/reference/"', 'href="/events/"', 'href="/accounts/login/"', 'href="/accounts/signup/"'):
        assert link in menu
    assert 'name="language"' in menu and "<noscript>" in menu
    # The install button shows only where the browser offers an install (it is hidden until then).
    assert "data-install hidden" in menu


@pytest.mark.django_db
def test_the_language_choice_names_each_language_in_itself(client):
    page = client.get("/").content.decode()
    assert '<option value="en" lang="en" selected>English</option>' in page
    assert '<option value="fr" lang="fr">Français</option>' in page
    assert '<option value="de" lang="de">Deutsch</option>' in page
    assert '<option value="pl" lang="pl">Polski</option>' in page
