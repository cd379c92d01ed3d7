from __future__ import annotations

from typing import Any

from django.contrib import admin

from .models import BanList, BanListEntry


class BanListEntryInline(admin.TabularInline):
    model = BanListEntry
    fields = ("external_id", "name", "identity", "card", "limit")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(BanList)
class BanListAdmin(admin.ModelAdmin):
    """Read-only: ban lists are immutable versions; import a new list (import_banlist) to change one."""

    list_display = ("name", "game", "effective_date", "region", "is_whitelist", "created_at")
    list_filter = ("game", "region", "is_whitelist")
    search_fields = ("name",)
    inlines = [BanListEntryInline]

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # view permission still shows every field and entry
