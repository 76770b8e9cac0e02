from __future__ import annotations

from django.urls import path

from armybuilder.leagues import views

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="leagues-player"),
    path("players/<str:username>/visibility/", views.player_visibility, name="leagues-player-visibility"),
    path("seasons/", views.season_index, name="leagues-seasons"),
    path("seasons/new/", views.season_new, name="leagues-season-new"),
    path("seasons/<slug:slug>/", views.season_detail, name="leagues-season"),
    path("seasons/<slug:slug>/edit/", views.season_edit, name="leagues-season-edit"),
    path("seasons/<slug:slug>/games/", views.league_game_new, name="leagues-game-new"),
    path("seasons/<slug:slug>/games/<int:pk>/confirm/", views.league_game_confirm, name="leagues-game-confirm"),
    path("seasons/<slug:slug>/games/<int:pk>/withdraw/", views.league_game_withdraw, name="leagues-game-withdraw"),
    path("events/<slug:slug>/results.csv", views.event_results_csv, name="leagues-event-results-csv"),
]
