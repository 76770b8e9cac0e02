from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

# API routes come before the reference API's catch-all `<edition>/<table>/` pattern.
api_patterns = [
    path("", include("armybuilder.catalogue.api_urls")),
    path("", include("armybuilder.lists.api_urls")),
    path("", include("armybuilder.events.api_urls")),
    path("", include("armybuilder.leagues.api_urls")),
    path("", include("armybuilder.resolver.api_urls")),
    path("", include("armybuilder.reference.api_urls")),
]

# A database outage met outside a view is a 503, not a 500 (see site.views.server_error).
handler500 = "armybuilder.site.views.server_error"

urlpatterns = [
    path("", include("armybuilder.site.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("reference/", include("armybuilder.reference.urls")),
    path("catalogue/import/", include("armybuilder.importers.urls")),
    path("units/", include("armybuilder.catalogue.own_urls")),
    path("lists/import/roster/", include("armybuilder.importers.roster_urls")),
    path("", include("armybuilder.accounts.urls")),
    path("", include("armybuilder.lists.urls")),
    # The odds pages: "resolver" in the code (app, templates, url names), "odds" on the page. Their
    # public paths, /calc/ here and /api/resolve/ above, stay as they are: bookmarks, shared results
    # and API clients use them.
    path("calc/", include("armybuilder.resolver.urls")),
    path("", include("armybuilder.playsheets.urls")),
    path("", include("armybuilder.games.urls")),
    # Seasons, players' pages and the results CSV (under /events/<slug>/ too), before the events app.
    path("", include("armybuilder.leagues.urls")),
    path("events/", include("armybuilder.events.urls")),
]
