from __future__ import annotations

from django.contrib import admin

from .models import Card, CardPicture, CardSet, Format, Game, ImportJob, Printing


class FormatInline(admin.TabularInline):
    model = Format
    extra = 0
    fields = ["slug", "name", "name_ru", "position"]
    readonly_fields = ["slug"]  # slugs come from the rule-set file; only the names are editable data


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Display names are data: the twin-deck game has no official name, so staff may rename any game.
    Slugs, player counts and formats come from games/rulesets/<slug>.toml (see `sync_games`)."""

    list_display = ("name", "name_ru", "slug", "has_decks", "min_players", "max_players")
    fields = (
        "slug",
        "name",
        "name_ru",
        "description",
        "has_decks",
        "min_players",
        "max_players",
        "card_editors",
    )
    filter_horizontal = ("card_editors",)  # staff grant who may import this game's card database
    readonly_fields = ("slug", "has_decks", "min_players", "max_players")
    inlines = [FormatInline]

    def has_add_permission(self, request: object) -> bool:
        return False  # a game is added by writing its rule-set file, then `manage.py sync_games`

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


class PrintingInline(admin.TabularInline):
    model = Printing
    extra = 0
    autocomplete_fields = ["card_set"]


class CardPictureInline(admin.TabularInline):
    """The picture uploaded with an import: staff may remove one (the card then shows its printing's or
    the template's picture); a new one comes with an import, checked and re-encoded there."""

    model = CardPicture
    extra = 0
    max_num = 1
    fields = ["image", "width", "height", "source_name", "updated_at"]
    readonly_fields = fields


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "external_id", "identity", "card_type", "level", "cost", "deck_buildable"]
    list_filter = ["game", "card_type", "is_token", "deck_buildable"]
    search_fields = ["search_name", "external_id", "identity"]
    inlines = [PrintingInline, CardPictureInline]

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
