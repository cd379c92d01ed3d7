from __future__ import annotations

from django.contrib import admin

from .models import Card, CardSet, ImportJob, Printing


class PrintingInline(admin.TabularInline):
    model = Printing
    extra = 0
    autocomplete_fields = ["card_set"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "external_id", "identity", "card_type", "level", "cost", "deck_buildable"]
    list_filter = ["game", "card_type", "is_token", "deck_buildable"]
    search_fields = ["search_name", "external_id", "identity"]
    inlines = [PrintingInline]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        # search_name is not editable in forms, and Cyrillic search depends on it being current.
        obj.search_name = obj.name.casefold()
        super().save_model(request, obj, form, change)


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "game", "set_type", "release_date"]
    list_filter = ["game"]
    search_fields = ["code", "name"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["filename", "game", "status", "processed", "total", "created_by", "created_at"]
    list_filter = ["status", "game"]
    exclude = ["payload"]
    readonly_fields = ["errors"]
