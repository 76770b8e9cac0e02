from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.admin import EditionChoicesMixin


@admin.register(Army)
class ArmyAdmin(EditionChoicesMixin, admin.ModelAdmin):
    list_display = ["name", "slug", "edition", "origin", "hidden", "updated_at"]
    list_filter = ["edition", "origin", "hidden"]
    list_select_related = ["edition"]
    search_fields = ["name", "name_fr", "slug", "source", "source_id"]
    filter_horizontal = ["national_rules"]


class OptionInline(EditionChoicesMixin, admin.TabularInline):
    model = Option
    extra = 0
    fields = [
        "position",
        "slug",
        "name",
        "name_fr",
        "per_model",
        "cost_inexperienced",
        "cost_regular",
        "cost_veteran",
        "max_count",
        "group",
        "grants_weapon",
        "replaces_weapon",
    ]


@admin.register(Unit)
class UnitAdmin(EditionChoicesMixin, admin.ModelAdmin):
    list_display = [
        "name",
        "slug",
        "army",
        "unit_type",
        "slot",
        "cost_inexperienced",
        "cost_regular",
        "cost_veteran",
        "officer_rank",
        "armament",
        "hidden",
        "removed",
    ]
    list_filter = ["army", "unit_type", "slot", "officer_rank", "hidden", "removed"]
    list_select_related = ["army", "army__edition"]
    search_fields = [
        "name",
        "name_fr",
        "slug",
        "composition",
        "weapons_text",
        "weapons_text_fr",
        "source",
        "source_id",
        "army__name",
    ]
    filter_horizontal = ["weapons", "special_rules"]
    inlines = [OptionInline]

    @admin.display(description=_("Weapons"), ordering="weapons_text")
    def armament(self, unit: Unit) -> str:
        # In the admin's language, as the lists and playsheets show it.
        return unit.display_weapons


@admin.register(Option)
class OptionAdmin(EditionChoicesMixin, admin.ModelAdmin):
    list_display = ["name", "slug", "unit", "per_model", "cost_inexperienced", "cost_regular", "cost_veteran", "group"]
    list_filter = ["unit__army", "per_model"]
    list_select_related = ["unit"]
    search_fields = ["name", "name_fr", "slug", "group", "unit__name"]
    autocomplete_fields = ["unit"]
