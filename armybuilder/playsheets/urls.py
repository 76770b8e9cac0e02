"""Playsheet URLs, mounted at the site root: list PDFs by owner (``lists/<pk>/``) or share link (``s/<token>/``).

Each list page exists twice, by owner and by share link, served by the same view; the PDFs come
from the ``KINDS`` table (``ps-roster-pdf``, ``ps-shared-roster-pdf``, ...). A PDF not already kept
is made by the task worker: its job's page (``pdf/<job>/``; ``reference/<edition>/sheet/<job>/`` for
the quick-reference sheet) follows it and then serves the file.
"""

from __future__ import annotations

from django.urls import path

from armybuilder.jobs import job_paths
from armybuilder.playsheets import views

BASES = (("lists/<int:pk>/", "ps-"), ("s/<str:token>/", "ps-shared-"))

urlpatterns = [
    path("reference/<slug:edition>/sheet.pdf", views.reference_sheet, name="ps-reference-sheet"),
    *job_paths(
        "reference/<slug:edition>/sheet/",
        views.reference_sheet_job,
        views.reference_sheet_job_file,
        name="ps-reference-sheet-job",
    ),
]
for base, prefix in BASES:
    urlpatterns += [
        *(path(f"{base}{k}.pdf", views.list_pdf, {"kind": k}, name=f"{prefix}{k}-pdf") for k in views.KINDS),
        path(f"{base}print/", views.print_preview, name=f"{prefix}print"),
        path(f"{base}print/document/", views.print_document, name=f"{prefix}print-document"),
        *job_paths(f"{base}pdf/", views.pdf_job, views.pdf_job_file, name=f"{prefix}pdf-job"),
    ]
