from __future__ import annotations

from django.contrib import admin

from armybuilder.leagues.models import PlayerProfile, RatingStep, Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "edition", "best", "minimum_events", "points_scale", "published"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["events"]
    raw_id_fields = ["organiser"]


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "hidden"]
    raw_id_fields = ["user"]


@admin.register(RatingStep)
class RatingStepAdmin(admin.ModelAdmin):
    list_display = ["user", "pool", "date", "rating", "change", "games"]
    list_filter = ["pool"]
    raw_id_fields = ["user"]
