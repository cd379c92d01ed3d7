from django.contrib import admin

from .models import Deck, DeckCard, DeckVersion


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    raw_id_fields = ["card"]


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "game", "format_slug", "visibility", "current_version", "updated_at"]
    list_filter = ["game", "visibility"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner", "hero", "copied_from"]
    inlines = [DeckCardInline]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["deck", "number", "created_by", "created_at", "message"]
    raw_id_fields = ["deck", "created_by"]
    readonly_fields = ["snapshot"]
