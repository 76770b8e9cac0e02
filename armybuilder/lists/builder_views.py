"""The army-list builder page: a compact roster, one unit's editor opened in place, the summary.

One page, ``lists/builder.html``, with ``{% partialdef %}`` fragments. The roster shows one row
per unit (name, quality, models, options as chips, points) in its platoon; a row is a link that
loads that unit's editor in its place (``hx-get``; without JavaScript the link reloads the page
with the editor open). Every action is a plain form POST that redirects back to the page, so
the builder works without JavaScript; with htmx the same POST answers only what changed: the
unit's row, and as out-of-band swaps its platoon's header (total and problems) and the summary
panels when they changed; never the whole roster. A change keeps the unit's editor open: the
answer is the editor again, morphed into the page's (idiomorph's htmx extension, set up by
``static/js/builder.js``), so the focus stays where it was, and it carries the closed row for
"Done" to close it without a request; without JavaScript the page it redirects to has the editor
open. Invalid input changes nothing: the editor stays open, the reason next to the field.

Every lookup goes through ``lists_for_user``, so another visitor's list, entry or platoon is a
404 whatever the endpoint; entries and platoons are then found among the list's prefetched
rows. The list is read with one queryset (``ArmyList.objects.for_builder(details=False)``), in
the same number of queries whatever its size, and summarised once per request (twice for a
change: before and after it, to tell which panels changed). The roster's rows and groups are
``lists.builder_rows``'s. An entry removed
in another tab is not an error for htmx: its row is replaced by a short notice.

Responses are gzipped by Django (``gzip_page``): its compression adds random bytes to each
response (Django's BREACH mitigation) and the CSRF token in the forms is masked afresh for each
response, so compressing pages that hold a token is safe.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django import forms
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import replace_url, reswap, retarget

from armybuilder.catalogue.models import Option, Quality, Unit, UnitType
from armybuilder.http import HtmxHttpRequest
from armybuilder.lists import national_choice as list_national
from armybuilder.lists import services
from armybuilder.lists.access import lists_for_user
from armybuilder.lists.builder_forms import (
    PERIODS,
    AddEntryForm,
    CatalogueFilterForm,
    EntryPlatoonForm,
    ModelsForm,
    MoveForm,
    NameForm,
    OptionsForm,
    PlatoonForm,
    QualityForm,
    platoon_kinds,
)
from armybuilder.lists.builder_rows import (
    EntryErrors,
    Errors,
    Group,
    Roster,
    builder_url,
    damage_value_text,
    labels,
    problem_href,
)
from armybuilder.lists.conditional import owned_list_page
from armybuilder.lists.models import ArmyList, Entry, ForceOrg, Platoon
from armybuilder.lists.summary import list_summary
from armybuilder.reference import search
from armydata.french import french_parts
from rules.army.model import EntrySpec, ListSummary
from rules.army.order_dice import entry_order_dice
from rules.army.points import entry_points
from rules.combat.national import check_choice
from rules.errors import RulesError

TEMPLATE = "lists/builder.html"
# "Undo" after removing a unit carries the removed entry, signed: nothing is kept on the server.
UNDO_SALT = "muster.lists.entry-undo"
UNDO_MAX_AGE = 24 * 60 * 60
# An open editor's answers are morphed into it by idiomorph's htmx extension (``hx-ext="morph"`` on
# the editor, ``static/vendor/idiomorph/``): its elements stay, only what changed is updated.
EDITOR_SWAP = "morph"


# --- Loading -------------------------------------------------------------------------------


def _get_list(request: HttpRequest, pk: int) -> ArmyList:
    # The visitor's own active list with what the builder reads (its units and their options,
    # not the weapons and special rules only the playsheets show).
    return get_object_or_404(lists_for_user(request).active().for_builder(details=False), pk=pk)


def _find_entry(army_list: ArmyList, entry_pk: int) -> Entry | None:
    # Found among the prefetched entries: no query, and never another list's entry.
    return next((e for e in army_list.entries.all() if e.pk == entry_pk), None)


def _get_platoon(army_list: ArmyList, platoon_pk: int) -> Platoon:
    for platoon in army_list.platoons.all():
        if platoon.pk == platoon_pk:
            return platoon
    raise Http404("No such platoon in this list.")


def _form_errors(form: forms.Form) -> list[str]:
    return [str(message) for messages in form.errors.values() for message in messages]


def _redirect(army_list: ArmyList, anchor: str, **query: object) -> HttpResponseRedirect:
    # ``to`` keeps the catalogue's "Add to" platoon between no-JavaScript round trips, ``edit``
    # the unit being edited, ``undo`` the removed unit's way back.
    params = urlencode({key: value for key, value in query.items() if value})
    return HttpResponseRedirect(f"{builder_url(army_list)}{'?' + params if params else ''}#{anchor}")


# --- Context and rendering -------------------------------------------------------------------


def _summary_context(roster: Roster) -> dict:
    summary = roster.summary
    over = summary.points - summary.points_limit
    return {
        "summary": summary,
        "over_by": max(over, 0),
        "left": max(-over, 0),
        "progress": min(summary.points, summary.points_limit),
        "percent": min(100, round(100 * summary.points / summary.points_limit)) if summary.points_limit else 0,
        "problems": [(problem, problem_href(problem)) for problem in summary.problems],
        "is_v3": roster.army_list.edition.slug == "v3",
    }


def _context(roster: Roster, **extra: object) -> dict:
    army_list = roster.army_list
    return {
        "army_list": army_list,
        "roster": roster,
        "builder_url": roster.base_url,
        "use_platoons": roster.use_platoons,
        "has_entries": bool(roster.entries),
        "errors": roster.errors,
        **_summary_context(roster),
        **extra,
    }


def _page_context(request: HttpRequest, roster: Roster, *, add_to: str | None = None, undo: str = "") -> dict:
    """Everything the whole page shows: the roster, the catalogue and the share links."""
    choices = roster.choices
    if add_to is None or add_to not in {value for value, _label in choices}:
        # New units go to the first platoon unless the player just chose another.
        add_to = choices[1][0] if len(choices) > 1 else ""
    filter_form = CatalogueFilterForm(request.GET)
    query, unit_type = filter_form.filters()
    period, extra = filter_form.extras()
    army_list = roster.army_list
    marked: list[bool] = []
    catalogue = _catalogue(army_list, query, unit_type, request.user, period=period, extra=extra, marked=marked)
    return _context(
        roster,
        groups=roster.groups(),
        platoon_choices=choices,
        add_to=add_to,
        platoon_kinds=platoon_kinds(army_list.edition.slug),
        filter_query=query,
        filter_type=unit_type,
        filter_period=period,
        filter_extra=extra,
        periods=PERIODS,
        marked_units=any(marked),
        unit_types=UnitType.choices,
        catalogue=catalogue,
        share_url=request.build_absolute_uri(reverse("ab-list-shared", args=[army_list.share_token])),
        undo=_undo_notice(army_list, undo) if undo else None,
        national_choice=list_national.choice_context(army_list),
    )


def _fragments(request: HttpRequest, context: dict, *parts: str | tuple[str, dict], status: int = 200) -> HttpResponse:
    """The named fragments of the page, one after the other; ``(name, extra)`` adds to the context."""
    html = [
        render_to_string(f"{TEMPLATE}#{name}", {**context, **extra}, request)
        for name, extra in ((part, {}) if isinstance(part, str) else part for part in parts)
    ]
    return HttpResponse("".join(html), status=status)


SUMMARY_OOB = (("summary-bar", {"oob": True}), ("problems-panel", {"oob": True}), ("officers-panel", {"oob": True}))


def _summary_oob(roster: Roster, before: ListSummary) -> list[tuple[str, dict]]:
    """The summary panels that changed since ``before`` (the points bar always: its total)."""
    after = roster.summary
    parts = [SUMMARY_OOB[0]]
    if after.problems != before.problems:
        parts.append(SUMMARY_OOB[1])
    if after.officers != before.officers:
        parts.append(SUMMARY_OOB[2])
    return parts


def _head_oob(group: Group) -> tuple[str, dict]:
    return ("platoon-head", {"group": group, "oob": True})


def _renamed_oob(roster: Roster, before: dict[int, str], skip: int | None = None) -> list[tuple[str, dict]]:
    """The names of the other rows whose number moved (a second "Rifle Squad" came or went)."""
    return [("entry-name-oob", {"row": row}) for row in roster.renamed(before, skip=skip)]


# --- The page and its catalogue --------------------------------------------------------------


@require_safe
@vary_on_headers("HX-Request")
@gzip_page
@owned_list_page
def builder(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The page; ``?edit=<entry>`` opens that unit's editor (the rows' links without JavaScript)."""
    army_list = _get_list(request, pk)
    edit = request.GET.get("edit", "")
    roster = Roster(army_list, open_pk=int(edit) if edit.isdigit() else None)
    context = _page_context(request, roster, add_to=request.GET.get("to"), undo=request.GET.get("undo", ""))
    if request.htmx and not request.htmx.history_restore_request:
        return _fragments(request, context, "builder")
    return HttpResponse(render_to_string(TEMPLATE, context, request))


