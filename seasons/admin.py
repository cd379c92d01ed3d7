from django.contrib import admin

from .models import EventFinish, RatedEvent, Rating, Series, SeriesEvent


class SeriesEventInline(admin.TabularInline):
    model = SeriesEvent
    extra = 0
    raw_id_fields = ["tournament"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "best_of", "created_by", "created_at"]
    inlines = [SeriesEventInline]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "rating", "rd", "events", "matches", "updated_at"]
    list_filter = ["game"]
    search_fields = ["user__username"]


@admin.register(EventFinish)
class EventFinishAdmin(admin.ModelAdmin):
    list_display = ["tournament", "place", "name", "size", "wins", "losses", "draws"]
    raw_id_fields = ["tournament", "player", "user"]


@admin.register(RatedEvent)
class RatedEventAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rated_at", "players"]
    raw_id_fields = ["tournament"]
