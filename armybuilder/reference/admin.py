from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from armybuilder.reference.models import Edition, RulesRow, RulesTable, SpecialRule, Weapon


class EditionChoicesMixin:
    """For an admin or an inline whose choices are weapons or special rules: each choice's text
    names its edition (``NamedInEdition``), so the choices are fetched with their edition."""

    def _with_edition(self, db_field: models.Field, kwargs: dict[str, Any]) -> None:
        if db_field.related_model in (Weapon, SpecialRule):
            kwargs["queryset"] = db_field.related_model.objects.select_related("edition")

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        self._with_edition(db_field, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]

    def formfield_for_manytomany(
        self, db_field: models.ManyToManyField, request: HttpRequest | None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        self._with_edition(db_field, kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "number", "year"]
    search_fields = ["name", "name_fr", "slug"]


class RulesRowInline(admin.TabularInline):
    model = RulesRow
    extra = 0
    fields = ["position", "cells", "cells_fr", "source", "status", "note"]


@admin.register(RulesTable)
class RulesTableAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "edition", "topic", "position", "status"]
    list_filter = ["edition", "topic", "status"]
    list_select_related = ["edition"]
    search_fields = ["title", "title_fr", "slug", "topic", "source", "note"]
    inlines = [RulesRowInline]


@admin.register(RulesRow)
class RulesRowAdmin(admin.ModelAdmin):
    """Rows are edited inline on their table; this list finds the unverified and disputed ones."""

    list_display = ["__str__", "table", "position", "status", "source"]
    list_filter = ["table__edition", "status"]
    list_select_related = ["table", "table__edition"]
    search_fields = ["table__slug", "source", "note"]


@admin.register(SpecialRule)
class SpecialRuleAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "edition", "status"]
    list_filter = ["edition", "status"]
    list_select_related = ["edition"]
    search_fields = ["name", "name_fr", "slug", "summary"]


@admin.register(Weapon)
class WeaponAdmin(EditionChoicesMixin, admin.ModelAdmin):
    list_display = ["name", "slug", "edition", "category", "range_max", "shots", "pen", "he_size", "status"]
    list_filter = ["edition", "category", "status"]
    list_select_related = ["edition"]
    search_fields = ["name", "name_fr", "slug", "source", "note"]
    filter_horizontal = ["special_rules"]
