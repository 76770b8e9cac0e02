from __future__ import annotations

from django.urls import path

from armybuilder.resolver import views

urlpatterns = [
    path("", views.index, name="resolver-index"),
    path("shooting/", views.shooting, name="resolver-shooting"),
    path("anti-tank/", views.anti_tank, name="resolver-anti-tank"),
    path("order-test/", views.order_test, name="resolver-order-test"),
    path("close-quarters/", views.close_quarters, name="resolver-close-quarters"),
    path("order-dice/", views.order_dice, name="resolver-order-dice"),
]
