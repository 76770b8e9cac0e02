from __future__ import annotations

from django.urls import path

from armybuilder.resolver import views

urlpatterns = [
    path("", views.index, name="calc-index"),
    path("shooting/", views.shooting, name="calc-shooting"),
    path("anti-tank/", views.anti_tank, name="calc-anti-tank"),
    path("order-test/", views.order_test, name="calc-order-test"),
    path("close-quarters/", views.close_quarters, name="calc-close-quarters"),
    path("order-dice/", views.order_dice, name="calc-order-dice"),
]
