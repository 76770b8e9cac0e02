"""The army-list builder page: the catalogue, the list's platoons and entries, and its summary.

One page, ``lists/builder.html``, with inline partials. Every action is a plain form POST that
redirects back to the page (so it works without JavaScript); with htmx the same POST returns
the changed fragment (one entry card, or the whole roster) plus the summary panels as
out-of-band swaps. Invalid input changes nothing: the reason is shown next to the field.

Every lookup goes through ``lists_for_user``, so another visitor's list, entry or platoon is
a 404 whatever the endpoint; entries and platoons are then found among the list's prefetched
rows, which keeps the number of queries independent of the list's size. An entry removed in
another tab is not an error for htmx: its card is replaced by a short notice.

Speed: the page shows up to 50 cards, each with eight small forms, and every change answers
with a card and the summary. So the list is loaded once per request (each distinct unit and
its options once, not once per entry) and summarised once, from those rows. What a card shows
is prepared by ``Cards`` as ready-made, escaped text (what entries of the same unit share,
once per unit; the fixed words, once per language), so the card template only places values,
without translation tags or loops over select options; and cards alike but for their entry's
id (identical squads) are rendered once. An entry action answers with its card and the small
summary panels only. Rendered cards, and a list's whole builder while the list is unchanged,
are kept between requests (``builder_cache``); each army's units too (``catalogue.unit_cache``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import replace_url, reswap, retarget
from django_htmx.middleware import HtmxDetails

from armybuilder.catalogue.models import OfficerRank, Quality, Unit, UnitType
from armybuilder.catalogue.unit_cache import army_units
from armybuilder.importers.writer import unit_change_notes
from armybuilder.lists import builder_cache, services
from armybuilder.lists.builder_forms import (
    AddEntryForm,
    CatalogueFilterForm,
    EntryPlatoonForm,
    ModelsForm,
    MoveForm,
    NameForm,
    OptionsForm,
    PlatoonForm,
    QualityForm,
    option_blocks,
    platoon_choices,
    platoon_kind_labels,
    platoon_kinds,
)
from armybuilder.lists.conditional import owned_list_page
from armybuilder.lists.loading import builder_list_row, with_builder_rows
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

    def __getitem__(self, name: str) -> list[str]:
        # The template tries ``e[name]`` before ``e.name``: answer it, rather than raise and retry.
        return getattr(self, name)


NO_ERRORS = EntryErrors()


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


@functools.cache
def _card_text(language: str) -> dict[str, SafeString]:
    """The words every entry card, platoon and catalogue row repeats, translated and escaped once.

    A ``{% translate %}`` tag costs several microseconds each time it renders; fifty cards
    with fifteen of them each is most of a page. ``%(...)s`` fields are filled per row.
    """
    words = {
        "pts": _("pts"),
        "quality": _("Quality"),
        "set": _("Set"),
        "models": _("Models"),
        "platoon": _("Platoon"),
        "move": _("Move"),
        "options": _("Options"),
        "choose_one": _("Choose one"),
        "none": _("None"),
        "save_options": _("Save options"),
        "rename": _("Rename"),
        "name": _("Name"),
        "duplicate": _("Duplicate"),
        "remove": _("Remove"),
        "odds": _("What are my odds?"),
        "add": _("Add"),
        "rename_or_remove": _("Rename or remove"),
        "remove_platoon": _("Remove platoon"),
        "units_stay": _("Its units stay in the list, in no platoon."),
        "fewer": _("One model fewer in %(name)s"),
        "more": _("One model more in %(name)s"),
        "up": _("Move %(name)s up"),
        "down": _("Move %(name)s down"),
        "rename_hint": _("Leave empty to use “%(unit)s”."),
        "each_extra": _("+%(cost)s pts each extra"),
        "platoon_hint": _("Leave empty to call it “%(kind)s”."),
        "add_unit": _("Add %(name)s"),
        "morale": _("Morale"),
        "extra_orders": _("Extra orders"),
        "range": _("Range"),
    }
    return {key: conditional_escape(value) for key, value in words.items()}


def card_text() -> dict[str, SafeString]:
    return _card_text(get_language() or "en")


def _fill(template: SafeString, **values: str) -> SafeString:
    """An escaped translation with its format fields filled by escaped values."""
    return mark_safe(template % {key: conditional_escape(value) for key, value in values.items()})


def _select_options(choices: Iterable[tuple[str, str]], selected: str) -> SafeString:
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((value, mark_safe(" selected") if value == selected else "", label) for value, label in choices),
    )


class EntryRow:
    """One entry of the roster: the entry, and its card's ready-made markup (see ``Cards``)."""

    __slots__ = ("entry", "html")

    def __init__(self, entry: Entry, html: SafeString) -> None:
        self.entry, self.html = entry, html


