"""Managing lists: my lists, new, rename, duplicate, trash, share links, export and import.

Every lookup of a list goes through ``armybuilder.lists.access`` so another visitor's list is a
404 on every endpoint. Visitors without an account keep their lists in the session. Plain
POSTs redirect (PRG); htmx POSTs re-render the part of the page they changed.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from armybuilder.catalogue import own_units
from armybuilder.http import HtmxHttpRequest
from armybuilder.lists import exchange, forum_text
from armybuilder.lists.access import get_list_for_user, get_shared_list, keep_made_list, lists_for_user, owner_for
from armybuilder.lists.conditional import shared_list_page
from armybuilder.lists.forms import ArmyListForm, ImportForm, RenameForm
from armybuilder.lists.models import ArmyList, new_share_token
from armybuilder.lists.roster_export import RosterRefused, roster_data
from armybuilder.lists.summary import list_summary
from armydata.roster_writer import roster_zip
from rules.army.model import ListSummary

SEARCH_MAX = 100


@dataclass(frozen=True)
class ListRow:
    army_list: ArmyList
    summary: ListSummary


def _builder_url(army_list: ArmyList) -> str:
    return reverse("ab-list-builder", args=[army_list.pk])


def announce_import(request: HttpRequest, army_list: ArmyList) -> None:
    """After any import (JSON, roster): the list is kept for a visitor without an account, and named."""
    keep_made_list(request, army_list)
    messages.success(request, _("Imported “%(name)s”.") % {"name": army_list.name})


def import_page(
    request: HttpRequest, form_class: type[forms.Form], template: str, load: Callable[[Any], HttpResponse]
) -> HttpResponse:
    """A page that imports a list from its form, whatever the format (Muster's JSON, a roster).

    ``load`` reads the valid form, saves the list and answers (the new list's builder); the
    import's refusals (``ListImportError``) are shown beside the form again.
    """
    errors: list[str] = []
    if request.method == "POST":
        form = form_class(request.POST, request.FILES)
        if form.is_valid():
            try:
                return load(form)
            except exchange.ListImportError as exc:
                errors = exc.errors
    else:
        form = form_class()
    return render(request, template, {"form": form, "errors": errors})


def _copy_name(name: str) -> str:
    return _("Copy of %(name)s") % {"name": name}


# -- My lists --------------------------------------------------------------------------------


def _index_context(request: HttpRequest, query: str = "", **extra: object) -> dict[str, object]:
    """The rows of "My lists", summarised from one ``for_builder()`` query set (no query per list)."""
    lists = lists_for_user(request).active().for_builder()
    if query:
        lists = lists.filter(name__icontains=query)
    rows = [ListRow(army_list=army_list, summary=list_summary(army_list)) for army_list in lists]
    has_lists = bool(rows) or (bool(query) and lists_for_user(request).active().exists())
    return {
        "rows": rows,
        "query": query,
        "has_lists": has_lists,
        "trash_count": lists_for_user(request).in_trash().count(),
        **extra,
    }


def _render_index(request: HtmxHttpRequest, **extra: object) -> HttpResponse:
    # An htmx action posts the search box along (hx-include) so the filtered view survives it.
    query = (request.GET.get("q") or request.POST.get("q") or "").strip()[:SEARCH_MAX]
    template = "lists/index.html"
    if request.htmx:
        template += "#list-table"
    return render(request, template, _index_context(request, query, **extra))


@require_safe
@vary_on_headers("HX-Request")
def index(request: HtmxHttpRequest) -> HttpResponse:
    return _render_index(request)


def _done(request: HtmxHttpRequest, notice: str, **extra: object) -> HttpResponse:
    """After an action on "My lists": redirect a plain POST, re-render the table for htmx."""
    if request.htmx:
        return _render_index(request, notice=notice, **extra)
    messages.success(request, notice)
    return redirect("ab-list-index")


# -- Create ----------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def new(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ArmyListForm(request.POST)
        if form.is_valid():
            army_list = form.save(commit=False)
            army_list.owner = owner_for(request)
            army_list.save()
            keep_made_list(request, army_list)
            if request.htmx:
                return HttpResponseClientRedirect(_builder_url(army_list))
            return redirect(_builder_url(army_list))
    else:
        # A GET may preselect fields: the htmx edition select sends ?edition=v3 for the army choices.
        initial = {key: value for key, value in request.GET.items() if key in ArmyListForm.Meta.fields}
        initial.setdefault("points_limit", 1000)
        form = ArmyListForm(initial=initial)
        if request.htmx:
            return render(request, "lists/new.html#army-field", {"form": form})
    return render(request, "lists/new.html", {"form": form})


# -- Actions on one list ----------------------------------------------------------------------


@require_POST
@vary_on_headers("HX-Request")
def rename(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    form = RenameForm(request.POST)
    if not form.is_valid():
        template = "lists/index.html#list-table" if request.htmx else "lists/index.html"
        return render(request, template, _index_context(request, rename_form=form, rename_pk=army_list.pk))
    # Only the name (and its timestamp) is written, so a change made meanwhile in another tab survives.
    ArmyList.objects.filter(pk=army_list.pk).update(name=form.cleaned_data["name"], updated_at=timezone.now())
    return _done(request, _("Renamed to “%(name)s”.") % {"name": form.cleaned_data["name"]})


@require_POST
@vary_on_headers("HX-Request")
def duplicate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    name = _copy_name(army_list.name)[: ArmyList._meta.get_field("name").max_length]
    copy = exchange.duplicate_list(army_list=army_list, name=name)
    keep_made_list(request, copy)
    return _done(request, _("Made “%(name)s”.") % {"name": copy.name})


@require_POST
@vary_on_headers("HX-Request")
def delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    ArmyList.objects.filter(pk=army_list.pk).update(deleted_at=timezone.now())
    return _done(request, _("Moved “%(name)s” to the trash.") % {"name": army_list.name}, restorable=army_list)


def _trash_response(request: HtmxHttpRequest, notice: str) -> HttpResponse:
    if request.htmx:
        context = _trash_context(request)
        context["notice"] = notice
        return render(request, "lists/trash.html#trash-table", context)
    messages.success(request, notice)
    return redirect("ab-list-trash")


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@require_POST
@vary_on_headers("HX-Request")
def restore(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk, trashed=True)
    ArmyList.objects.filter(pk=army_list.pk).update(deleted_at=None)
    notice = _("Restored “%(name)s”.") % {"name": army_list.name}
    target = _safe_next(request)
    if target and not request.htmx:
        messages.success(request, notice)
        return redirect(target)
    if request.POST.get("from") == "index":
        return _done(request, notice)
    return _trash_response(request, notice)


@require_POST
@vary_on_headers("HX-Request")
def purge(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk, trashed=True)
    army_list.delete()
    return _trash_response(request, _("Deleted “%(name)s” for good.") % {"name": army_list.name})


@require_POST
@vary_on_headers("HX-Request")
def regenerate_share(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    ArmyList.objects.filter(pk=army_list.pk).update(share_token=new_share_token())
    notice = _("“%(name)s” has a new share link; the old link no longer works.") % {"name": army_list.name}
    target = _safe_next(request)
    if target and not request.htmx:
        messages.success(request, notice)
        return redirect(target)
    return _done(request, notice)


# -- Trash -----------------------------------------------------------------------------------


def _trash_context(request: HttpRequest) -> dict[str, object]:
    lists = lists_for_user(request).in_trash().select_related("edition", "army").order_by("-deleted_at", "-pk")
    return {"lists": list(lists)}


@require_safe
@vary_on_headers("HX-Request")
def trash(request: HtmxHttpRequest) -> HttpResponse:
    template = "lists/trash.html"
    if request.htmx:
        template += "#trash-table"
    return render(request, template, _trash_context(request))


# -- Sharing and export ----------------------------------------------------------------------


@require_safe
@require_safe
@gzip_page
@shared_list_page
def shared(request: HttpRequest, token: str) -> HttpResponse:
    army_list = get_shared_list(token)
    summary = list_summary(army_list)
    context = {
        "army_list": army_list,
        "summary": summary,
        "groups": exchange.platoon_groups(army_list, summary),
        "over_limit": summary.points > summary.points_limit,
    }
    response = render(request, "lists/shared.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_POST
def shared_copy(request: HttpRequest, token: str) -> HttpResponse:
    """ "Copy to my lists" from a shared list: the reader's own copy, opened in the builder."""
    source = get_shared_list(token)
    try:
        copy = exchange.duplicate_list(army_list=source, name=source.name, owner=owner_for(request))
    except (own_units.TooManyUnits, own_units.NeedsAccount) as full:
        # The list takes its author's own units, copied for the reader: not past their limit.
        messages.error(request, str(full))
        return redirect("ab-list-shared", token=token)
    keep_made_list(request, copy)
    messages.success(request, _("“%(name)s” is now in your lists.") % {"name": copy.name})
    return redirect(_builder_url(copy))


def _text_response(army_list: ArmyList) -> HttpResponse:
    text = exchange.export_text(army_list, list_summary(army_list))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{slugify(army_list.name) or "list"}.txt"'
    return response


@require_safe
def export_text(request: HttpRequest, pk: int) -> HttpResponse:
    return _text_response(get_list_for_user(request, pk, for_builder=True))


@require_safe
def shared_export_text(request: HttpRequest, token: str) -> HttpResponse:
    response = _text_response(get_shared_list(token))
    response["X-Robots-Tag"] = "noindex"
    return response


FORUM_FORMATS = {"md": (forum_text.MARKDOWN, "text/markdown"), "bbcode": (forum_text.BBCODE, "text/plain")}


def _forum_response(army_list: ArmyList, request: HttpRequest, kind: str) -> HttpResponse:
    """Markdown or BBCode, ``?style=compact`` for one line a unit; any other style is the full list."""
    markup, content_type = FORUM_FORMATS[kind]
    style = "compact" if request.GET.get("style") == "compact" else "full"
    text = forum_text.render(army_list, list_summary(army_list), markup=markup, style=style)
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    name = f"{slugify(army_list.name) or 'list'}-{style}.{'md' if kind == 'md' else 'txt'}"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_safe
def export_forum(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    return _forum_response(get_list_for_user(request, pk, for_builder=True), request, kind)


@require_safe
def shared_export_forum(request: HttpRequest, token: str, kind: str) -> HttpResponse:
    response = _forum_response(get_shared_list(token), request, kind)
    response["X-Robots-Tag"] = "noindex"
    return response


def _roster_response(request: HttpRequest, army_list: ArmyList, refused_to: str) -> HttpResponse:
    """The list as a .rosz, or back to ``refused_to`` with the reason it cannot be one."""
    try:
        data = roster_data(army_list, list_summary(army_list))
    except RosterRefused as refused:
        messages.error(request, refused.message)
        return redirect(refused_to)
    stem = slugify(army_list.name) or "list"
    response = HttpResponse(roster_zip(data, f"{stem}.ros"), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{stem}.rosz"'
    return response


@require_safe
def export_roster(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk, for_builder=True)
    return _roster_response(request, army_list, _builder_url(army_list))


@require_safe
def shared_export_roster(request: HttpRequest, token: str) -> HttpResponse:
    army_list = get_shared_list(token)
    response = _roster_response(request, army_list, reverse("ab-list-shared", kwargs={"token": token}))
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def export_all(request: HttpRequest) -> HttpResponse:
    """Every list of mine (not the trash) in one zip: each as Muster's JSON, to import again, and as text."""
    army_lists = list(lists_for_user(request).active().for_builder().order_by("pk"))
    if not army_lists:
        messages.info(request, _("You have no lists to export yet."))
        return redirect("ab-list-index")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for army_list in army_lists:
            # Names may repeat: the list's number keeps each file apart.
            stem = f"{army_list.pk}-{slugify(army_list.name) or 'list'}"
            archive.writestr(f"{stem}.json", exchange.export_json(army_list))
            archive.writestr(f"{stem}.txt", exchange.export_text(army_list, list_summary(army_list)))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="muster-lists-{timezone.localdate():%Y-%m-%d}.zip"'
    return response


@require_safe
def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk, for_builder=True)
    response = HttpResponse(exchange.export_json(army_list), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(army_list.name) or "list"}.json"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def import_list(request: HttpRequest) -> HttpResponse:
    def load(form: ImportForm) -> HttpResponse:
        army_list = exchange.import_list(form.cleaned_data["json"], owner=owner_for(request))
        announce_import(request, army_list)
        return redirect(_builder_url(army_list))

    return import_page(request, ImportForm, "lists/import.html", load)