@require_safe
@vary_on_headers("HX-Request")
@gzip_page
@owned_list_page
def builder_editors(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every unit's editor, for ``builder.js`` to open any unit without a request.

    Fetched in the background once the page has loaded, not sent with it: the page keeps its
    size, and one gzipped answer holds them all (the editors repeat the same markup; one render,
    so one CSRF token). The list's ETag comes with it, so a reload revalidates it (304); the
    script drops it when the list changes before it arrives, and fetches it again later. Without
    JavaScript nobody asks for it: the page itself.
    """
    army_list = _get_list(request, pk)
    if not request.htmx:
        return _redirect(army_list, "roster")
    roster = Roster(army_list)
    rows = [roster.row(entry, is_open=True) for entry in roster.entries]
    return _fragments(request, _context(roster, rows=rows), "all-editors")


@require_safe
@vary_on_headers("HX-Request")
@gzip_page
def builder_catalogue(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The catalogue's units filtered by name and type: the live filter's fragment."""
    army_list = get_object_or_404(lists_for_user(request).active().select_related("army"), pk=pk)
    filter_form = CatalogueFilterForm(request.GET)
    query, unit_type = filter_form.filters()
    period, extra = filter_form.extras()
    chosen = (("q", query), ("type", unit_type), ("period", period), ("extra", "on" if extra else ""))
    params = urlencode({k: v for k, v in chosen if v})
    page_url = builder_url(army_list) + (f"?{params}" if params else "")
    if not request.htmx:
        return HttpResponseRedirect(f"{page_url}#catalogue")
    context = {
        "catalogue": _catalogue(army_list, query, unit_type, request.user, period=period, extra=extra),
        "filter_query": query,
        "filter_type": unit_type,
        "filter_period": period,
        "filter_extra": extra,
    }
    response = HttpResponse(render_to_string(f"{TEMPLATE}#catalogue-results", context, request))
    # Keep the filter in the address bar, so a reload or a shared link shows the same units.
    return replace_url(response, page_url)


def source_flag_labels() -> dict[str, str]:
    """The words a catalogue row uses for the marks imported data puts on units."""
    return {
        "campaign": pgettext("unit mark", "campaign"),
        "community": pgettext("unit mark", "community"),
        "compendium": pgettext("unit mark", "compendium"),
        "bluesky": pgettext("unit mark", "blue-sky campaign"),
        "special": pgettext("unit mark", "special"),
        "experimental": pgettext("unit mark", "experimental"),
    }


@dataclass
class CatalogueRow:
    """A unit of the catalogue as its row shows it."""

    pk: int
    name: str
    facts: str  # type · models (· damage value, for a vehicle)
    costs: str  # costs per quality, with "pts"
    weapons: str
    own: bool = False  # the player's entry, typed from their book: marked, not checked data
    marks: str = ""  # what the data marks it as (campaign, community, experimental...), in words
    # The unit as "Add" puts it in the list (``added``): builder.js shows it at the tap.
    added_points: int | None = None
    added_dice: int = 0
    added_facts: str = ""


def added(unit: Unit, quality_labels: dict[str, str]) -> tuple[int | None, int, str]:
    """Points, order dice and row facts of ``unit`` as ``services.entry_add`` adds it (its default
    quality, base men, no option), priced by rules/ as the list's summary prices an entry.

    The spec leaves out the unit's options: none is taken, so they play no part in the price, and
    the catalogue needs no query for them. None when rules/ cannot price it (bad data): the page
    then leaves the figures to the server's answer.
    """
    quality = services.default_quality(unit)
    spec = EntrySpec(key="", name=unit.name, unit=unit.to_rules(options=()), quality=quality, models=unit.base_models)
    try:
        points = entry_points(spec)
    except RulesError:
        points = None
    models = ngettext("%(counter)s model", "%(counter)s models", unit.base_models) % {"counter": unit.base_models}
    # As the server's row will say it, the damage value included.
    facts = " · ".join(part for part in (quality_labels.get(quality, quality), models, damage_value_text(unit)) if part)
    return points, entry_order_dice(spec), facts


# Teams and guns are their weapon: searched by it, they come before vehicles that mount it.
CREW_SERVED = frozenset({UnitType.TEAM, UnitType.ARTILLERY})


def _catalogue(
    army_list: ArmyList,
    query: str,
    unit_type: str,
    user=None,
    *,
    period: str = "",
    extra: bool = False,
    marked: list[bool] | None = None,
) -> list[CatalogueRow]:
    """The army's units the player can add, in their order, filtered by name and type.

    One query for the army's units and, when a text is typed, one for the edition's search
    aliases. Names match whatever their case or accents, in English, French or the page's language, and in players'
    words ("MG42", "zook", "AT gun": ``reference.search``), ranked: units named so first (the
    alias's first meaning before its others: "MG42" the MMG team, then the LMG team), then units
    whose main weapon it is, then any other unit that carries one; within a tier, the better
    match first, then the army's order. ``marked``, when given, receives whether any of the
    army's units is marked by its data (campaign, community, experimental...), so the page offers
    the checkbox that shows them without another query.
    """
    match = search.matcher(army_list.edition_id, query)
    units = list(Unit.objects.for_player(army_list.army, user).order_by("position", "name"))
    if marked is not None:
        marked.append(any(unit.source_flags for unit in units))
    if unit_type:
        units = [unit for unit in units if unit.unit_type == unit_type]
    if period:
        # A unit whose data names no period is offered in every one.
        units = [unit for unit in units if not unit.periods or period in unit.periods]
    if not extra:
        # Campaign, community and experimental units (imported data marks them) wait until asked for.
        units = [unit for unit in units if not unit.source_flags]
    if match:
        ranked = [
            (rank, unit)
            for unit in units
            if (
                rank := match.unit_rank(
                    # The names shown in the active language too (the glossary's, for imported rows).
                    (
                        unit.name,
                        unit.name_fr or (french_parts(unit.name) if unit.owner_id is None else ""),
                        unit.display_name,
                    ),
                    (unit.weapons_text, unit.weapons_text_fr, unit.display_weapons),
                    crew_served=unit.unit_type in CREW_SERVED,
                    also=search.officer_words(unit.officer_rank, unit.slot),
                )
            )
            is not None
        ]
        units = [unit for _, unit in sorted(ranked, key=lambda pair: (pair[0], pair[1].position, pair[1].name))]
    units = list(units)
    qualities, types = labels(Quality.choices), labels(UnitType.choices)
    flag_labels = source_flag_labels()
    # A catalogue row names what the unit is at the table: an infantry unit is a squad.
    types[UnitType.INFANTRY] = pgettext("catalogue row: an infantry unit", "Squad")
    required = _required_choices(units)
    rows = []
    for unit in units:
        costs = " · ".join(_catalogue_costs(unit, required.get(unit.pk, []), qualities))
        if unit.base_models == unit.max_models:
            models = _("%(n)s models") % {"n": unit.base_models} if unit.base_models > 1 else _("1 model")
        else:
            models = _("%(low)s–%(high)s models") % {"low": unit.base_models, "high": unit.max_models}
        points, dice, facts = added(unit, qualities)
        damage = damage_value_text(unit)
        rows.append(
            CatalogueRow(
                pk=unit.pk,
                name=unit.display_name,
                marks=", ".join(flag_labels.get(flag, flag) for flag in unit.source_flags or ()),
                # A vehicle's damage value is chosen with it: the table needs it as much as its type.
                facts=" · ".join(part for part in (types.get(unit.unit_type, unit.unit_type), models, damage) if part),
                costs=f"{costs} {_('pts')}",
                weapons=unit.display_weapons,
                own=unit.is_own,
                added_points=points,
                added_dice=dice,
                added_facts=facts,
            )
        )
    return rows


def _required_choices(units: list[Unit]) -> dict[int, list[list[Option]]]:
    """For units priced through a required choice (a tank's variant), each such group's options.

    One query, and only when the catalogue holds such a unit: most armies run none.
    """
    keys = {
        unit.pk: {group["key"] for group in unit.option_groups or () if group.get("minimum", 0) >= 1} for unit in units
    }
    keys = {pk: groups for pk, groups in keys.items() if groups}
    if not keys:
        return {}
    found: dict[int, dict[str, list[Option]]] = {}
    for option in Option.objects.filter(unit_id__in=list(keys)).order_by("position", "name"):
        if option.group in keys[option.unit_id]:
            found.setdefault(option.unit_id, {}).setdefault(option.group, []).append(option)
    return {pk: list(groups.values()) for pk, groups in found.items()}


def _catalogue_costs(unit: Unit, required: list[list[Option]], qualities: dict[str, str]) -> list[str]:
    """ "Regular 50" per quality; with a required choice, its cheapest price added ("Veteran from 145")."""
    texts = []
    for quality, cost in unit.base_cost().items():
        varies = False
        for options in required:
            prices = [price for option in options if (price := option.cost().get(quality)) is not None]
            if not prices:
                break  # no choice offered at this quality: the unit is not either
            cost += min(prices)
            varies = varies or len(set(prices)) > 1
        else:
            label = qualities[quality]
            texts.append(
                _("%(quality)s from %(cost)s") % {"quality": label, "cost": cost} if varies else f"{label} {cost}"
            )
    return texts


def _page_with_errors(request: HttpRequest, army_list: ArmyList, errors: Errors, open_pk: int | None = None):
    """Without JavaScript a refused action re-renders the page, the reasons next to the fields."""
    context = _page_context(request, Roster(army_list, errors=errors, open_pk=open_pk))
    return HttpResponse(render_to_string(TEMPLATE, context, request), status=400)


# --- One unit: its row and its editor --------------------------------------------------------


def _entry_gone(request: HtmxHttpRequest, army_list: ArmyList, entry_pk: int) -> HttpResponse:
    """The entry was removed (in another tab) since this page was loaded.

    For htmx a 404 would be left unswapped and the row would stay, its buttons failing. So the
    answer is a 200 that swaps nothing in place (``HX-Reswap: none``), but out of band replaces
    the row by a short notice and brings the summary up to date. Without JavaScript: a 404.
    """
    if not request.htmx:
        raise Http404("No such entry in this list.")
    context = _context(Roster(army_list), gone_key=f"entry-{entry_pk}")
    return reswap(_fragments(request, context, "entry-gone", *SUMMARY_OOB), "none")


def _entry_view(methods: Callable) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        """A view of one entry of the visitor's list: it gets the list and the entry."""

        @methods
        @vary_on_headers("HX-Request")
        @gzip_page
        @functools.wraps(view)
        def wrapped(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
            army_list = _get_list(request, pk)
            entry = _find_entry(army_list, entry_pk)
            if entry is None:
                return _entry_gone(request, army_list, entry_pk)
            return view(request, army_list, entry)

        return wrapped

    return decorate


_entry_action = _entry_view(require_POST)


@_entry_view(require_safe)
def entry_editor(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """The unit's editor, loaded when its row is opened."""
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}", edit=entry.pk)
    roster = Roster(army_list)
    return _fragments(request, _context(roster, row=roster.row(entry, is_open=True)), "entry-editor")


@_entry_view(require_safe)
def entry_row(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """The unit's row again: its editor closed ("Done")."""
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}")
    roster = Roster(army_list)
    return _fragments(request, _context(roster, row=roster.row(entry, is_open=False)), "entry-row")


def _reloaded(request: HttpRequest, army_list: ArmyList, **roster_args) -> Roster:
    """The list read again after a write, for the answer."""
    return Roster(_get_list(request, army_list.pk), **roster_args)


def _entry_changed(
    request: HtmxHttpRequest,
    army_list: ArmyList,
    entry: Entry,
    before: ListSummary,
    names_before: dict[int, str] | None = None,
) -> HttpResponse:
    """The unit's editor, still open, and out of band what else changed since ``before``: its
    platoon's header if its total or problems did, and the summary panels that did.

    The editor stays open until the player closes it, so the next change costs no request to
    open it again. The answer is morphed into the editor in place (idiomorph's htmx extension,
    set up by ``static/js/builder.js``): its forms and the focused control stay the same elements,
    so a change still under way in another of its forms is answered into the page, and the focus
    stays where it was. Without JavaScript the page it redirects to has the editor open too.
    """
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}", edit=entry.pk)
    # Not read again: the write changed the entry in memory too (``services.entry_update``), and
    # the list loaded for this request is otherwise as it was; its ``updated_at`` moved.
    army_list.updated_at = timezone.now()
    roster = Roster(army_list)
    context = _context(roster, row=roster.row(entry, is_open=True))
    parts: list = ["entry-editor"]
    platoon_id = roster.group_of[entry.pk]
    if roster.group_changed(platoon_id, before):
        parts.append(_head_oob(roster.group(platoon_id)))
    if names_before is not None:
        parts += _renamed_oob(roster, names_before, skip=entry.pk)
    response = _fragments(request, context, *parts, *_summary_oob(roster, before))
    return reswap(retarget(response, f"#entry-{entry.pk}"), EDITOR_SWAP)


def _entry_refused(
    request: HtmxHttpRequest,
    army_list: ArmyList,
    entry: Entry,
    section: str,
    messages: list[str],
    option_fields: dict[str, list[str]] | None = None,
) -> HttpResponse:
    errors = Errors(entries={entry.pk: EntryErrors(**{section: messages}, option_fields=option_fields or {})})
    if not request.htmx:
        return _page_with_errors(request, army_list, errors, open_pk=entry.pk)
    roster = Roster(army_list, errors=errors)
    # htmx 2 does not swap 4xx responses, so a refusal is a 200 carrying the messages; it is
    # morphed into the unit's editor, whatever the form's own swap (the platoon select's is out of
    # band only), the focus kept on the refused field.
    response = _fragments(request, _context(roster, row=roster.row(entry, is_open=True)), "entry-editor")
    return reswap(retarget(response, f"#entry-{entry.pk}"), EDITOR_SWAP)


def _removed_meanwhile(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    # The write found no row: the entry went between this request's load and its update.
    if not request.htmx:
        return _redirect(army_list, "roster")
    return _entry_gone(request, _get_list(request, army_list.pk), entry.pk)


# --- Entry actions ---------------------------------------------------------------------------


@require_POST
@vary_on_headers("HX-Request")
@gzip_page
def entry_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Add a unit: its row goes at the end of its platoon (out of band), with the totals."""
    army_list = _get_list(request, pk)
    form = AddEntryForm(request.POST, army_list=army_list, user=request.user)
    entry = None
    before, names_before = list_summary(army_list), army_list.entry_names()
    if form.is_valid():
        platoon_id = form.cleaned_data["platoon"]
        platoon = _get_platoon(army_list, int(platoon_id)) if platoon_id else None
        try:
            entry = services.entry_add(army_list=army_list, unit=form.cleaned_data["unit"], platoon=platoon)
        except services.ListFull as full:
            form.add_error(None, full)
    if entry is None:
        errors = Errors(add=_form_errors(form))
        if not request.htmx:
            return _page_with_errors(request, army_list, errors)
        response = _fragments(request, _context(Roster(army_list, errors=errors)), "add-errors")
        return reswap(retarget(response, "#add-errors"), "outerHTML")
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}", to=platoon_id)
    roster = _reloaded(request, army_list, new_pk=entry.pk)
    entry = roster.entry(entry.pk)
    group = roster.group_for(entry)
    context = _context(roster, row=roster.row(entry), group=group)
    parts = ["add-errors", "entry-append", _head_oob(group), *_summary_oob(roster, before)]
    parts += _renamed_oob(roster, names_before, skip=entry.pk)
    response = _fragments(request, context, *parts)
    return reswap(retarget(response, "#add-errors"), "outerHTML")


@_entry_action
def entry_quality(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    before = list_summary(army_list)  # before the write changes the entry in memory
    form = QualityForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "quality", _form_errors(form))
    if not services.entry_update(entry=entry, quality=form.cleaned_data["quality"]):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry, before)


@_entry_action
def entry_models(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    before = list_summary(army_list)  # before the write changes the entry in memory
    form = ModelsForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "models", _form_errors(form))
    step = form.cleaned_data["step"]
    if step is not None:
        if not services.entry_step_models(entry=entry, step=step):
            # Another tab got there first, or the entry is gone: refuse with the current bounds.
            if not Entry.objects.filter(pk=entry.pk).exists():
                return _removed_meanwhile(request, army_list, entry)
            message = _("This unit has %(low)s to %(high)s models.") % {
                "low": entry.unit.base_models,
                "high": entry.unit.max_models,
            }
            return _entry_refused(request, army_list, entry, "models", [message])
    elif not services.entry_update(entry=entry, models_count=form.cleaned_data["models"]):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry, before)


@_entry_action
def entry_options(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    before = list_summary(army_list)  # before the write changes the entry in memory
    form = OptionsForm(request.POST, entry=entry)
    if not form.is_valid():
        # Each refusal next to its option or group; the rest under the options.
        placed = form.field_errors()
        general = form.general_errors() if placed else _form_errors(form)
        return _entry_refused(request, army_list, entry, "options", general, option_fields=placed)
    if not services.entry_update(entry=entry, options=form.cleaned_options()):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry, before)


@_entry_action
def entry_rename(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    # Before the write changes the entry in memory.
    before, names_before = list_summary(army_list), army_list.entry_names()
    form = NameForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "name", _form_errors(form))
    if not services.entry_update(entry=entry, name=form.cleaned_data["name"]):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry, before, names_before)


@_entry_action
def entry_platoon(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """Move a unit to another platoon: its editor, still open, leaves one group and joins the other."""
    form = EntryPlatoonForm(request.POST, army_list=army_list)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "platoon", _form_errors(form))
    platoon_id = form.cleaned_data["platoon"]
    platoon = _get_platoon(army_list, int(platoon_id)) if platoon_id else None
    old_group = entry.platoon_id if army_list.force_org == ForceOrg.PLATOONS else None
    if not services.entry_update(entry=entry, platoon=platoon):
        return _removed_meanwhile(request, army_list, entry)
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}", edit=entry.pk)
    roster = _reloaded(request, army_list)
    entry = roster.entry(entry.pk)
    group = roster.group_for(entry)
    siblings = [e.pk for e in roster.in_group(group.platoon.pk if group.platoon else None)]
    index = siblings.index(entry.pk)
    # Deleted from where it was, then put before its new next sibling (or last in the group).
    where = f"beforebegin:#entry-{siblings[index + 1]}" if index + 1 < len(siblings) else f"beforeend:#{group.key}-rows"
    context = _context(roster, row=roster.row(entry, is_open=True), where=where, gone_key=f"entry-{entry.pk}")
    parts = ["entry-delete-oob", "entry-insert-oob", _head_oob(group)]
    if old_group != (group.platoon.pk if group.platoon else None):
        parts.append(_head_oob(roster.group(old_group if old_group in {p.pk for p in roster.platoons} else None)))
    return reswap(_fragments(request, context, *parts, *SUMMARY_OOB), "none")


@_entry_action
def entry_move(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """Swap a unit with its neighbour: the unit's editor stays where it is in the page, still open,
    morphed (its move buttons as they now are), and the neighbour's row goes to its other side out
    of band (deleted, then inserted): the page's order is the list's, for a small answer."""
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "actions", _form_errors(form))
    # Already first (or last) is not an error: the buttons at the ends are disabled anyway.
    roster = Roster(army_list)
    siblings = roster.in_group(roster.group_of[entry.pk])
    index = next(i for i, e in enumerate(siblings) if e.pk == entry.pk)
    up = form.cleaned_data["direction"] == "up"
    other_index = index - 1 if up else index + 1
    neighbour = siblings[other_index] if 0 <= other_index < len(siblings) else None
    services.entry_move(army_list=army_list, entry=entry, direction=form.cleaned_data["direction"])
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}", edit=entry.pk)
    roster = _reloaded(request, army_list)
    moved = roster.entry(entry.pk)
    if moved is None:
        return _entry_gone(request, roster.army_list, entry.pk)
    context = _context(roster, row=roster.row(moved, is_open=True))
    parts: list = ["entry-editor"]
    other = roster.entry(neighbour.pk) if neighbour is not None else None
    if other is not None:
        where = f"{'afterend' if up else 'beforebegin'}:#entry-{moved.pk}"
        parts += [
            ("entry-delete-oob", {"gone_key": f"entry-{other.pk}"}),
            ("entry-insert-oob", {"row": roster.row(other, is_open=False), "where": where}),
        ]
    response = _fragments(request, context, *parts)
    return reswap(retarget(response, f"#entry-{moved.pk}"), EDITOR_SWAP)


@_entry_action
def entry_duplicate(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """A copy right under the original: the original's row (closed) and the copy's replace it."""
    before, names_before = list_summary(army_list), army_list.entry_names()
    try:
        copy = services.entry_duplicate(entry=entry)
    except services.ListFull as full:
        return _entry_refused(request, army_list, entry, "actions", full.messages)
    if not request.htmx:
        return _redirect(army_list, f"entry-{copy.pk}")
    roster = _reloaded(request, army_list, new_pk=copy.pk)
    original, copy = roster.entry(entry.pk), roster.entry(copy.pk)
    context = _context(roster)
    parts = [("entry-row", {"row": roster.row(e, is_open=False)}) for e in (original, copy) if e is not None]
    parts += _renamed_oob(roster, names_before, skip=entry.pk)
    return _fragments(request, context, *parts, _head_oob(roster.group_for(copy)), *_summary_oob(roster, before))


@_entry_action
def entry_remove(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    """Remove a unit at once; its row becomes an "Undo" bar (no confirmation asked)."""
    roster = Roster(army_list)
    group_id, before, names_before = roster.group_of[entry.pk], roster.summary, roster.entry_names
    token = signing.dumps(
        {"list": army_list.pk, "label": entry.display_name, **services.entry_snapshot(entry)},
        salt=UNDO_SALT,
        compress=True,
    )
    if not services.entry_remove(entry=entry):
        return _removed_meanwhile(request, army_list, entry)
    if not request.htmx:
        return _redirect(army_list, "undo", undo=token)
    roster = _reloaded(request, army_list)
    context = _context(roster, undo=_undo_notice(roster.army_list, token))
    parts = ["undo-bar", _head_oob(roster.group(group_id)), *_summary_oob(roster, before)]
    parts += _renamed_oob(roster, names_before)
    return _fragments(request, context, *parts)


@dataclass
class UndoNotice:
    pk: int
    label: str
    token: str


def _undo_snapshot(army_list: ArmyList, token: str) -> dict | None:
    try:
        data = signing.loads(token, salt=UNDO_SALT, max_age=UNDO_MAX_AGE)
    except signing.BadSignature:
        return None
    return data if data.get("list") == army_list.pk else None


def _undo_notice(army_list: ArmyList, token: str) -> UndoNotice | None:
    data = _undo_snapshot(army_list, token)
    if data is None or _find_entry(army_list, data["pk"]) is not None:
        return None
    return UndoNotice(pk=data["pk"], label=data["label"], token=token)


@require_POST
@vary_on_headers("HX-Request")
@gzip_page
def entry_restore(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    """ "Undo": put a removed unit back where it was, its row in place of the "Undo" bar."""
    army_list = _get_list(request, pk)
    data = _undo_snapshot(army_list, request.POST.get("token", ""))
    if data is None or data["pk"] != entry_pk:
        return HttpResponseBadRequest(_("This unit can no longer be put back."))
    before, names_before = list_summary(army_list), army_list.entry_names()
    restored = services.entry_restore(army_list=army_list, snapshot=data)
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry_pk}")
    roster = _reloaded(request, army_list, new_pk=restored.pk if restored else None)
    entry = roster.entry(entry_pk)
    if entry is None:
        return _entry_gone(request, roster.army_list, entry_pk)
    context = _context(roster, row=roster.row(entry, is_open=False))
    parts = ["entry-row", _head_oob(roster.group_for(entry)), *_summary_oob(roster, before)]
    parts += _renamed_oob(roster, names_before, skip=entry.pk)
    return _fragments(request, context, *parts)


# --- Platoon actions -------------------------------------------------------------------------


def _roster_changed(
    request: HtmxHttpRequest, army_list: ArmyList, anchor: str, *, errors: Errors | None = None, add_to: str = ""
) -> HttpResponse:
    """After adding or removing a platoon (rare): the roster, the summary and the "Add to" select."""
    if errors is not None and not request.htmx:
        return _page_with_errors(request, army_list, errors)
    if not request.htmx:
        return _redirect(army_list, anchor, to=add_to)
    roster = _reloaded(request, army_list, errors=errors)
    context = _page_context(request, roster, add_to=add_to)
    return _fragments(request, context, "roster", *SUMMARY_OOB, ("add-to", {"oob": True}))


@require_POST
@vary_on_headers("HX-Request")
@gzip_page
def platoon_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    form = PlatoonForm(request.POST, edition_slug=army_list.edition.slug)
    if not form.is_valid():
        return _roster_changed(request, army_list, "new-platoon", errors=Errors(new_platoon=_form_errors(form)))
    platoon = services.platoon_add(army_list=army_list, kind=form.cleaned_data["kind"], name=form.cleaned_data["name"])
    return _roster_changed(request, army_list, f"platoon-{platoon.pk}", add_to=str(platoon.pk))


@require_POST
@vary_on_headers("HX-Request")
@gzip_page
def platoon_rename(request: HtmxHttpRequest, pk: int, platoon_pk: int) -> HttpResponse:
    """Rename a platoon: its forms, its header, the "Add to" select and the summary (its name is in
    problems)."""
    army_list = _get_list(request, pk)
    platoon = _get_platoon(army_list, platoon_pk)
    names_before = army_list.platoon_names()
    form = NameForm(request.POST)
    errors = None if form.is_valid() else Errors(platoons={platoon.pk: _form_errors(form)})
    if errors is None:
        services.platoon_rename(platoon=platoon, name=form.cleaned_data["name"])
    if not request.htmx:
        if errors is not None:
            return _page_with_errors(request, army_list, errors)
        return _redirect(army_list, f"platoon-{platoon.pk}", to=platoon.pk)
    roster = _reloaded(request, army_list, errors=errors)
    context = _page_context(request, roster, add_to=str(platoon.pk))
    group = roster.group(platoon.pk)
    parts = [("platoon-edit", {"group": group})]
    if errors is None:
        parts += [_head_oob(group), *SUMMARY_OOB, ("add-to", {"oob": True})]
        # Other platoons whose number moved ("Reinforced Platoon 2" alone again): their headers.
        parts += [
            _head_oob(roster.group(pk))
            for pk, name in roster.platoon_names.items()
            if pk != platoon.pk and names_before.get(pk) != name
        ]
    return _fragments(request, context, *parts)


@require_POST
def national_choice(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep the trait the army's national rule asks for (the British characteristic, the Italian bonus)."""
    army_list = _get_list(request, pk)
    choice = request.POST.get("national_choice", "")
    if not check_choice(list_national.army_rule_slugs(army_list), choice):
        return HttpResponseBadRequest(_("Choose one of the traits this army's rules offer."))
    army_list.national_choice = choice
    army_list.save(update_fields=["national_choice", "updated_at"])
    return _redirect(army_list, "national-rules")


@require_POST
@vary_on_headers("HX-Request")
@gzip_page
def platoon_remove(request: HtmxHttpRequest, pk: int, platoon_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    services.platoon_remove(platoon=_get_platoon(army_list, platoon_pk))
    return _roster_changed(request, army_list, "roster")
