from django.contrib import admin

from .models import Game, Match, MatchSeat, Player, ResultChange, Round, SideboardChange, Tournament


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("name", "user", "joined_round", "dropped_at_round", "deck_submitted_at")
    readonly_fields = ("deck_submitted_at",)
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "format_slug", "match_format", "status", "created_by", "created_at")
    list_filter = ("game", "status", "match_format")
    search_fields = ("name",)
    raw_id_fields = ("created_by", "banlist")
    filter_horizontal = ("co_organizers",)
    inlines = [PlayerInline]


class SeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ("player",)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    # Results are changed through the event pages so that every change is audited; here they are read-only.
    list_display = ("round", "table", "bye", "status")
    list_filter = ("status",)
    readonly_fields = ("status", "draws", "reported_by", "confirmed_by", "reported_at")
    raw_id_fields = ("round", "chooser")
    inlines = [SeatInline, GameInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "kind", "seed", "started_at", "timer_ends_at")
    raw_id_fields = ("tournament", "paired_by")


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("match", "action", "changed_by", "changed_at", "reason")
    readonly_fields = ("match", "action", "changed_by", "changed_at", "old", "new", "reason")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(SideboardChange)
class SideboardChangeAdmin(admin.ModelAdmin):
    list_display = ("match", "game_number", "player", "created_at")
    raw_id_fields = ("match", "player", "created_by")
