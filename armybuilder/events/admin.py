"""Admin for events: for support (a stuck round, a wrong result); organisers use the dashboard."""

from __future__ import annotations

from django.contrib import admin

from armybuilder.events.models import Entrant, Event, Pairing, Result, Round, Submission


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "organiser", "published", "lists_revealed"]
    list_filter = ["published", "edition"]
    search_fields = ["name", "slug", "organiser__username"]
    raw_id_fields = ["organiser"]
    filter_horizontal = ["allowed_armies"]
    readonly_fields = ["slug", "seed", "banned_units"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["__str__", "user", "event", "joined_at", "dropped"]
    search_fields = ["user__username", "walk_in_name", "event__name"]
    raw_id_fields = ["user", "event"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["entrant", "list_name", "army_name", "points", "status", "submitted_at"]
    list_filter = ["status"]
    # A sealed list is what it was: support may change its status or note, never its contents.
    readonly_fields = [
        "entrant",
        "army_list",
        "list_name",
        "army_name",
        "army_slug",
        "snapshot",
        "hash",
        "points",
        "facts",
        "submitted_at",
    ]


class PairingInline(admin.TabularInline):
    model = Pairing
    fields = ["table", "player_a", "player_b"]
    raw_id_fields = ["player_a", "player_b"]
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "published"]
    inlines = [PairingInline]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["pairing", "outcome", "dice_a", "dice_b", "confirmed", "by_organiser"]
    raw_id_fields = ["pairing", "entered_by"]
