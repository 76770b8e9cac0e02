"""Event URLs, mounted at ``events/``; the JSON API is in ``api_urls`` (under ``api/``)."""

from __future__ import annotations

from django.urls import path

from armybuilder.events import views

urlpatterns = [
    path("", views.index, name="events-index"),
    path("new/", views.create, name="events-new"),
    path("for-list/<int:pk>/", views.list_legality, name="events-list-legality"),
    path("<slug:slug>/", views.event_page, name="events-event"),
    path("<slug:slug>/join/", views.join, name="events-join"),
    path("<slug:slug>/submit/", views.submit, name="events-submit"),
    path("<slug:slug>/standings/", views.standings, name="events-standings"),
    path("<slug:slug>/rounds/<int:number>/", views.round_page, name="events-round"),
    path("<slug:slug>/pairings/<int:pairing_id>/result/", views.enter_result, name="events-result"),
    path("<slug:slug>/pairings/<int:pairing_id>/play/", views.play, name="events-play"),
    path("<slug:slug>/pairings/<int:pairing_id>/confirm/", views.confirm_result, name="events-confirm"),
    path("<slug:slug>/entrants/<int:entrant_id>/list/", views.sealed_list, name="events-list"),
    path("<slug:slug>/manage/", views.dashboard, name="events-manage"),
    path("<slug:slug>/manage/stages/", views.set_stages, name="events-stages"),
    path(
        "<slug:slug>/manage/entrants/<int:entrant_id>/stages/<int:number>/judge/",
        views.judge_stage,
        name="events-judge-stage",
    ),
    path(
        "<slug:slug>/manage/entrants/<int:entrant_id>/stages/<int:number>/walk-in-list/",
        views.walk_in_stage_list,
        name="events-walk-in-stage-list",
    ),
    path(
        "<slug:slug>/entrants/<int:entrant_id>/stages/<int:number>/list/",
        views.sealed_stage_list,
        name="events-stage-list",
    ),
    path("<slug:slug>/manage/edit/", views.edit, name="events-edit"),
    path("<slug:slug>/manage/entrants.csv", views.entrants_csv, name="events-csv"),
    path("<slug:slug>/manage/results.csv", views.results_csv, name="events-results-csv"),
    path("<slug:slug>/manage/standings.csv", views.standings_csv, name="events-standings-csv"),
    path("<slug:slug>/manage/lists.pdf", views.lists_pdf, name="events-lists-pdf"),
    path("<slug:slug>/manage/pdf/<uuid:job>/", views.lists_pdf_job, name="events-pdf-job"),
    path("<slug:slug>/manage/pdf/<uuid:job>/file.pdf", views.lists_pdf_file, name="events-pdf-file"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/judge/", views.judge, name="events-judge"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/drop/", views.drop, name="events-drop"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/reinstate/", views.reinstate, name="events-reinstate"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/check-in/", views.check_in, name="events-check-in"),
    path("<slug:slug>/manage/walk-ins/", views.add_walk_in, name="events-walk-in"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/walk-in-list/", views.walk_in_list, name="events-walk-in-list"),
    path("<slug:slug>/manage/entrants/<int:entrant_id>/remove/", views.remove_walk_in, name="events-remove-walk-in"),
    path(
        "<slug:slug>/manage/entrants/<int:entrant_id>/claim-link/",
        views.renew_claim_link,
        name="events-claim-link",
    ),
    path("<slug:slug>/claim/<str:token>/", views.claim, name="events-claim"),
    path("<slug:slug>/manage/adjustments/", views.add_adjustment, name="events-adjust"),
    path(
        "<slug:slug>/manage/adjustments/<int:adjustment_id>/remove/",
        views.remove_adjustment,
        name="events-adjust-remove",
    ),
    path("<slug:slug>/manage/reveal/", views.toggle, {"flag": "reveal"}, name="events-reveal"),
    path("<slug:slug>/manage/publish/", views.toggle, {"flag": "publish"}, name="events-publish"),
    path("<slug:slug>/manage/hide-standings/", views.toggle, {"flag": "hide-standings"}, name="events-hide-standings"),
    path("<slug:slug>/manage/pair/", views.pair, name="events-pair"),
    path("<slug:slug>/manage/rounds/<int:number>/swap/", views.swap, name="events-swap"),
    path("<slug:slug>/manage/rounds/<int:number>/revert/", views.revert_round, name="events-revert-round"),
    path("<slug:slug>/manage/rounds/<int:number>/pair-again/", views.pair_again, name="events-pair-again"),
    path("<slug:slug>/manage/missions/", views.set_missions, name="events-missions"),
    path("<slug:slug>/manage/rounds/<int:number>/mission/", views.round_mission, name="events-round-mission"),
    path("<slug:slug>/manage/rounds/<int:number>/timer/", views.round_timer, name="events-timer"),
    path("<slug:slug>/manage/rounds/<int:number>/publish/", views.publish_round, name="events-publish-round"),
    path("<slug:slug>/manage/pairings/<int:pairing_id>/override/", views.override_result, name="events-override"),
]
