"""Read-only JSON for the rules reference: editions, each table and each edition's weapons chart.

The JSON always carries the English cells (the canonical data); French text rides along in
``cells_fr`` / ``name_fr`` where the data has it, the other languages' in ``translations``
(``{"de": {...}}``: a row's cells, a table's title and intro). Answers are kept per rules-data version and
reloads are answered 304 (``pages.reference_json``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from armybuilder.reference import queries
from armybuilder.reference.models import Edition, RulesTable, Weapon
from armybuilder.reference.pages import reference_json

WEAPONS_TABLE = "weapons"


def _not_found(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=404)


def _edition_json(edition: Edition, table_slugs: list[str]) -> dict[str, Any]:
    return {
        "slug": edition.slug,
        "number": edition.number,
        "name": edition.name,
        "name_fr": edition.name_fr,
        "year": edition.year,
        "tables": table_slugs,
        "links": {
            "self": reverse("ref-api-edition", args=[edition.slug]),
            "html": reverse("ref-edition", args=[edition.slug]),
            "weapons": reverse("ref-api-table", args=[edition.slug, WEAPONS_TABLE]),
            "tables": {slug: reverse("ref-api-table", args=[edition.slug, slug]) for slug in table_slugs},
        },
    }


def _table_json(table: RulesTable) -> dict[str, Any]:
    rows = []
    for row in table.rows.all():
        item: dict[str, Any] = dict(row.cells)
        item.update(source=row.source, status=row.status, note=row.note)
        if row.cells_fr:
            item["cells_fr"] = row.cells_fr
        if row.translations:
            item["translations"] = row.translations
        rows.append(item)
    return {
        "edition": table.edition.slug,
        "table": table.slug,
        "topic": table.topic,
        "title": table.title,
        "title_fr": table.title_fr,
        "translations": table.translations,
        "columns": [column["key"] for column in table.columns],
        "source": table.source,
        "status": table.status,
        "note": table.note,
        "rows": rows,
    }


def _weapon_json(weapon: Weapon) -> dict[str, Any]:
    item: dict[str, Any] = {"name": weapon.name, "slug": weapon.slug}
    if weapon.name_fr:
        item["name_fr"] = weapon.name_fr
    item.update(category=weapon.category, range=weapon.range_max)
    if weapon.range_min:
        item["min_range"] = weapon.range_min
    if weapon.indirect_min is not None and weapon.indirect_max is not None:
        item["indirect_range"] = [weapon.indirect_min, weapon.indirect_max]
    item.update(shots=weapon.shots, pen=weapon.pen_for_api())
    if weapon.he_size:
        item["he_size"] = weapon.he_size
    item.update(
        special_rules=[rule.name for rule in weapon.special_rules.all()],
        source=weapon.source,
        status=weapon.status,
        note=weapon.note,
    )
    return item


@require_safe
@reference_json
def editions(request: HttpRequest) -> JsonResponse:
    slugs = queries.table_slugs_by_edition()
    return JsonResponse([_edition_json(e, slugs[e.pk]) for e in Edition.objects.all()], safe=False)


@require_safe
@reference_json
def edition_detail(request: HttpRequest, edition: str) -> JsonResponse:
    found = Edition.objects.filter(slug=edition).first()
    if found is None:
        return _not_found(f"Unknown edition {edition!r}.")
    return JsonResponse(_edition_json(found, queries.table_slugs_by_edition()[found.pk]))


@require_safe
@reference_json
def table(request: HttpRequest, edition: str, table: str) -> JsonResponse:
    """One table of an edition, or (for ``weapons``) the edition's weapons chart as a list."""
    found = Edition.objects.filter(slug=edition).first()
    if found is None:
        return _not_found(f"Unknown edition {edition!r}.")
    if table == WEAPONS_TABLE:
        weapons = queries.weapons_for_chart(found)
        return JsonResponse([_weapon_json(w) for w in weapons], safe=False)
    rules_table = RulesTable.objects.all().for_edition(found).filter(slug=table).with_rows().first()
    if rules_table is None:
        return _not_found(f"Edition {edition!r} has no table {table!r}.")
    return JsonResponse(_table_json(rules_table))
