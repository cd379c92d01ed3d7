from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("<int:pk>/join/", views.tournament_join, name="join"),
    path("<int:pk>/guests/", views.guest_add, name="guest_add"),
    path("<int:pk>/freeze/", views.registration_freeze, name="freeze"),
    path("<int:pk>/players/<int:player_id>/deck/", views.deck_submit, name="deck_submit"),
    path(
        "<int:pk>/players/<int:player_id>/registration/",
        views.player_registration,
        name="player_registration",
    ),
    path("<int:pk>/players/<int:player_id>/list/", views.player_deck, name="player_deck"),
    path("<int:pk>/players/<int:player_id>/check/", views.deck_check, name="deck_check"),
    path("<int:pk>/players/<int:player_id>/drop/", views.player_drop, name="drop"),
    path("<int:pk>/pair/", views.round_pair, name="pair"),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round"),
    path("<int:pk>/rounds/<int:number>/repair/", views.round_repair, name="repair"),
    path("<int:pk>/rounds/<int:number>/timer/", views.round_timer, name="timer"),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/topcut/", views.topcut, name="topcut"),
    path("<int:pk>/bracket/", views.bracket, name="bracket"),
    path("<int:pk>/finish/", views.tournament_finish, name="finish"),
    path("<int:pk>/decklists/", views.decklists, name="decklists"),
    path("<int:pk>/print/<slug:kind>/", views.printable, name="print"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/report/", views.match_report, name="report"),
    path("matches/<int:match_id>/confirm/", views.match_confirm, name="confirm"),
    path("matches/<int:match_id>/dispute/", views.match_dispute, name="dispute"),
    path("matches/<int:match_id>/correct/", views.match_correct, name="correct"),
    path("matches/<int:match_id>/sideboard/", views.match_sideboard, name="sideboard"),
]
