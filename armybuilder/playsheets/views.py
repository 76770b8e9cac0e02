"""Printable playsheets: the quick-reference sheet of an edition, and a list's roster, cards and summary.

A list's PDFs are exactly as private as the list: every lookup goes through
``armybuilder.lists.access``, so another visitor gets a 404 and a share link opens them read-only.
One view serves every PDF of a list, by its owner (``pk``) or by share link (``token``); what
each PDF holds is the ``KINDS`` table. The views only pick the list and the options; ``context``
builds the data and ``pdf`` renders (and keeps) it. Every list page answers reloads with 304
while the list is unchanged (``lists.conditional``); what bounds a render is said in ``pdf``.
A PDF not already kept is made by the task worker (``jobs``): the request answers with the
job's status page, which follows it and then offers the file.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.csp import CSP
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from armybuilder import jobs as pipeline
from armybuilder.http import HtmxHttpRequest, conditional, pdf_response
from armybuilder.lists.access import get_list_for_user, get_shared_list
from armybuilder.lists.conditional import list_page
from armybuilder.lists.models import ArmyList
from armybuilder.playsheets import jobs, pdf
from armybuilder.playsheets.context import list_context
from armybuilder.playsheets.forms import PrintOptions, print_options
from armybuilder.playsheets.models import PdfJob
from armybuilder.reference.models import Edition
from armybuilder.reference.pages import reference_revision

LIST_TEMPLATE = pdf.LIST_TEMPLATE
# The framed print document is the one page whose markup carries inline styles: the page size and
# the column widths computed per list, shared with the PDF renderer, which has no stylesheet URL
# to fetch. It may have them, and still no script at all.
PRINT_DOCUMENT_CSP = {**settings.SECURE_CSP, "script-src": [CSP.NONE], "style-src": [CSP.SELF, CSP.UNSAFE_INLINE]}


@dataclass(frozen=True)
class PdfKind:
    """One PDF of a list: its URL name (``<kind>.pdf``) and what it holds."""

    slug: str
    parts: tuple[str, ...] | None  # None: the parts ticked on the print page (the query string)


KINDS = {
    kind.slug: kind
    for kind in (
        PdfKind("roster", ("roster",)),
        PdfKind("cards", ("cards",)),
        PdfKind("playsheet", ("roster", "summary")),
        PdfKind("print", None),
    )
}


def _private(response: HttpResponse) -> HttpResponse:
    # Revalidated on every use (``lists.conditional`` answers 304 while unchanged), never shared.
    response["Cache-Control"] = "private, no-cache"
    return response


def _shared(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex"
    return _private(response)


def _list_and_wrapper(
    request: HttpRequest, pk: int | None, token: str | None, *, for_builder: bool = True
) -> tuple[ArmyList, str, Callable[[HttpResponse], HttpResponse]]:
    """The list (owned or shared), its pages' base URL and the headers its responses get.

    Without ``for_builder`` only the list's row and army are read (a cached PDF needs no more).
    """
    if token is not None:
        if for_builder:
            army_list = get_shared_list(token)
        else:
            army_list = get_object_or_404(ArmyList.objects.active().select_related("army"), share_token=token)
        return army_list, f"/s/{army_list.share_token}/", _shared
    army_list = get_list_for_user(request, pk or 0, for_builder=for_builder)
    return army_list, f"/lists/{army_list.pk}/", _private


# -- A list's PDFs, by its owner and by share link ----------------------------------------------


def _job_bytes(job: PdfJob) -> bytes:
    return bytes(PdfJob.objects.values_list("pdf", flat=True).get(pk=job.pk))


@require_safe
@list_page
def list_pdf(request: HttpRequest, kind: str, pk: int | None = None, token: str | None = None) -> HttpResponse:
    army_list, base, wrap = _list_and_wrapper(request, pk, token, for_builder=False)
    options, _bound = print_options(request.GET)
    parts = KINDS[kind].parts or options.parts
    filename = f"{slugify(army_list.name) or 'list'}-{kind}-{options.lang}-{options.paper}.pdf"
    key = pdf.list_cache_key(army_list, lang=options.lang, paper=options.paper, parts=parts)
    data = pdf.kept(key)
    if data is None:
        # Up to seconds of rendering: the worker makes it, the visitor follows it on the job's page.
        try:
            job = jobs.enqueue_list_pdf(
                army_list,
                key=key,
                lang=options.lang,
                paper=options.paper,
                parts=parts,
                filename=filename,
                request=request,
            )
        except pipeline.Refused as refused:
            return refused.response
        if not job.is_done:
            return wrap(redirect(f"{base}pdf/{job.pk}/"))
        # Made already: a kept job for the same input, or a backend that runs tasks at once (development).
        data = _job_bytes(job)
    return wrap(pdf_response(data, filename, download=request.GET.get("download") == "1"))


# -- A PDF the worker makes: its status page and its download -----------------------------------


def _job(request: HttpRequest, job: uuid.UUID, pk: int | None, token: str | None):
    # The list first, through the same access rules as its PDFs: another visitor's job is a 404.
    army_list, base, wrap = _list_and_wrapper(request, pk, token, for_builder=False)
    return get_object_or_404(PdfJob.objects.defer("pdf"), pk=job, army_list=army_list), army_list, base, wrap


@require_safe
@vary_on_headers("HX-Request")
def pdf_job(request: HtmxHttpRequest, job: uuid.UUID, pk: int | None = None, token: str | None = None) -> HttpResponse:
    pdf_job, army_list, base, wrap = _job(request, job, pk, token)
    context = {
        "army_list": army_list,
        "title": army_list.name,
        "lead": f"{army_list.army.display_name} · {army_list.edition.display_name}",
        "job": pdf_job,
        "status_url": f"{base}pdf/{pdf_job.pk}/",
        "file_url": f"{base}pdf/{pdf_job.pk}/file.pdf",
        "print_url": f"{base}print/",
    }
    response = pipeline.status_page(request, "playsheets/job.html", context)
    if token is not None:
        response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def pdf_job_file(request: HttpRequest, job: uuid.UUID, pk: int | None = None, token: str | None = None) -> HttpResponse:
    pdf_job, _army_list, base, wrap = _job(request, job, pk, token)
    if not pdf_job.is_done:
        return redirect(f"{base}pdf/{pdf_job.pk}/")
    return wrap(pdf_response(_job_bytes(pdf_job), pdf_job.filename, download=request.GET.get("download") == "1"))


# -- The print preview page and the HTML document it frames -------------------------------------


def _sheet_query(options: PrintOptions) -> str:
    return f"paper={options.paper}&lang={options.lang}"


def _direct_links(base: str, options: PrintOptions) -> list[tuple[str, str]]:
    query = _sheet_query(options)
    return [
        (_("Roster"), f"{base}roster.pdf?{query}"),
        (_("Playsheet (roster and rules summary)"), f"{base}playsheet.pdf?{query}"),
        (_("Unit cards"), f"{base}cards.pdf?{query}"),
    ]


@require_safe
@list_page
def print_preview(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    army_list, base, wrap = _list_and_wrapper(request, pk, token)
    options, form = print_options(request.GET)
    context = {
        "army_list": army_list,
        "form": form,
        "options": options,
        "action": f"{base}print/",
        "document_url": f"{base}print/document/?{options.query()}",
        "download_url": f"{base}print.pdf?{options.query(download='1')}",
        "pdf_action": f"{base}print.pdf",
        "links": _direct_links(base, options),
        "sheet_url": f"/reference/{army_list.edition.slug}/sheet.pdf?{_sheet_query(options)}",
    }
    return wrap(render(request, "playsheets/print.html", context))


@require_safe
@xframe_options_sameorigin
@csp_override(PRINT_DOCUMENT_CSP)
@list_page
def print_document(request: HttpRequest, pk: int | None = None, token: str | None = None) -> HttpResponse:
    army_list, _base, wrap = _list_and_wrapper(request, pk, token)
    options, _bound = print_options(request.GET)
    with translation.override(options.lang):
        context = list_context(army_list, paper=options.paper, parts=options.parts)
        html = pdf.render_html(LIST_TEMPLATE, context, for_pdf=False)
    return wrap(HttpResponse(html))


# -- Quick reference --------------------------------------------------------------------------


@require_safe
@conditional(reference_revision, per_visitor=False)  # the same sheet for everyone: 304 while the data stands
def reference_sheet(request: HttpRequest, edition: str) -> HttpResponse:
    current = get_object_or_404(Edition, slug=edition)
    options, _bound = print_options(request.GET)
    filename = f"muster-{current.slug}-quick-reference-{options.lang}-{options.paper}.pdf"
    data = pdf.kept(pdf.sheet_cache_key(current, options.lang, options.paper))
    if data is None:
        try:
            job = jobs.enqueue_reference_sheet(
                current, lang=options.lang, paper=options.paper, filename=filename, request=request
            )
        except pipeline.Refused as refused:
            return refused.response
        if not job.is_done:
            return redirect("ps-reference-sheet-job", edition=current.slug, job=job.pk)
        data = _job_bytes(job)
    return pdf_response(data, filename, download=request.GET.get("download") == "1")


def _sheet_job(edition: str, job: uuid.UUID) -> tuple[Edition, PdfJob]:
    current = get_object_or_404(Edition, slug=edition)
    return current, get_object_or_404(PdfJob.objects.defer("pdf"), pk=job, edition=current, army_list=None)


@require_safe
@vary_on_headers("HX-Request")
def reference_sheet_job(request: HtmxHttpRequest, edition: str, job: uuid.UUID) -> HttpResponse:
    current, sheet_job = _sheet_job(edition, job)
    base = f"/reference/{current.slug}/sheet/{sheet_job.pk}/"
    context = {
        "title": _("Quick reference"),
        "lead": f"Bolt Action · {current.display_name}",
        "job": sheet_job,
        "status_url": base,
        "file_url": f"{base}file.pdf",
        "print_url": f"/reference/{current.slug}/",
    }
    return pipeline.status_page(request, "playsheets/job.html", context)


@require_safe
def reference_sheet_job_file(request: HttpRequest, edition: str, job: uuid.UUID) -> HttpResponse:
    current, sheet_job = _sheet_job(edition, job)
    if not sheet_job.is_done:
        return redirect("ps-reference-sheet-job", edition=current.slug, job=sheet_job.pk)
    return pdf_response(_job_bytes(sheet_job), sheet_job.filename, download=request.GET.get("download") == "1")
