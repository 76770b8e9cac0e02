"""The reference screens' reads: one function per screen need, each with a fixed query count.

Topic pages filter tables on ``RulesTable.topic``, so which topics an edition has is worked out
from the same field (not from the slug lists in ``topics.py``): a link never leads to an empty page.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Case, Value, When

from armybuilder.reference import search
from armybuilder.reference.models import (
    Edition,
    RulesTable,
    RulesTableQuerySet,
    Weapon,
    WeaponCategory,
    WeaponQuerySet,
)
from armybuilder.reference.topics import TOPICS, Topic


def available_topics(topic_slugs: set[str]) -> list[Topic]:
    """The topics with something to show, in reading order (every edition has a weapons chart)."""
    return [t for t in TOPICS if t.slug == "weapons" or t.slug in topic_slugs]


def topic_slugs_by_edition() -> defaultdict[int, set[str]]:
    """Which topics each edition has tables for. One query."""
    present: defaultdict[int, set[str]] = defaultdict(set)
    for edition_id, topic in RulesTable.objects.order_by().values_list("edition_id", "topic").distinct():
        present[edition_id].add(topic)
    return present


def table_slugs_by_edition() -> defaultdict[int, list[str]]:
    """Each edition's table slugs in reading order (topic, then position). One query."""
    order = {topic.slug: index for index, topic in enumerate(TOPICS)}
    rows = RulesTable.objects.order_by().values_list("edition_id", "topic", "position", "slug")
    slugs: defaultdict[int, list[str]] = defaultdict(list)
    for edition_id, _topic, _position, slug in sorted(
        rows, key=lambda r: (order.get(r[1], len(order)), r[1], r[2], r[3])
    ):
        slugs[edition_id].append(slug)
    return slugs


def tables_for_index(edition: Edition) -> RulesTableQuerySet:
    """The edition page lists each topic's table titles and flags; rows are not needed."""
    return (
        RulesTable.objects.all().for_edition(edition).only("slug", "topic", "position", "title", "title_fr", "status")
    )


def tables_for_topic(edition: Edition, topic: Topic) -> RulesTableQuerySet:
    """A topic page's tables with their rows: two queries however many rows."""
    return RulesTable.objects.all().for_edition(edition).filter(topic=topic.slug).with_rows()


def tables_for_compare(
    editions: list[Edition], *, topic: str | None = None, slug: str | None = None
) -> RulesTableQuerySet:
    tables = RulesTable.objects.filter(edition__in=editions).with_rows()
    if topic is not None:
        tables = tables.filter(topic=topic)
    if slug is not None:
        tables = tables.filter(slug=slug)
    return tables


def weapons_for_chart(edition: Edition, filters: dict[str, Any] | None = None) -> WeaponQuerySet:
    """The rulebook weapons chart, narrowed by the chart's filters: two queries however many weapons.

    Weapons an import brought (``Weapon.imported``) are never part of it: they belong to their army.
    """
    weapons = Weapon.objects.filter(edition=edition).rulebook().for_chart()
    filters = filters or {}
    if text := (filters.get("q") or "").strip():
        # Players' words ("MG42", "zook", "lance-flamme"), without case or accents: two more
        # queries. The best match first ("MG42": the MMG row, then the LMG), then chart order.
        match = search.matcher(edition, text)
        chart = {value: index for index, value in enumerate(WeaponCategory.values)}
        rows = Weapon.objects.filter(edition=edition).rulebook()
        ranks = {}
        for pk, category, position, name, name_fr, slug in rows.values_list(
            "pk", "category", "position", "name", "name_fr", "slug"
        ):
            if (rank := match.rank(name, name_fr, slug)) is not None:
                ranks[pk] = (rank, chart[category], position, name)
        by_rank = sorted(ranks, key=ranks.__getitem__)
        weapons = weapons.filter(pk__in=by_rank).order_by(
            Case(*(When(pk=pk, then=Value(place)) for place, pk in enumerate(by_rank)), default=Value(len(by_rank)))
        )
    if category := filters.get("category"):
        weapons = weapons.filter(category=category)
    if rule := filters.get("rule"):
        weapons = weapons.filter(special_rules__slug=rule)
    if (min_pen := filters.get("min_pen")) is not None:
        weapons = weapons.filter(pen__gte=min_pen)
    return weapons


def weapons_for_compare(editions: list[Edition]) -> dict[int, list[Weapon]]:
    """Each edition's weapons in chart order (small arms first, as the chart shows them)."""
    order = {value: index for index, value in enumerate(WeaponCategory.values)}
    rows = Weapon.objects.filter(edition__in=editions).rulebook().for_chart()
    weapons = sorted(rows, key=lambda w: (order[w.category], w.position, w.name))
    by_edition: dict[int, list[Weapon]] = defaultdict(list)
    for weapon in weapons:
        by_edition[weapon.edition_id].append(weapon)
    return by_edition
