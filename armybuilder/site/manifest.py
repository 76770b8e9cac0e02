"""The web app manifest: what a phone needs to install Muster as an app.

Served from the site root, like the service worker, so the installed app's scope is the whole
site. Names and descriptions follow the request's language (the manifest is fetched like a page,
through the locale middleware); icon and screenshot addresses go through ``static()`` so they carry
the build's hashed file names in production.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

# The header's olive and the page's paper (static/css/muster.css), so the splash screen and the
# phone's status bar match the app.
THEME_COLOUR = "#4b5320"
BACKGROUND_COLOUR = "#f7f5ef"

ICONS = (
    ("site/icons/icon-192.png", "192x192", "any"),
    ("site/icons/icon-512.png", "512x512", "any"),
    ("site/icons/icon-maskable-512.png", "512x512", "maskable"),
)

# (file, size, form factor): a phone's and a desktop's view of the builder, shown by install dialogs.
SCREENSHOTS = (
    ("site/screenshots/phone-builder.png", "390x844", "narrow"),
    ("site/screenshots/desktop-builder.png", "1280x800", "wide"),
)


def manifest_data() -> dict:
    return {
        "id": "/",
        "name": _("Muster: Bolt Action army lists, odds and game day"),
        "short_name": "Muster",
        "description": _(
            "Build Bolt Action army lists, look up the rules, work out exact odds and play at the table, offline too."
        ),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "utilities"],
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
        "screenshots": [
            {
                "src": static(path),
                "sizes": sizes,
                "type": "image/png",
                "form_factor": form,
                "label": _("An army list in the builder"),
            }
            for path, sizes, form in SCREENSHOTS
        ],
    }


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(
        manifest_data(), content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    # The language decides the names: a cache between the phone and Muster must keep one per language.
    response["Vary"] = "Accept-Language, Cookie"
    return response
