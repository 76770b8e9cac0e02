"""Admin for saved lists: read-mostly, for support (restore from the trash, rename, reassign)."""

from __future__ import annotations

from django.contrib import admin

from armybuilder.lists.models import ArmyList, Entry, Platoon


class PlatoonInline(admin.TabularInline):
    model = Platoon
    fields = ["position", "kind", "name"]
    readonly_fields = ["position", "kind", "name"]
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["position", "platoon", "unit", "name", "quality", "models_count", "options"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).select_related("unit", "platoon")


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "edition", "army", "points_limit", "updated_at", "deleted_at"]
    list_filter = ["edition", ("deleted_at", admin.EmptyFieldListFilter), "force_org"]
    list_select_related = ["owner", "edition", "army", "army__edition"]
    search_fields = ["name", "owner__username", "share_token"]
    date_hierarchy = "updated_at"
    raw_id_fields = ["owner"]
    fields = [
        "name",
        "owner",
        "edition",
        "army",
        "points_limit",
        "force_org",
        "max_order_dice",
        "max_platoons",
        "share_token",
        "deleted_at",
        "created_at",
        "updated_at",
    ]
    # Lists are built in the app; the admin only renames, reassigns and restores them.
    readonly_fields = [
        "edition",
        "army",
        "points_limit",
        "force_org",
        "max_order_dice",
        "max_platoons",
        "share_token",
        "created_at",
        "updated_at",
    ]
    inlines = [PlatoonInline, EntryInline]

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False