@dataclass
class Group:
    """A platoon and its entries; ``platoon`` is None for the entries in no platoon."""

    platoon: Platoon | None
    rows: list[EntryRow]
    errors: list[str] = field(default_factory=list)
    base_url: str = ""

    def __post_init__(self) -> None:
        platoon = self.platoon
        self.key = mark_safe(f"platoon-{platoon.pk}" if platoon else "platoon-none")
        if platoon is not None:
            kind = platoon_kind_labels().get(platoon.kind, platoon.kind)
            self.url = mark_safe(f"{self.base_url}platoons/{platoon.pk}/")
            self.name = platoon.name or kind
            self.kind = kind
            self.rename_hint = _fill(card_text()["platoon_hint"], kind=kind)


@dataclass
class CatalogueRow:
    """A unit of the catalogue as its row shows it, as ready-made text."""

    pk: str
    name: str
    facts: str  # type · models
    costs: str  # costs per quality, with "pts"
    weapons: str
    add_label: SafeString


class _UnitCard:
    """What every card of one unit shows alike, worked out once per request."""

    def __init__(self, unit: Unit, text: dict[str, SafeString]) -> None:
        names = labels()
        self.name = unit.display_name
        facts = [names["unit_type"].get(unit.unit_type, unit.unit_type)]
        if unit.officer_rank:
            facts.append(names["rank"].get(unit.officer_rank, unit.officer_rank))
        if unit.display_weapons:
            facts.append(unit.display_weapons)
        self.facts = conditional_escape(" · ".join(facts))
        # Entries given their own name show the unit's name first.
        self.named_facts = conditional_escape(" · ".join([self.name, *facts]))
        self.rename_hint = _fill(text["rename_hint"], unit=self.name)
        self.qualities = [(q, names["quality"][q]) for q in unit.qualities()]
        self.fixed_models = unit.base_models == unit.max_models
        self.min_models, self.max_models = SafeString(unit.base_models), SafeString(unit.max_models)
        self.base_models, self.most_models = unit.base_models, unit.max_models
        self.per_model = unit.per_model_cost()
        self._quality_options: dict[str, SafeString] = {}
        self._models_hint: dict[str, SafeString] = {}
        self._text = text

    def quality_options(self, quality: str) -> SafeString:
        """The quality select's options, ``quality`` selected; empty when there is no choice."""
        if len(self.qualities) < 2:
            return mark_safe("")
        if quality not in self._quality_options:
            self._quality_options[quality] = _select_options(self.qualities, quality)
        return self._quality_options[quality]

    def models_hint(self, quality: str) -> SafeString:
        if quality not in self._models_hint:
            hint = f"{self.min_models}–{self.max_models}"
            if self.per_model.get(quality):
                hint += ", " + self._text["each_extra"] % {"cost": self.per_model[quality]}
            self._models_hint[quality] = mark_safe(hint)
        return self._models_hint[quality]


# In markup shared by entries alike, these stand for the entry's id and its platoon select's
# options until each card gets its own; escaped text never holds a "<", so they cannot clash.
_PK = "<pk>"
_PLATOON_OPTIONS = "<platoon-options>"


def _partial(name: str):
    # Not kept here: the template loaders' own cache is reset when a template changes (runserver).
    return get_template(f"{TEMPLATE}#{name}")


