from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army, Option, Unit
from armybuilder.reference.models import SpecialRule, Weapon


def _with_edition(db_field: models.Field, kwargs: dict[str, Any]) -> None:
    # Weapons' and rules' names say their edition, which __str__ needs, so fetch it with them.
    if db_field.name in ("weapons", "grants_weapon", "replaces_weapon"):
        kwargs["queryset"] = Weapon.objects.select_related("edition")
    elif db_field.name in ("special_rules", "national_rules"):
        kwargs["queryset"] = SpecialRule.objects.select_related("edition")


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "edition", "origin", "hidden", "updated_at"]
    list_filter = ["edition", "origin", "hidden"]
    list_select_related = ["edition"]
    search_fields = ["name", "name_fr", "slug", "source", "source_id"]
    filter_horizontal = ["national_rules"]

    def formfield_for_manytomany(
        self, db_field: models.ManyToManyField, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        _with_edition(db_field, kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class OptionInline(admin.TabularInline):
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

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        _with_edition(db_field, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
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

    def formfield_for_manytomany(
        self, db_field: models.ManyToManyField, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        _with_edition(db_field, kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


@admin.register(Option)
class OptionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "unit", "per_model", "cost_inexperienced", "cost_regular", "cost_veteran", "group"]
    list_filter = ["unit__army", "per_model"]
    list_select_related = ["unit"]
    search_fields = ["name", "name_fr", "slug", "group", "unit__name"]
    autocomplete_fields = ["unit"]

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        _with_edition(db_field, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
