"""Game URLs, mounted at the site root: ``games/`` for the creator, ``g/<token>/`` for the opponent."""

from __future__ import annotations

from django.urls import path

from armybuilder.games import views

urlpatterns = [
    path("games/", views.index, name="games-index"),
    path("games/new/", views.new, name="games-new"),
    path("games/<int:pk>/", views.game, name="games-game"),
    path("games/<int:pk>/act/", views.act, name="games-act"),
    path("games/<int:pk>/undo/", views.undo, name="games-undo"),
    path("games/<int:pk>/merge/", views.merge, name="games-merge"),
    path("games/<int:pk>/settle/", views.settle, name="games-settle"),
    path("games/<int:pk>/odds/", views.odds, name="games-odds"),
    path("games/<int:pk>/delete/", views.delete, name="games-delete"),
    path("g/<str:token>/", views.game, name="games-shared"),
    path("g/<str:token>/act/", views.act, name="games-shared-act"),
    path("g/<str:token>/undo/", views.undo, name="games-shared-undo"),
    path("g/<str:token>/merge/", views.merge, name="games-shared-merge"),
    path("g/<str:token>/settle/", views.settle, name="games-shared-settle"),
    path("g/<str:token>/odds/", views.odds, name="games-shared-odds"),
]