class Cards:
    """Builds the entry cards of one response from a list loaded with ``for_builder()``.

    What a card shows is worked out here as ready-made, escaped text; what entries of the same
    unit share (facts, choices, hints) once per unit. The ``#entry-card`` partial then renders
    it, once per distinct card: entries whose cards differ only by their id and platoon (the
    same unit, quality, models, options, name, neighbours...) share one rendering, where
    ``_PK`` and ``_PLATOON_OPTIONS`` stand for those until each card gets its own. A card with
    errors is rendered on its own. Renderings are also kept for later requests, keyed by the
    card's values (``builder_cache.card_key``), so a roster change re-renders only new cards.
    """

    def __init__(
        self,
        army_list: ArmyList,
        summary: ListSummary,
        choices: list[tuple[str, str]],
        *,
        errors: Errors,
        open_entry: tuple[int, str] | None = None,
        new_entry: int | None = None,
    ) -> None:
        self.army_list, self.summary, self.choices = army_list, summary, choices
        self.errors, self.open_entry, self.new_entry = errors, open_entry, new_entry
        self.base = _builder_url(army_list)
        self.text = card_text()
        self.use_platoons = army_list.force_org == ForceOrg.PLATOONS
        self.language = get_language() or "en"
        self.quality_labels = {q: conditional_escape(label) for q, label in labels()["quality"].items()}
        self._units: dict[int, _UnitCard] = {}
        self._platoon_options: dict[int | None, SafeString] = {}
        self._option_fields: dict[tuple, str] = {}
        self._cards: dict[tuple, str] = {}  # rendered by an earlier request (``_fetch_cached``)
        self._pieces: dict[tuple, list[list[str]]] = {}  # rendered, split where ids go
        # Units an import changed or removed since the list was saved get a note on their card.
        self.change_notes = unit_change_notes(army_list.entries.all(), since=army_list.updated_at)

    def rows(self, only: int | None = None) -> list[EntryRow]:
        """Cards for the list's entries, or for just the entry ``only`` (an entry action's answer)."""
        entries = list(self.army_list.entries.all())
        # First and last of each platoon (or of the list), to disable the ends' move buttons.
        platoon_ids = {p.pk for p in self.army_list.platoons.all()} if self.use_platoons else set()
        ends: dict[int | None, list[int]] = {}
        for entry in entries:
            key = entry.platoon_id if entry.platoon_id in platoon_ids else None
            ends.setdefault(key, [entry.id, entry.id])[1] = entry.id
        firsts = {first for first, _last in ends.values()}
        lasts = {last for _first, last in ends.values()}
        cards = []
        for entry in entries:
            if only is None or entry.id == only:
                card = self._card(entry, first=entry.id in firsts, last=entry.id in lasts)
                cards.append((entry, card, self._shared_key(entry, card)))
        self._fetch_cached([shared for _entry, _card, shared in cards if shared is not None])
        return [self._row(entry, card, shared) for entry, card, shared in cards]

    def _card(self, entry: Entry, *, first: bool, last: bool) -> dict:
        """Everything the card template can see of ``entry``, as ready-made values."""
        # SafeString, not mark_safe(): the text here is built from escaped parts and integers.
        text, unit, pk = self.text, self._unit(entry.unit), entry.pk
        errors = self.errors.entries.get(pk, NO_ERRORS)
        name = conditional_escape(entry.name or unit.name)
        points = self.summary.entry_points.get(str(pk))
        options_taken = sum(1 for count in (entry.options or {}).values() if count)
        return {
            "key": SafeString(f"entry-{_PK}"),
            "url": SafeString(f"{self.base}entries/{_PK}/"),
            "pk": SafeString(_PK),
            "classes": SafeString((" is-new" if pk == self.new_entry else "") + (" has-errors" if errors else "")),
            "open": self.open_entry[1] if self.open_entry and self.open_entry[0] == pk else "",
            "name": name,
            "custom_name": entry.name,
            "rename_hint": unit.rename_hint,
            "facts": unit.named_facts if entry.name else unit.facts,
            "change_note": self.change_notes.get(pk, ""),
            "points": SafeString(f"{'–' if points is None else points} {text['pts']}"),
            "quality_options": unit.quality_options(entry.quality),
            "quality_label": self.quality_labels.get(entry.quality, entry.quality),
            "fixed_models": unit.fixed_models,
            "models": SafeString(entry.models_count),
            "min_models": unit.min_models,
            "max_models": unit.max_models,
            "can_fewer": entry.models_count > unit.base_models,
            "can_more": entry.models_count < unit.most_models,
            "models_hint": unit.models_hint(entry.quality),
            "platoon_options": SafeString(_PLATOON_OPTIONS) if self.use_platoons else "",
            "option_fields": self._options(entry),
            "options_taken": SafeString(options_taken) if options_taken else "",
            "label_fewer": SafeString(text["fewer"] % {"name": name}),
            "label_more": SafeString(text["more"] % {"name": name}),
            "label_up": SafeString(text["up"] % {"name": name}),
            "label_down": SafeString(text["down"] % {"name": name}),
            "first": first,
            "last": last,
        }

    def _shared_key(self, entry: Entry, card: dict) -> tuple | None:
        """What equal cards have in common, or None for a card with errors (rendered alone).

        Everything the card template can see is in ``card`` (a plain dict, looked up at once),
        so two equal dicts render the same markup, in this request or a later one.
        """
        if entry.pk in self.errors.entries:
            return None
        return (self.use_platoons, *card.values())

    def _fetch_cached(self, keys: list[tuple]) -> None:
        """Fill ``self._cards`` with the cards rendered by earlier requests, in one cache read."""
        wanted = {}
        for shared in dict.fromkeys(keys):  # cards alike (identical squads) looked up once
            if shared not in self._cards:
                wanted[builder_cache.card_key(TEMPLATE, self.language, shared)] = shared
        if wanted:
            for key, html in builder_cache.card_cache().get_many(wanted).items():
                self._cards[wanted[key]] = html

    def _row(self, entry: Entry, card: dict, shared: tuple | None) -> EntryRow:
        pk = entry.pk
        pieces = self._pieces.get(shared) if shared else None
        if pieces is None:
            html = self._cards.get(shared) if shared else None
            if html is None:
                errors = self.errors.entries.get(pk, NO_ERRORS)
                context = {"row": card, "e": errors, "t": self.text, "csrf_input": builder_cache.CSRF_INPUT}
                html = _partial("entry-card").render(context | {"use_platoons": self.use_platoons})
                if shared:
                    key = builder_cache.card_key(TEMPLATE, self.language, shared)
                    builder_cache.card_cache().set(key, html, builder_cache.TIMEOUT)
            # Split once where the ids go, so each card alike is joined, not searched (the
            # markup holds non-Latin-1 characters, where str.replace is ten times slower).
            pieces = [part.split(_PK) for part in html.split(_PLATOON_OPTIONS)]
            if shared:
                self._pieces[shared] = pieces
        platoon_select = self._platoon_select(entry.platoon_id) if self.use_platoons else ""
        html = platoon_select.join(str(pk).join(parts) for parts in pieces)
        return EntryRow(entry, SafeString(html))

    def _unit(self, unit: Unit) -> _UnitCard:
        card = self._units.get(unit.pk)
        if card is None:
            card = self._units[unit.pk] = _UnitCard(unit, self.text)
        return card

    def _platoon_select(self, platoon_id: int | None) -> SafeString:
        """The platoon select's options, the entry's platoon selected (one per platoon, shared)."""
        if platoon_id not in self._platoon_options:
            self._platoon_options[platoon_id] = _select_options(self.choices, str(platoon_id) if platoon_id else "")
        return self._platoon_options[platoon_id]

    def _options(self, entry: Entry) -> str:
        """The options form's fields (``#option-fields``, ids by ``_PK``), empty without options.

        They depend on the unit (its options: the army's catalogue stamp), quality, models and
        options taken: rendered once for each such kind of entry, and kept for later requests.
        """
        try:
            key = (entry.unit_id, entry.quality, entry.models_count, frozenset((entry.options or {}).items()))
            hash(key)
        except TypeError:  # an option count that is not a plain value: render it on its own
            key = None
        fields = self._option_fields.get(key) if key is not None else None
        if fields is not None:
            return fields
        cache_key = None
        if key is not None:
            # Sorted, for the same key in every process (a frozenset's order varies with the hash seed).
            taken = tuple(sorted(key[3], key=lambda item: item[0]))
            parts = ("options", self.army_list.army.updated_at.isoformat(), *key[:3], taken)
            cache_key = builder_cache.card_key(TEMPLATE, self.language, parts)
        fields = builder_cache.card_cache().get(cache_key) if cache_key else None
        if fields is None:
            blocks = option_blocks(entry)
            context = {"k": SafeString(f"entry-{_PK}"), "blocks": blocks, "t": self.text}
            fields = SafeString(_partial("option-fields").render(context)) if blocks else ""
            if cache_key:
                builder_cache.card_cache().set(cache_key, fields, builder_cache.TIMEOUT)
        if key is not None:
            self._option_fields[key] = fields
        return fields


