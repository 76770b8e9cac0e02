"""The army-list builder page: the catalogue, the list's platoons and entries, and its summary.

One page, ``lists/builder.html``, with inline partials. Every action is a plain form POST that
redirects back to the page (so it works without JavaScript); with htmx the same POST returns
the changed fragment (one entry card, or the whole roster) plus the summary panels as
out-of-band swaps. Invalid input changes nothing: the reason is shown next to the field.

Every lookup goes through ``get_list_for_user``, so another visitor's list, entry or platoon is
a 404 whatever the endpoint; entries and platoons are then found among the list's prefetched
rows, which keeps the number of queries independent of the list's size.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django import forms
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import replace_url, reswap, retarget
from django_htmx.middleware import HtmxDetails

from armybuilder.catalogue.models import OfficerRank, Quality, Unit, UnitType
from armybuilder.lists import services
from armybuilder.lists.access import get_list_for_user
from armybuilder.lists.builder_forms import (
    AddEntryForm,
    CatalogueFilterForm,
    EntryPlatoonForm,
    ModelsForm,
    MoveForm,
    NameForm,
    OptionBlock,
    OptionsForm,
    PlatoonForm,
    QualityForm,
    option_blocks,
    platoon_choices,
    platoon_kinds,
)
from armybuilder.lists.models import ArmyList, Entry, ForceOrg, Platoon
from armybuilder.lists.summary import list_summary
from rules.army.model import ListSummary

TEMPLATE = "lists/builder.html"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@dataclass
class EntryErrors:
    """Messages next to each of an entry's controls (empty lists when all is well)."""

    quality: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    platoon: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    name: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any((self.quality, self.models, self.platoon, self.options, self.name, self.actions))


NO_ERRORS = EntryErrors()


@dataclass
class EntryRow:
    """One entry as its card shows it: its choices, bounds and points, as ready-made text.

    The card is rendered up to 50 times per page, so what it shows is computed here once,
    as strings, rather than looked up and formatted in the template.
    """

    entry: Entry
    url: str
    points: str
    option_blocks: list[OptionBlock]
    first: bool = False
    last: bool = False
    errors: EntryErrors = field(default_factory=EntryErrors)
    open: str = ""
    new: bool = False

    def __post_init__(self) -> None:
        entry, unit = self.entry, self.entry.unit
        self.pk = str(entry.pk)
        # Built from integers only, so safe as they are: the template need not escape them again.
        self.key = mark_safe(f"entry-{entry.pk}")
        self.url = mark_safe(self.url)
        self.name = entry.display_name
        self.custom_name = entry.name
        self.rename_hint = _("Leave empty to use “%(unit)s”.") % {"unit": unit.display_name}
        facts = [unit.display_name] if entry.name else []
        names = labels()
        facts.append(names["unit_type"].get(unit.unit_type, unit.unit_type))
        if unit.officer_rank:
            facts.append(names["rank"].get(unit.officer_rank, unit.officer_rank))
        if unit.weapons_text:
            facts.append(unit.weapons_text)
        self.facts = " · ".join(facts)
        offered = unit.qualities()
        qualities = names["quality"]
        self.quality_label = qualities.get(entry.quality, entry.quality)
        self.quality_choices = [(q, qualities[q], q == entry.quality) for q in offered] if len(offered) > 1 else []
        self.fixed_models = unit.base_models == unit.max_models
        self.models = str(entry.models_count)
        self.min_models, self.max_models = str(unit.base_models), str(unit.max_models)
        self.can_fewer = entry.models_count > unit.base_models
        self.can_more = entry.models_count < unit.max_models
        per_model = unit.per_model_cost().get(entry.quality)
        hint = f"{unit.base_models}–{unit.max_models}"
        if per_model:
            hint += ", " + _("+%(cost)s pts each extra") % {"cost": per_model}
        self.models_hint = hint
        self.platoon_value = str(entry.platoon_id) if entry.platoon_id else ""
        self.options_taken = sum(1 for count in (entry.options or {}).values() if count)
        subject = {"name": self.name}
        self.label_fewer = _("One model fewer in %(name)s") % subject
        self.label_more = _("One model more in %(name)s") % subject
        self.label_up = _("Move %(name)s up") % subject
        self.label_down = _("Move %(name)s down") % subject


