"""Rules-reference pages: editions, topics, the weapons chart and the edition compare view.

Every page works by plain GET; the weapons chart and the compare view also answer htmx requests
with just their results fragment. Each view returns an unrendered ``TemplateResponse``:
``pages.reference_page`` renders its content once per rules-data version (without the request,
so the context must hold all the content shows), puts it in the site's layout for each request
and answers reloads with 304.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from armybuilder.http import HtmxHttpRequest
from armybuilder.reference import queries
from armybuilder.reference.compare import Change, TableDiff, diff_sides, table_side, weapons_side
from armybuilder.reference.models import Edition, RulesTable, SpecialRule, Weapon, WeaponCategory
from armybuilder.reference.pages import reference_page
from armybuilder.reference.topics import TOPICS_BY_SLUG, Topic

WEAPONS = TOPICS_BY_SLUG["weapons"]


@dataclass(frozen=True)
class EditionLink:
    edition: Edition
    url: str
    current: bool
    to_index: bool  # this edition lacks the page's topic, so the link leads to its index


def _wants_fragment(request: HtmxHttpRequest) -> bool:
    # htmx asks for the whole page when it restores history it has no snapshot of.
    return bool(request.htmx) and not request.htmx.history_restore_request


def _get_edition(slug: str) -> Edition:
    return get_object_or_404(Edition, slug=slug)


def _topic_url(edition: Edition, topic: Topic) -> str:
    if topic.slug == WEAPONS.slug:
        return reverse("ref-weapons", args=[edition.slug])
    return reverse("ref-topic", args=[edition.slug, topic.slug])


def _edition_links(
    editions: list[Edition], current: Edition, topic: Topic | None, topic_slugs: dict[int, set[str]] | None = None
) -> list[EditionLink]:
    """The edition switcher: the same topic in each edition, or that edition's index if it lacks it."""
    links = []
    for edition in editions:
        has_topic = topic is not None and (
            topic.slug == WEAPONS.slug or (topic_slugs is not None and topic.slug in topic_slugs.get(edition.pk, set()))
        )
        url = _topic_url(edition, topic) if has_topic and topic else reverse("ref-edition", args=[edition.slug])
        links.append(EditionLink(edition, url, edition.pk == current.pk, topic is not None and not has_topic))
    return links


def _compare_url(subject: str, editions: list[Edition], current: Edition) -> str | None:
    """Compare the current edition with the one before it (or, for the first, the one after)."""
    if len(editions) < 2:
        return None
    index = next(i for i, e in enumerate(editions) if e.pk == current.pk)
    a, b = (editions[index - 1], current) if index > 0 else (current, editions[index + 1])
    return reverse("ref-compare", args=[subject]) + "?" + urlencode({"a": a.slug, "b": b.slug})


@require_safe
@reference_page
def index(request: HttpRequest) -> HttpResponse:
    editions = list(Edition.objects.all())
    topic_slugs = queries.topic_slugs_by_edition()
    entries = [(edition, queries.available_topics(topic_slugs[edition.pk])) for edition in editions]
    compare_url = None
    if len(editions) >= 2:
        compare_url = (
            reverse("ref-compare", args=[WEAPONS.slug])
            + "?"
            + urlencode({"a": editions[-2].slug, "b": editions[-1].slug})
        )
    return TemplateResponse(request, "reference/index.html", {"entries": entries, "compare_url": compare_url})


@require_safe
@reference_page
def edition_index(request: HttpRequest, edition: str) -> HttpResponse:
    current = _get_edition(edition)
    tables = list(queries.tables_for_index(current))
    topics = queries.available_topics({t.topic for t in tables})
    sections = [(topic, _topic_url(current, topic), [t for t in tables if t.topic == topic.slug]) for topic in topics]
    editions = list(Edition.objects.all())
    context = {
        "edition": current,
        "sections": sections,
        "switcher": _edition_links(editions, current, None),
        # An edition without armies says so plainly: reference and odds, no list building.
        "has_armies": current.armies.filter(hidden=False).exists(),
    }
    return TemplateResponse(request, "reference/edition.html", context)


@require_safe
@reference_page
def topic(request: HttpRequest, edition: str, topic: str) -> HttpResponse:
    current = _get_edition(edition)
    page_topic = TOPICS_BY_SLUG.get(topic)
    if page_topic is None:
        raise Http404("No such reference topic.")
    tables = list(queries.tables_for_topic(current, page_topic))
    if not tables:
        raise Http404("This edition has no tables for this topic.")
    editions = list(Edition.objects.all())
    context = {
        "edition": current,
        "topic": page_topic,
        "tables": tables,
        "switcher": _edition_links(editions, current, page_topic, queries.topic_slugs_by_edition()),
        "compare_url": _compare_url(page_topic.slug, editions, current),
    }
    return TemplateResponse(request, "reference/topic.html", context)


class WeaponFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Name"),
        required=False,
        max_length=80,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    category = forms.ChoiceField(label=_("Type"), required=False)
    rule = forms.ChoiceField(label=_("Special rule"), required=False)
    min_pen = forms.IntegerField(
        label=_("Minimum pen"), required=False, min_value=0, max_value=20, widget=forms.NumberInput(attrs={"step": 1})
    )

    def __init__(self, *args: Any, rules: list[SpecialRule], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", _("All weapons")), *WeaponCategory.choices]
        self.fields["rule"].choices = [("", _("Any rule")), *((r.slug, r.display_name) for r in rules)]

    def filters(self) -> dict[str, object]:
        """The valid filters only: a bad value in one field must not hide the whole chart."""
        self.is_valid()
        return self.cleaned_data


@require_safe
@vary_on_headers("HX-Request")
@reference_page
def weapons(request: HtmxHttpRequest, edition: str) -> HttpResponse:
    current = _get_edition(edition)
    # The rules weapons carry, not the armies' and units' rules (national rules, Recce...).
    weapon_rules = SpecialRule.objects.filter(edition=current, weapons__imported=False).distinct()
    rules = sorted(weapon_rules, key=lambda r: r.display_name.casefold())
    form = WeaponFilterForm(request.GET, rules=rules)
    weapons = list(queries.weapons_for_chart(current, form.filters()))
    groups = [
        (label, group)
        for value, label in WeaponCategory.choices
        if (group := [w for w in weapons if w.category == value])
    ]
    if form.cleaned_data.get("q"):
        # A typed search is ranked (``reference.search``): the group holding the best match first.
        groups.sort(key=lambda pair: weapons.index(pair[1][0]))
    template_name = "reference/weapons.html"
    context: dict[str, object] = {
        "edition": current,
        "topic": WEAPONS,
        "form": form,
        "weapons": weapons,
        "groups": groups,
        "filtered": any(form.cleaned_data.get(name) not in (None, "") for name in form.fields),
        "reset_url": reverse("ref-weapons", args=[current.slug]),
    }
    if _wants_fragment(request):
        template_name += "#weapon-results"
    else:
        context["rules"] = rules
        # Weapons imported army lists brought are never in the rulebook chart: say where they are.
        context["has_imported"] = Weapon.objects.filter(edition=current, imported=True).exists()
        editions = list(Edition.objects.all())
        context["switcher"] = _edition_links(editions, current, WEAPONS)
        context["compare_url"] = _compare_url(WEAPONS.slug, editions, current)
    return TemplateResponse(request, template_name, context)


def _pick_editions(request: HttpRequest, editions: list[Edition]) -> tuple[Edition, Edition]:
    """``?a=&b=`` name the older and newer editions; by default the two latest are compared."""
    if not editions:
        raise Http404("No editions.")
    by_slug = {e.slug: e for e in editions}
    default_a = editions[-2] if len(editions) > 1 else editions[-1]
    a = by_slug.get(request.GET.get("a") or default_a.slug)
    b = by_slug.get(request.GET.get("b") or editions[-1].slug)
    if a is None or b is None:
        raise Http404("Unknown edition.")
    return a, b


def _table_diffs(tables: list[RulesTable], a: Edition, b: Edition) -> list[TableDiff]:
    old = {t.slug: t for t in tables if t.edition_id == a.pk}
    new = {t.slug: t for t in tables if t.edition_id == b.pk}
    # The newer edition's order, then the tables it dropped.
    slugs = list(new) + [s for s in old if s not in new]
    return [
        diff_sides(s, table_side(old[s]) if s in old else None, table_side(new[s]) if s in new else None) for s in slugs
    ]


@require_safe
@vary_on_headers("HX-Request")
@reference_page
def compare(request: HtmxHttpRequest, subject: str) -> HttpResponse:
    editions = list(Edition.objects.all())
    a, b = _pick_editions(request, editions)
    page_topic = TOPICS_BY_SLUG.get(subject)
    if page_topic == WEAPONS:
        by_edition = queries.weapons_for_compare([a, b])
        title = str(WEAPONS.title)
        diffs = [diff_sides(subject, weapons_side(by_edition[a.pk], title), weapons_side(by_edition[b.pk], title))]
        in_a = in_b = True
    else:
        if page_topic is not None:
            tables = list(queries.tables_for_compare([a, b], topic=subject))
        else:
            tables = list(queries.tables_for_compare([a, b], slug=subject))
            if not tables:
                raise Http404("No such table in these editions.")
            page_topic = TOPICS_BY_SLUG.get(tables[0].topic)
        diffs = _table_diffs(tables, a, b)
        in_a = any(t.edition_id == a.pk for t in tables)
        in_b = any(t.edition_id == b.pk for t in tables)
        title = str(page_topic.title) if page_topic and page_topic.slug == subject else diffs[0].title
    only_changes = request.GET.get("changes") == "1"
    if only_changes:
        for diff in diffs:
            diff.rows = [row for row in diff.rows if row.change != Change.SAME]

    def page_url(edition: Edition, present: bool) -> str:
        if page_topic is not None and present:
            return _topic_url(edition, page_topic)
        return reverse("ref-edition", args=[edition.slug])

    topic_slugs = queries.topic_slugs_by_edition()
    context = {
        "path": request.path,  # the kept content is rendered without the request
        "subject": subject,
        "title": title,
        "compare_topics": queries.available_topics(topic_slugs[a.pk] | topic_slugs[b.pk]),
        "editions": editions,
        "a": a,
        "b": b,
        "a_url": page_url(a, in_a),
        "b_url": page_url(b, in_b),
        "diffs": diffs,
        "only_changes": only_changes,
        "changed": any(d.has_differences for d in diffs),
    }
    template_name = "reference/compare.html"
    if _wants_fragment(request):
        template_name += "#compare-results"
    return TemplateResponse(request, template_name, context)