@dataclass
class Errors:
    """Validation messages to show next to the fields of a refused action."""

    entries: dict[int, EntryErrors] = field(default_factory=dict)
    platoons: dict[int, list[str]] = field(default_factory=dict)
    new_platoon: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)


def _get_list(request: HttpRequest, pk: int) -> ArmyList:
    # The visitor's own active list (``lists_for_user``), with what the builder reads: each
    # unit's options, but not the weapons and special rules only the playsheets show.
    return with_builder_rows(builder_list_row(request, pk))


def _find_entry(army_list: ArmyList, entry_pk: int) -> Entry | None:
    # Found among the prefetched entries: no query, and never another list's entry.
    for entry in army_list.entries.all():
        if entry.pk == entry_pk:
            return entry
    return None


def _get_platoon(army_list: ArmyList, platoon_pk: int) -> Platoon:
    for platoon in army_list.platoons.all():
        if platoon.pk == platoon_pk:
            return platoon
    raise Http404("No such platoon in this list.")


def _form_errors(form: forms.Form) -> list[str]:
    return [str(message) for messages in form.errors.values() for message in messages]


def _builder_url(army_list: ArmyList) -> str:
    return reverse("ab-list-builder", args=[army_list.pk])


def _redirect(army_list: ArmyList, anchor: str, add_to: str | None = None) -> HttpResponseRedirect:
    # ``to`` keeps the catalogue's "Add to" platoon between no-JavaScript round trips.
    query = f"?{urlencode({'to': add_to})}" if add_to else ""
    return HttpResponseRedirect(f"{_builder_url(army_list)}{query}#{anchor}")


