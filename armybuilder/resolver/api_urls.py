from __future__ import annotations

from django.urls import path

from armybuilder.resolver import api

urlpatterns = [
    path("resolve/shooting/", api.resolve_shooting, name="api-resolve-shooting"),
    path("resolve/anti-tank/", api.resolve_anti_tank, name="api-resolve-anti-tank"),
    path("resolve/tank-assault/", api.resolve_tank_assault, name="api-resolve-tank-assault"),
    path("resolve/order-test/", api.resolve_order_test, name="api-resolve-order-test"),
    path("resolve/close-quarters/", api.resolve_close_quarters, name="api-resolve-close-quarters"),
    path("resolve/order-dice/", api.resolve_order_dice, name="api-resolve-order-dice"),
    path("resolve/ranging-in/", api.resolve_ranging_in, name="api-resolve-ranging-in"),
]