@dataclass
class Group:
    """A platoon and its entries; ``platoon`` is None for the entries in no platoon."""

    platoon: Platoon | None
    rows: list[EntryRow]
    errors: list[str] = field(default_factory=list)


@dataclass
class CatalogueRow:
    unit: Unit
    costs: str
    models: str


@dataclass
class Errors:
    """Validation messages to show next to the fields of a refused action."""

    entries: dict[int, EntryErrors] = field(default_factory=dict)
    platoons: dict[int, list[str]] = field(default_factory=dict)
    new_platoon: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)


def _get_list(request: HttpRequest, pk: int) -> ArmyList:
    return get_list_for_user(request, pk, for_builder=True)


def _get_entry(army_list: ArmyList, entry_pk: int) -> Entry:
    # Found among the prefetched entries: no query, and never another list's entry.
    for entry in army_list.entries.all():
        if entry.pk == entry_pk:
            return entry
    raise Http404("No such entry in this list.")


def _get_platoon(army_list: ArmyList, platoon_pk: int) -> Platoon:
    for platoon in army_list.platoons.all():
        if platoon.pk == platoon_pk:
            return platoon
    raise Http404("No such platoon in this list.")


def _csrf_input(request: HttpRequest) -> str:
    # Rendered once and reused by the page's many small forms (up to ten per entry card).
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request))


def _form_errors(form: forms.Form) -> list[str]:
    return [str(message) for messages in form.errors.values() for message in messages]


def _builder_url(army_list: ArmyList) -> str:
    return reverse("ab-list-builder", args=[army_list.pk])


def _redirect(army_list: ArmyList, anchor: str, add_to: str | None = None) -> HttpResponseRedirect:
    # ``to`` keeps the catalogue's "Add to" platoon between no-JavaScript round trips.
    query = f"?{urlencode({'to': add_to})}" if add_to else ""
    return HttpResponseRedirect(f"{_builder_url(army_list)}{query}#{anchor}")