def _groups(army_list: ArmyList, rows: list[EntryRow], errors: Errors) -> list[Group]:
    if army_list.force_org != ForceOrg.PLATOONS:
        return [Group(None, rows)]
    base = _builder_url(army_list)
    by_platoon: dict[int | None, list[EntryRow]] = {p.pk: [] for p in army_list.platoons.all()}
    by_platoon[None] = []
    for row in rows:
        by_platoon.get(row.entry.platoon_id, by_platoon[None]).append(row)
    groups = [
        Group(p, by_platoon[p.pk], errors.platoons.get(p.pk, []), base_url=base) for p in army_list.platoons.all()
    ]
    if by_platoon[None]:
        groups.append(Group(None, by_platoon[None]))
    return groups


def _catalogue(army_list: ArmyList, query: str, unit_type: str) -> list[CatalogueRow]:
    """The army's units the player can add, in their order, filtered by name and type.

    Read from the army's units kept in memory (``catalogue.unit_cache``): no query, as the live
    filter asks at every keystroke. Names match whatever their case or accents' case, in
    English or French.
    """
    wanted = query.casefold()
    units = sorted(
        (
            unit
            for unit in army_units(army_list.army).values()
            if not (unit.hidden or unit.removed)
            and (not unit_type or unit.unit_type == unit_type)
            and (not wanted or wanted in unit.name.casefold() or wanted in unit.name_fr.casefold())
        ),
        key=lambda unit: (unit.position, unit.name),
    )
    text, names = card_text(), labels()
    rows = []
    for unit in units:
        costs = " · ".join(f"{names['quality'][q]} {cost}" for q, cost in unit.base_cost().items())
        if unit.base_models == unit.max_models:
            models = _("%(n)s models") % {"n": unit.base_models} if unit.base_models > 1 else _("1 model")
        else:
            models = _("%(low)s–%(high)s models") % {"low": unit.base_models, "high": unit.max_models}
        rows.append(
            CatalogueRow(
                pk=str(unit.pk),
                name=unit.display_name,
                facts=f"{names['unit_type'].get(unit.unit_type, unit.unit_type)} · {models}",
                costs=f"{costs} {text['pts']}",
                weapons=unit.display_weapons,
                add_label=_fill(text["add_unit"], name=unit.display_name),
            )
        )
    return rows


