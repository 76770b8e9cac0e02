"""Printable playsheets: the quick-reference sheet of an edition, and a list's roster, cards and summary.

A list's PDFs are exactly as private as the list: every lookup goes through
``armybuilder.lists.access``, so another visitor gets a 404 and a share link opens them read-only.
The views only pick the list and the options; ``context`` builds the data and ``pdf`` renders it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET

from armybuilder.lists.access import get_list_for_user, get_shared_list
from armybuilder.lists.models import ArmyList
from armybuilder.playsheets import pdf
from armybuilder.playsheets.context import list_context
from armybuilder.playsheets.forms import PrintOptions, print_options
from armybuilder.reference.models import Edition

LIST_TEMPLATE = pdf.LIST_TEMPLATE

# What each fixed PDF of a list holds; print.pdf takes its parts from the query string.
ROSTER = ("roster",)
CARDS = ("cards",)
PLAYSHEET = ("roster", "summary")


def _pdf_response(data: bytes, filename: str, *, download: bool) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    disposition = "attachment" if download else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    return response


def _shared(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex"
    return _private(response)


def _list_pdf(request: HttpRequest, army_list: ArmyList, parts: tuple[str, ...] | None, name: str) -> HttpResponse:
    options, _bound = print_options(request.GET)
    chosen = parts or options.parts
    with translation.override(options.lang):
        data = pdf.render_pdf(LIST_TEMPLATE, list_context(army_list, paper=options.paper, parts=chosen))
    filename = f"{slugify(army_list.name) or 'list'}-{name}-{options.lang}-{options.paper}.pdf"
    return _pdf_response(data, filename, download=request.GET.get("download") == "1")


def _preview_page(request: HttpRequest, army_list: ArmyList, base: str) -> HttpResponse:
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
    return render(request, "playsheets/print.html", context)


def _sheet_query(options: PrintOptions) -> str:
    return f"paper={options.paper}&lang={options.lang}"


def _direct_links(base: str, options: PrintOptions) -> list[tuple[str, str]]:
    query = _sheet_query(options)
    return [
        (_("Roster"), f"{base}roster.pdf?{query}"),
        (_("Playsheet (roster and rules summary)"), f"{base}playsheet.pdf?{query}"),
        (_("Unit cards"), f"{base}cards.pdf?{query}"),
    ]


def _preview_document(request: HttpRequest, army_list: ArmyList) -> HttpResponse:
    options, _bound = print_options(request.GET)
    with translation.override(options.lang):
        context = list_context(army_list, paper=options.paper, parts=options.parts)
        html = pdf.render_html(LIST_TEMPLATE, context, for_pdf=False)
    return HttpResponse(html)


# -- Quick reference --------------------------------------------------------------------------


@require_GET
def reference_sheet(request: HttpRequest, edition: str) -> HttpResponse:
    current = get_object_or_404(Edition, slug=edition)
    options, _bound = print_options(request.GET)
    data = pdf.reference_sheet_pdf(current, lang=options.lang, paper=options.paper)
    filename = f"muster-{current.slug}-quick-reference-{options.lang}-{options.paper}.pdf"
    return _pdf_response(data, filename, download=request.GET.get("download") == "1")


# -- A list's PDFs, by its owner and by share link ----------------------------------------------


def _owned_list(request: HttpRequest, pk: int) -> ArmyList:
    return get_list_for_user(request, pk, for_builder=True)


@require_GET
def roster_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _private(_list_pdf(request, _owned_list(request, pk), ROSTER, "roster"))


@require_GET
def cards_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _private(_list_pdf(request, _owned_list(request, pk), CARDS, "cards"))


@require_GET
def playsheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _private(_list_pdf(request, _owned_list(request, pk), PLAYSHEET, "playsheet"))


@require_GET
def print_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _private(_list_pdf(request, _owned_list(request, pk), None, "print"))


@require_GET
def shared_roster_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _shared(_list_pdf(request, get_shared_list(token), ROSTER, "roster"))


@require_GET
def shared_cards_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _shared(_list_pdf(request, get_shared_list(token), CARDS, "cards"))


@require_GET
def shared_playsheet_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _shared(_list_pdf(request, get_shared_list(token), PLAYSHEET, "playsheet"))


@require_GET
def shared_print_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _shared(_list_pdf(request, get_shared_list(token), None, "print"))


# -- The print preview page and the HTML document it frames -------------------------------------


@require_GET
def print_preview(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk, for_builder=True)
    return _private(_preview_page(request, army_list, f"/lists/{army_list.pk}/"))


@require_GET
def shared_print_preview(request: HttpRequest, token: str) -> HttpResponse:
    army_list = get_shared_list(token)
    return _shared(_preview_page(request, army_list, f"/s/{army_list.share_token}/"))


@require_GET
@xframe_options_sameorigin
def print_document(request: HttpRequest, pk: int) -> HttpResponse:
    return _private(_preview_document(request, get_list_for_user(request, pk, for_builder=True)))


@require_GET
@xframe_options_sameorigin
def shared_print_document(request: HttpRequest, token: str) -> HttpResponse:
    return _shared(_preview_document(request, get_shared_list(token)))
