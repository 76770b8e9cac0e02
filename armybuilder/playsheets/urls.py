"""Playsheet URLs, mounted at the site root: list PDFs by owner (``lists/<pk>/``) or share link (``s/<token>/``)."""

from __future__ import annotations

from django.urls import path

from armybuilder.playsheets import views

urlpatterns = [
    path("reference/<slug:edition>/sheet.pdf", views.reference_sheet, name="ps-reference-sheet"),
    path("lists/<int:pk>/roster.pdf", views.roster_pdf, name="ps-roster"),
    path("lists/<int:pk>/cards.pdf", views.cards_pdf, name="ps-cards"),
    path("lists/<int:pk>/playsheet.pdf", views.playsheet_pdf, name="ps-playsheet"),
    path("lists/<int:pk>/print.pdf", views.print_pdf, name="ps-print-pdf"),
    path("lists/<int:pk>/print/", views.print_preview, name="ps-print"),
    path("lists/<int:pk>/print/document/", views.print_document, name="ps-print-document"),
    path("s/<str:token>/roster.pdf", views.shared_roster_pdf, name="ps-shared-roster"),
    path("s/<str:token>/cards.pdf", views.shared_cards_pdf, name="ps-shared-cards"),
    path("s/<str:token>/playsheet.pdf", views.shared_playsheet_pdf, name="ps-shared-playsheet"),
    path("s/<str:token>/print.pdf", views.shared_print_pdf, name="ps-shared-print-pdf"),
    path("s/<str:token>/print/", views.shared_print_preview, name="ps-shared-print"),
    path("s/<str:token>/print/document/", views.shared_print_document, name="ps-shared-print-document"),
]