class SummaryPanels:
    """The points bar, problems and officers panels' markup (``{{ panels.bar }}``...), each kept
    between requests by what it shows: most changes move the points only, not the problems or
    the officers. ``oob``: the same panels for an out-of-band swap (``{{ oob_panels.bar }}``).
    """

    def __init__(self, context: dict, *, oob: bool = False) -> None:
        self.context, self.oob = context, oob
        self.language = get_language() or "en"

    def _render(self, name: str, shows: tuple) -> SafeString:
        key = builder_cache.card_key(TEMPLATE, self.language, (name, self.oob, *shows))
        html = builder_cache.card_cache().get(key)
        if html is None:
            html = _partial(name).render(self.context | {"oob": self.oob})
            builder_cache.card_cache().set(key, html, builder_cache.TIMEOUT)
        return SafeString(html)

    def bar(self) -> SafeString:
        c = self.context
        summary = c["summary"]
        shows = (summary.points, summary.points_limit, c["over_by"], c["left"], c["progress"], c["percent"])
        shows += (summary.order_dice, c["army_list"].max_order_dice, len(c["problems"]))
        return self._render("summary-bar", shows)

    def problems(self) -> SafeString:
        return self._render("problems-panel", (self.context["problems"], self.context["has_entries"]))

    def officers(self) -> SafeString:
        return self._render("officers-panel", (self.context["summary"].officers, self.context["is_v3"]))


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
    """What the page and its fragments show; ``only_entry`` builds just that entry's card.

    The list is summarised once, from the rows already loaded: no query, whatever its size.
    """
    errors = errors or Errors()
    summary = list_summary(army_list)
    choices = platoon_choices(army_list)
    cards = Cards(army_list, summary, choices, errors=errors, open_entry=open_entry, new_entry=new_entry)
    rows = cards.rows(only=only_entry)
    if add_to is None or add_to not in {value for value, _label in choices}:
        # New units go to the first platoon unless the player just chose another.
        add_to = choices[1][0] if len(choices) > 1 else ""
    context = {
        "army_list": army_list,
        # The forms' token input is filled in per response (``_html``): the markup is cached.
        "csrf_input": builder_cache.CSRF_INPUT,
        "builder_url": _builder_url(army_list),
        "text": cards.text,
        "rows": rows,
        "groups": _groups(army_list, rows, errors) if only_entry is None else [],
        "has_entries": bool(army_list.entries.all()),
        "use_platoons": cards.use_platoons,
        "platoons": list(army_list.platoons.all()),
        "platoon_choices": choices,
        "add_to": add_to,
        "platoon_kinds": platoon_kinds(army_list.edition.slug),
        "errors": errors,
        **_summary_context(army_list, summary),
    }
    context["panels"] = SummaryPanels(context)
    context["oob_panels"] = SummaryPanels(context, oob=True)
    if with_catalogue:
        filter_form = CatalogueFilterForm(request.GET)
        query, unit_type = filter_form.filters()
        context |= {
            "filter_form": filter_form,
            "filter_query": query,
            "filter_type": unit_type,
            "unit_types": UnitType.choices,
            "catalogue_html": _catalogue_html(army_list, query, unit_type),
        }
    return context


