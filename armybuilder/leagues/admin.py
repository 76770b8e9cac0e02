from __future__ import annotations

from django.contrib import admin

from armybuilder.leagues.models import LeagueGame, PlayerProfile, RatingStep, Season


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


@admin.register(LeagueGame)
class LeagueGameAdmin(admin.ModelAdmin):
    list_display = ["season", "played_on", "player_a", "player_b", "outcome", "confirmed", "by_organiser"]
    list_filter = ["confirmed", "by_organiser"]
    raw_id_fields = ["season", "player_a", "player_b", "reported_by"]