def _labelled(choices: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {value: str(label) for value, label in choices}


@functools.cache
def _choice_labels(language: str) -> dict[str, dict[str, str]]:
    """Quality, unit type and rank labels in ``language`` (the active one when first asked)."""
    return {
        "quality": _labelled(Quality.choices),
        "unit_type": _labelled(UnitType.choices),
        "rank": _labelled(OfficerRank.choices),
    }


def labels() -> dict[str, dict[str, str]]:
    return _choice_labels(get_language() or "en")


def _rows(
    army_list: ArmyList,
    summary: ListSummary,
    errors: Errors,
    open_entry: tuple[int, str] | None,
    new_entry: int | None,
    only: int | None = None,
) -> list[EntryRow]:
    """Cards for the list's entries, or for just the entry ``only`` (an entry action's answer)."""
    base = _builder_url(army_list)
    entries = list(army_list.entries.all())
    # First and last of each platoon (or of the list), to disable the ends' move buttons.
    platoon_ids = {p.pk for p in army_list.platoons.all()} if army_list.force_org == ForceOrg.PLATOONS else set()
    ends: dict[int | None, list[int]] = {}
    for entry in entries:
        key = entry.platoon_id if entry.platoon_id in platoon_ids else None
        ends.setdefault(key, [entry.pk, entry.pk])[1] = entry.pk
    firsts = {first for first, _last in ends.values()}
    lasts = {last for _first, last in ends.values()}
    rows = []
    for entry in entries:
        if only is not None and entry.pk != only:
            continue
        points = summary.entry_points.get(str(entry.pk))
        rows.append(
            EntryRow(
                entry=entry,
                url=f"{base}entries/{entry.pk}/",
                points="–" if points is None else str(points),
                option_blocks=option_blocks(entry),
                first=entry.pk in firsts,
                last=entry.pk in lasts,
                errors=errors.entries.get(entry.pk, NO_ERRORS),
                open=open_entry[1] if open_entry and open_entry[0] == entry.pk else "",
                new=entry.pk == new_entry,
            )
        )
    return rows


def _groups(army_list: ArmyList, rows: list[EntryRow], errors: Errors) -> list[Group]:
    if army_list.force_org != ForceOrg.PLATOONS:
        groups = [Group(None, rows)]
    else:
        by_platoon: dict[int | None, list[EntryRow]] = {p.pk: [] for p in army_list.platoons.all()}
        by_platoon[None] = []
        for row in rows:
            by_platoon.get(row.entry.platoon_id, by_platoon[None]).append(row)
        groups = [Group(p, by_platoon[p.pk], errors.platoons.get(p.pk, [])) for p in army_list.platoons.all()]
        if by_platoon[None]:
            groups.append(Group(None, by_platoon[None]))
    return groups


def _catalogue(army_list: ArmyList, query: str, unit_type: str) -> list[CatalogueRow]:
    units = Unit.objects.all().for_army(army_list.army).available()
    if query:
        units = units.filter(Q(name__icontains=query) | Q(name_fr__icontains=query))
    if unit_type:
        units = units.filter(unit_type=unit_type)
    rows = []
    for unit in units.for_catalogue():
        costs = " · ".join(f"{labels()['quality'][q]} {cost}" for q, cost in unit.base_cost().items())
        if unit.base_models == unit.max_models:
            models = _("%(n)s models") % {"n": unit.base_models} if unit.base_models > 1 else _("1 model")
        else:
            models = _("%(low)s–%(high)s models") % {"low": unit.base_models, "high": unit.max_models}
        rows.append(CatalogueRow(unit=unit, costs=costs, models=models))
    return rows


def _summary_context(army_list: ArmyList, summary: ListSummary) -> dict:
    over = summary.points - summary.points_limit
    problems = [
        (
            problem,
            f"#entry-{problem.entry_key}"
            if problem.entry_key
            else (f"#platoon-{problem.platoon_key}" if problem.platoon_key else ""),
        )
        for problem in summary.problems
    ]
    return {
        "summary": summary,
        "over_by": max(over, 0),
        "left": max(-over, 0),
        "progress": min(summary.points, summary.points_limit),
        "percent": min(100, round(100 * summary.points / summary.points_limit)) if summary.points_limit else 0,
        "problems": problems,
        "is_v3": army_list.edition.slug == "v3",
    }


def _context(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    errors: Errors | None = None,
    open_entry: tuple[int, str] | None = None,
    new_entry: int | None = None,
    add_to: str | None = None,
    with_catalogue: bool = False,
    only_entry: int | None = None,
) -> dict:
    """What the page and its fragments show; ``only_entry`` builds just that entry's card."""
    errors = errors or Errors()
    summary = list_summary(army_list)
    rows = _rows(army_list, summary, errors, open_entry, new_entry, only=only_entry)
    choices = platoon_choices(army_list)
    if add_to is None or add_to not in {value for value, _label in choices}:
        # New units go to the first platoon unless the player just chose another.
        add_to = choices[1][0] if len(choices) > 1 else ""
    context = {
        "army_list": army_list,
        "csrf_input": _csrf_input(request),
        "builder_url": _builder_url(army_list),
        "rows": rows,
        "groups": _groups(army_list, rows, errors) if only_entry is None else [],
        "has_entries": bool(army_list.entries.all()),
        "use_platoons": army_list.force_org == ForceOrg.PLATOONS,
        "platoons": list(army_list.platoons.all()),
        "platoon_choices": choices,
        "add_to": add_to,
        "platoon_kinds": platoon_kinds(army_list.edition.slug),
        "errors": errors,
        **_summary_context(army_list, summary),
    }
    if with_catalogue:
        filter_form = CatalogueFilterForm(request.GET)
        query, unit_type = filter_form.filters()
        context |= {
            "filter_form": filter_form,
            "filter_query": query,
            "filter_type": unit_type,
            "unit_types": UnitType.choices,
            "catalogue": _catalogue(army_list, query, unit_type),
        }
    return context


def _render_fragments(request: HttpRequest, context: dict, *names: str, status: int = 200) -> HttpResponse:
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", context, request) for name in names)
    return HttpResponse(html, status=status)


def _page_with_errors(request: HttpRequest, army_list: ArmyList, errors: Errors) -> HttpResponse:
    """Without JavaScript a refused action re-renders the page, the reasons next to the fields."""
    context = _context(request, army_list, errors=errors, with_catalogue=True)
    return render(request, TEMPLATE, context, status=400)


# --- The page and its catalogue -------------------------------------------------------------


@require_GET
@vary_on_headers("HX-Request")
def builder(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    template = TEMPLATE
    if request.htmx and not request.htmx.history_restore_request:
        template += "#builder"
    context = _context(request, army_list, add_to=request.GET.get("to"), with_catalogue=True)
    return render(request, template, context)


@require_GET
@vary_on_headers("HX-Request")
def builder_catalogue(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The catalogue's units filtered by name and type: the live filter's fragment."""
    army_list = get_list_for_user(request, pk)
    filter_form = CatalogueFilterForm(request.GET)
    query, unit_type = filter_form.filters()
    params = urlencode({k: v for k, v in (("q", query), ("type", unit_type)) if v})
    page_url = _builder_url(army_list) + (f"?{params}" if params else "")
    if not request.htmx:
        return HttpResponseRedirect(f"{page_url}#catalogue")
    context = {
        "army_list": army_list,
        "catalogue": _catalogue(army_list, query, unit_type),
        "filter_query": query,
        "filter_type": unit_type,
    }
    response = render(request, f"{TEMPLATE}#catalogue-results", context)
    # Keep the filter in the address bar, so a reload or a shared link shows the same units.
    return replace_url(response, page_url)


# --- Responses shared by the actions ---------------------------------------------------------


def _entry_changed(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry, section: str = "") -> HttpResponse:
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}")
    context = _context(request, army_list, open_entry=(entry.pk, section), only_entry=entry.pk)
    context["row"] = context["rows"][0]
    return _render_fragments(request, context, "entry-card", "summary-oob")


def _entry_refused(
    request: HtmxHttpRequest, army_list: ArmyList, entry: Entry, section: str, messages: list[str]
) -> HttpResponse:
    errors = Errors(entries={entry.pk: EntryErrors(**{section: messages})})
    if not request.htmx:
        return _page_with_errors(request, army_list, errors)
    context = _context(request, army_list, errors=errors, open_entry=(entry.pk, section), only_entry=entry.pk)
    context["row"] = context["rows"][0]
    # htmx 2 does not swap 4xx responses, so a refusal is a 200 carrying the messages.
    return _render_fragments(request, context, "entry-card")


def _roster_changed(
    request: HtmxHttpRequest,
    pk: int,
    anchor: str,
    *,
    new_entry: int | None = None,
    errors: Errors | None = None,
    add_to: str | None = None,
    platoons_changed: bool = False,
) -> HttpResponse:
    """After a change to the list's shape: reload it and send the roster with the summary.

    When the platoons changed, the catalogue's "Add to" select is sent too (out of band).
    """
    army_list = _get_list(request, pk)
    if errors is not None and not request.htmx:
        return _page_with_errors(request, army_list, errors)
    if not request.htmx:
        return _redirect(army_list, anchor, add_to)
    context = _context(request, army_list, new_entry=new_entry, errors=errors, add_to=add_to)
    if errors is not None:
        return _render_fragments(request, context, "roster")
    fragments = ["roster", "summary-oob"] + (["add-to-oob"] if platoons_changed else [])
    if new_entry is not None:
        fragments.append("add-errors-oob")  # a unit was added: clear any earlier refusal
    return _render_fragments(request, context, *fragments)


def _entry_gone(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    # Removed in another tab between the page load and this change: show the list as it is.
    return _roster_changed(request, pk, "roster")


# --- Entry actions ---------------------------------------------------------------------------


@require_POST
@vary_on_headers("HX-Request")
def entry_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    form = AddEntryForm(request.POST, army_list=army_list)
    if not form.is_valid():
        errors = Errors(add=_form_errors(form))
        if not request.htmx:
            return _page_with_errors(request, army_list, errors)
        context = _context(request, army_list, errors=errors)
        response = _render_fragments(request, context, "add-errors")
        return reswap(retarget(response, "#add-errors"), "outerHTML")
    platoon_id = form.cleaned_data["platoon"]
    platoon = _get_platoon(army_list, int(platoon_id)) if platoon_id else None
    entry = services.entry_add(army_list=army_list, unit=form.cleaned_data["unit"], platoon=platoon)
    return _roster_changed(request, pk, f"entry-{entry.pk}", new_entry=entry.pk, add_to=platoon_id or None)


@require_POST
@vary_on_headers("HX-Request")
def entry_quality(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = QualityForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "quality", _form_errors(form))
    if not services.entry_update(entry=entry, quality=form.cleaned_data["quality"]):
        return _entry_gone(request, pk)
    return _entry_changed(request, army_list, entry)


@require_POST
@vary_on_headers("HX-Request")
def entry_models(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = ModelsForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "models", _form_errors(form))
    step = form.cleaned_data["step"]
    if step is not None:
        if not services.entry_step_models(entry=entry, step=step):
            # Another tab got there first, or the entry is gone: refuse with the current bounds.
            if not Entry.objects.filter(pk=entry.pk).exists():
                return _entry_gone(request, pk)
            message = _("This unit has %(low)s to %(high)s models.") % {
                "low": entry.unit.base_models,
                "high": entry.unit.max_models,
            }
            return _entry_refused(request, army_list, entry, "models", [message])
    elif not services.entry_update(entry=entry, models_count=form.cleaned_data["models"]):
        return _entry_gone(request, pk)
    return _entry_changed(request, army_list, entry)


@require_POST
@vary_on_headers("HX-Request")
def entry_options(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = OptionsForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "options", _form_errors(form))
    if not services.entry_update(entry=entry, options=form.cleaned_options()):
        return _entry_gone(request, pk)
    return _entry_changed(request, army_list, entry, "options")


@require_POST
@vary_on_headers("HX-Request")
def entry_rename(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = NameForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "name", _form_errors(form))
    if not services.entry_update(entry=entry, name=form.cleaned_data["name"]):
        return _entry_gone(request, pk)
    return _entry_changed(request, army_list, entry)


@require_POST
@vary_on_headers("HX-Request")
def entry_platoon(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = EntryPlatoonForm(request.POST, army_list=army_list)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "platoon", _form_errors(form))
    platoon_id = form.cleaned_data["platoon"]
    platoon = _get_platoon(army_list, int(platoon_id)) if platoon_id else None
    if not services.entry_update(entry=entry, platoon=platoon):
        return _entry_gone(request, pk)
    return _roster_changed(request, pk, f"entry-{entry.pk}")


@require_POST
@vary_on_headers("HX-Request")
def entry_move(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "actions", _form_errors(form))
    # Already first (or last) is not an error: the buttons at the ends are disabled anyway.
    services.entry_move(army_list=army_list, entry=entry, direction=form.cleaned_data["direction"])
    return _roster_changed(request, pk, f"entry-{entry.pk}")


@require_POST
@vary_on_headers("HX-Request")
def entry_duplicate(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    copy = services.entry_duplicate(entry=entry)
    return _roster_changed(request, pk, f"entry-{copy.pk}", new_entry=copy.pk)


@require_POST
@vary_on_headers("HX-Request")
def entry_remove(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    entry = _get_entry(army_list, entry_pk)
    services.entry_remove(entry=entry)
    return _roster_changed(request, pk, "roster")


# --- Platoon actions -------------------------------------------------------------------------


@require_POST
@vary_on_headers("HX-Request")
def platoon_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    form = PlatoonForm(request.POST, edition_slug=army_list.edition.slug)
    if not form.is_valid():
        return _roster_changed(request, pk, "new-platoon", errors=Errors(new_platoon=_form_errors(form)))
    platoon = services.platoon_add(army_list=army_list, kind=form.cleaned_data["kind"], name=form.cleaned_data["name"])
    return _roster_changed(request, pk, f"platoon-{platoon.pk}", add_to=str(platoon.pk), platoons_changed=True)


@require_POST
@vary_on_headers("HX-Request")
def platoon_rename(request: HtmxHttpRequest, pk: int, platoon_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    platoon = _get_platoon(army_list, platoon_pk)
    form = NameForm(request.POST)
    if not form.is_valid():
        errors = Errors(platoons={platoon.pk: _form_errors(form)})
        return _roster_changed(request, pk, f"platoon-{platoon.pk}", errors=errors)
    services.platoon_rename(platoon=platoon, name=form.cleaned_data["name"])
    return _roster_changed(request, pk, f"platoon-{platoon.pk}", add_to=str(platoon.pk), platoons_changed=True)


@require_POST
@vary_on_headers("HX-Request")
def platoon_remove(request: HtmxHttpRequest, pk: int, platoon_pk: int) -> HttpResponse:
    army_list = _get_list(request, pk)
    platoon = _get_platoon(army_list, platoon_pk)
    services.platoon_remove(platoon=platoon)
    return _roster_changed(request, pk, "roster", platoons_changed=True)