def _catalogue_html(army_list: ArmyList, query: str, unit_type: str) -> SafeString:
    """The catalogue's filtered units (``#catalogue-results``), kept between requests by the
    army's catalogue stamp and the filter: the live filter asks for them at every keystroke."""
    army = army_list.army
    shows = ("catalogue-results", army.pk, army.updated_at.isoformat(), query, unit_type)
    key = builder_cache.card_key(TEMPLATE, get_language() or "en", shows)
    html = builder_cache.card_cache().get(key)
    if html is None:
        context = {
            "catalogue": _catalogue(army_list, query, unit_type),
            "filter_query": query,
            "filter_type": unit_type,
            "text": card_text(),
        }
        html = _partial("catalogue-results").render(context)
        builder_cache.card_cache().set(key, html, builder_cache.TIMEOUT)
    return SafeString(html)


def _html(request: HttpRequest, html: str, status: int = 200) -> HttpResponse:
    """A response of builder markup, its forms given the visitor's CSRF token."""
    return HttpResponse(builder_cache.with_csrf(request, html), status=status)


def _render_fragments(request: HttpRequest, context: dict, *names: str, status: int = 200) -> HttpResponse:
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", context, request) for name in names)
    return _html(request, html, status)


def _page_with_errors(request: HttpRequest, army_list: ArmyList, errors: Errors) -> HttpResponse:
    """Without JavaScript a refused action re-renders the page, the reasons next to the fields."""
    context = _context(request, army_list, errors=errors, with_catalogue=True)
    return _html(request, render_to_string(TEMPLATE, context, request), status=400)


# --- The page and its catalogue -------------------------------------------------------------


