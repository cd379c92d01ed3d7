from django.urls import URLPattern, path

from .views import actions, event, matches, organizer, player, printing, projector

app_name = "tournaments"


def _step(route: str, action: str) -> URLPattern:
    """An irreversible step: one view for all of them, named by its action (``views.actions``)."""
    return path(route, actions.act, {"action": action}, name=action)


urlpatterns = [
    path("", event.tournament_list, name="list"),
    path("new/", organizer.tournament_create, name="create"),
    path("join/", player.join_start, name="join_start"),
    path("join/<str:code>/", player.join_code, name="join_code"),
    path("<int:pk>/", event.tournament_detail, name="detail"),
    path("<int:pk>/edit/", organizer.tournament_edit, name="edit"),
    path("<int:pk>/join/", player.tournament_join, name="join"),
    path("<int:pk>/guests/", organizer.guest_add, name="guest_add"),
    _step("<int:pk>/freeze/", "freeze"),
    _step("<int:pk>/start/", "start"),
    path("<int:pk>/confirm/<slug:action>/", actions.confirm, name="confirm"),
    path("<int:pk>/me/", player.my_event, name="my_event"),
    path("<int:pk>/me/live/", player.my_event_live, name="my_event_live"),
    path("<int:pk>/pairings/", projector.pairings, name="pairings"),
    path("<int:pk>/projector/<slug:page>/", projector.projector, name="projector"),
    path("<int:pk>/poster/", printing.poster, name="poster"),
    path("<int:pk>/players/bulk/", organizer.players_bulk, name="players_bulk"),
    path("<int:pk>/check-in/", organizer.check_in, name="check_in"),
    path("<int:pk>/check-in/open/", organizer.check_in_open, name="check_in_open"),
    path("<int:pk>/no-shows/restore/", organizer.no_shows_restore, name="no_shows_restore"),
    path("<int:pk>/players/<int:player_id>/check-in/", player.player_check_in, name="player_check_in"),
    path("<int:pk>/players/<int:player_id>/undrop/", organizer.player_drop_undo, name="undrop"),
    path("<int:pk>/players/<int:player_id>/link/", organizer.player_link, name="player_link"),
    path("<int:pk>/players/<int:player_id>/deck/", player.deck_submit, name="deck_submit"),
    path(
        "<int:pk>/players/<int:player_id>/registration/",
        player.player_registration,
        name="player_registration",
    ),
    path("<int:pk>/players/<int:player_id>/list/", event.player_deck, name="player_deck"),
    path("<int:pk>/players/<int:player_id>/check/", organizer.deck_check, name="deck_check"),
    _step("<int:pk>/players/<int:player_id>/drop/", "drop"),
    _step("<int:pk>/pair/", "pair"),
    path("<int:pk>/rounds/<int:number>/", organizer.round_detail, name="round"),
    _step("<int:pk>/rounds/<int:number>/repair/", "repair"),
    path("<int:pk>/rounds/<int:number>/timer/", organizer.round_timer, name="timer"),
    path("<int:pk>/standings/", event.standings, name="standings"),
    _step("<int:pk>/topcut/", "topcut"),
    path("<int:pk>/bracket/", event.bracket, name="bracket"),
    _step("<int:pk>/finish/", "finish"),
    path("<int:pk>/decklists/", event.decklists, name="decklists"),
    path("<int:pk>/print/<slug:kind>/", printing.printable, name="print"),
    path("matches/<int:match_id>/", matches.match_detail, name="match"),
    path("matches/<int:match_id>/report/", matches.match_report, name="report"),
    path("matches/<int:match_id>/confirm/", matches.match_confirm, name="match_confirm"),
    path("matches/<int:match_id>/games/", matches.match_game, name="match_game"),
    path("matches/<int:match_id>/finish/", matches.match_finish, name="match_finish"),
    path("matches/<int:match_id>/resolve/", matches.match_resolve, name="resolve"),
    path("matches/<int:match_id>/dispute/", matches.match_dispute, name="dispute"),
    path("matches/<int:match_id>/correct/", matches.match_correct, name="correct"),
    path("matches/<int:match_id>/sideboard/", matches.match_sideboard, name="sideboard"),
]