@require_GET
@vary_on_headers("HX-Request")
@owned_list_page
def builder(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The page; its builder part comes from the cache while the list and its army are unchanged."""
    army_list = builder_list_row(request, pk)
    query = {name: request.GET[name] for name in ("to", "q", "type") if request.GET.get(name)}
    key = builder_cache.page_key(TEMPLATE, army_list, get_language() or "en", query)
    # Kept as UTF-8 bytes: a large list's builder is a few hundred kB, not re-encoded each time.
    content = builder_cache.page_cache().get(key)
    if content is None:
        context = _context(request, with_builder_rows(army_list), add_to=query.get("to"), with_catalogue=True)
        content = render_to_string(f"{TEMPLATE}#builder", context, request).encode()
        builder_cache.page_cache().set(key, content, builder_cache.TIMEOUT)
    content = builder_cache.with_csrf_bytes(request, content)
    if request.htmx and not request.htmx.history_restore_request:
        return HttpResponse(content)
    # The page around it (layout, navigation, messages) is the visitor's own: rendered each time.
    page = render_to_string(TEMPLATE, {"army_list": army_list, "builder_html": _BUILDER_SLOT}, request)
    head, tail = page.split(_BUILDER_SLOT)
    return HttpResponse(b"".join((head.encode(), content, tail.encode())))


# Where the page's layout takes the builder's cached bytes.
_BUILDER_SLOT = SafeString("<muster-builder>")


@require_GET
@vary_on_headers("HX-Request")
def builder_catalogue(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The catalogue's units filtered by name and type: the live filter's fragment."""
    army_list = builder_list_row(request, pk)
    filter_form = CatalogueFilterForm(request.GET)
    query, unit_type = filter_form.filters()
    params = urlencode({k: v for k, v in (("q", query), ("type", unit_type)) if v})
    page_url = _builder_url(army_list) + (f"?{params}" if params else "")
    if not request.htmx:
        return HttpResponseRedirect(f"{page_url}#catalogue")
    response = HttpResponse(_catalogue_html(army_list, query, unit_type))
    # Keep the filter in the address bar, so a reload or a shared link shows the same units.
    return replace_url(response, page_url)


# --- Responses shared by the actions ---------------------------------------------------------


def _entry_changed(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry, section: str = "") -> HttpResponse:
    """The changed card and the summary panels (out of band): nothing else on the page changed."""
    if not request.htmx:
        return _redirect(army_list, f"entry-{entry.pk}")
    context = _context(request, army_list, open_entry=(entry.pk, section), only_entry=entry.pk)
    context["row"] = context["rows"][0]
    return _render_fragments(request, context, "entry-changed")


def _entry_refused(
    request: HtmxHttpRequest, army_list: ArmyList, entry: Entry, section: str, messages: list[str]
) -> HttpResponse:
    errors = Errors(entries={entry.pk: EntryErrors(**{section: messages})})
    if not request.htmx:
        return _page_with_errors(request, army_list, errors)
    context = _context(request, army_list, errors=errors, open_entry=(entry.pk, section), only_entry=entry.pk)
    # htmx 2 does not swap 4xx responses, so a refusal is a 200 carrying the messages.
    return _html(request, context["rows"][0].html)


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


def _entry_gone(request: HtmxHttpRequest, army_list: ArmyList, entry_pk: int) -> HttpResponse:
    """The entry was removed (in another tab) since this page was loaded.

    For htmx a 404 would be left unswapped and the card would stay, its buttons failing. So the
    answer is a 200 that swaps nothing in place (``HX-Reswap: none``), but out of band replaces
    the card by a short notice and brings the summary up to date. Without JavaScript: a 404.
    """
    if not request.htmx:
        raise Http404("No such entry in this list.")
    context = _context(request, army_list, only_entry=entry_pk)  # the summary, and no card
    context["gone_key"] = f"entry-{entry_pk}"
    return reswap(_render_fragments(request, context, "entry-gone"), "none")


def _entry_action(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An action on one entry of the visitor's list: the view gets the list and the entry."""

    @require_POST
    @vary_on_headers("HX-Request")
    @functools.wraps(view)
    def action(request: HtmxHttpRequest, pk: int, entry_pk: int) -> HttpResponse:
        army_list = _get_list(request, pk)
        entry = _find_entry(army_list, entry_pk)
        if entry is None:
            return _entry_gone(request, army_list, entry_pk)
        return view(request, army_list, entry)

    return action


def _removed_meanwhile(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    # The write found no row: the entry went between this request's load and its update.
    if not request.htmx:
        return _redirect(army_list, "roster")
    return _entry_gone(request, _get_list(request, army_list.pk), entry.pk)


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


@_entry_action
def entry_quality(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    form = QualityForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "quality", _form_errors(form))
    if not services.entry_update(entry=entry, quality=form.cleaned_data["quality"]):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry)


@_entry_action
def entry_models(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
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
    return _entry_changed(request, army_list, entry)


@_entry_action
def entry_options(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    form = OptionsForm(request.POST, entry=entry)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "options", _form_errors(form))
    if not services.entry_update(entry=entry, options=form.cleaned_options()):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry, "options")


@_entry_action
def entry_rename(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    form = NameForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "name", _form_errors(form))
    if not services.entry_update(entry=entry, name=form.cleaned_data["name"]):
        return _removed_meanwhile(request, army_list, entry)
    return _entry_changed(request, army_list, entry)


@_entry_action
def entry_platoon(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    form = EntryPlatoonForm(request.POST, army_list=army_list)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "platoon", _form_errors(form))
    platoon_id = form.cleaned_data["platoon"]
    platoon = _get_platoon(army_list, int(platoon_id)) if platoon_id else None
    if not services.entry_update(entry=entry, platoon=platoon):
        return _removed_meanwhile(request, army_list, entry)
    return _roster_changed(request, army_list.pk, f"entry-{entry.pk}")


@_entry_action
def entry_move(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _entry_refused(request, army_list, entry, "actions", _form_errors(form))
    # Already first (or last) is not an error: the buttons at the ends are disabled anyway.
    services.entry_move(army_list=army_list, entry=entry, direction=form.cleaned_data["direction"])
    return _roster_changed(request, army_list.pk, f"entry-{entry.pk}")


@_entry_action
def entry_duplicate(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    copy = services.entry_duplicate(entry=entry)
    return _roster_changed(request, army_list.pk, f"entry-{copy.pk}", new_entry=copy.pk)


@_entry_action
def entry_remove(request: HtmxHttpRequest, army_list: ArmyList, entry: Entry) -> HttpResponse:
    services.entry_remove(entry=entry)
    return _roster_changed(request, army_list.pk, "roster")


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
