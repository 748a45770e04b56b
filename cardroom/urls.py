"""URLs of the cardroom."""

from django.contrib import admin
from django.urls import include, path

from cardroom import views
from cardroom.audit import export as audit_export
from cardroom.audit import views as audit_views
from cardroom.history import past_hands
from cardroom.observability import views as observability_views
from cardroom.operators import chat_views
from cardroom.operators import views as operator_views
from cardroom.players import views as player_views
from cardroom.presentation import howto, my_tables_views
from cardroom.responsible import views as responsible_views
from cardroom.stats import views as stats_views
from cardroom.tournaments import console as tournament_console
from cardroom.tournaments import views as tournament_views
from cardroom.waitlist import views as waitlist_views

urlpatterns = [
    path("", views.home, name="home"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's).
    path("favicon.ico", views.favicon),
    # Monitoring (docs/monitoring.md): Prometheus' scrape, the liveness and readiness probes.
    path("metrics", observability_views.metrics, name="metrics"),
    path("healthz", observability_views.healthz, name="healthz"),
    path("readyz", observability_views.readyz, name="readyz"),
    path("lobby/", views.lobby, name="lobby"),
    # Sit-and-go tournaments and their leaderboards (cardroom/tournaments/, docs/tournaments.md).
    path("tournaments/", tournament_views.tournaments_page, name="tournaments"),
    path("tournaments/rows/", tournament_views.tournament_rows, name="tournament-rows"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>.json",
        tournament_views.tournament_json,
        name="tournament-json",
    ),
    path(
        "tournaments/<int:tournament_id>/panel/",
        tournament_views.tournament_panel,
        name="tournament-panel",
    ),
    path(
        "tournaments/<int:tournament_id>/register/",
        tournament_views.tournament_register,
        name="tournament-register",
    ),
    path(
        "tournaments/<int:tournament_id>/unregister/",
        tournament_views.tournament_unregister,
        name="tournament-unregister",
    ),
    path("leaderboards/", tournament_views.leaderboards_page, name="leaderboards"),
    path("leaderboards.json", tournament_views.leaderboards_json, name="leaderboards-json"),
    # The header's language switcher posts to Django's set_language (a cookie remembers it).
    path("i18n/", include("django.conf.urls.i18n")),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    # A player at several tables (cardroom/presentation/my_tables_views.py).
    path("tables/tiled/", my_tables_views.tiled_tables, name="tables-tiled"),
    path("my-tables.json", my_tables_views.my_tables_json, name="my-tables"),
    path("tables/<int:table_id>/hands/<int:number>/", views.hand_page, name="hand"),
    # The seat wait list of full tables (cardroom/waitlist/).
    path("tables/<int:table_id>/wait/", waitlist_views.wait_list_panel, name="wait-list"),
    path(
        "tables/<int:table_id>/wait/join/",
        waitlist_views.wait_list_join_view,
        name="wait-list-join",
    ),
    path(
        "tables/<int:table_id>/wait/leave/",
        waitlist_views.wait_list_leave_view,
        name="wait-list-leave",
    ),
    # Past hands (cardroom/history/past_hands.py): the replayer, a player's hands and their
    # downloads, and the auditors' export (under the admin, before its own URLs).
    path(
        "tables/<int:table_id>/hands/<int:number>/replay/",
        past_hands.hand_replay_page,
        name="hand-replay",
    ),
    path("tables/hands/mine/", past_hands.my_hands, name="my-hands"),
    path("tables/hands/mine/download/", past_hands.my_hands_download, name="my-hands-download"),
    path("admin/hands/export/", audit_export.hands_export, name="audit-hands-export"),
    path("how-to-play/", howto.howto_index, name="howto"),
    path("how-to-play/<slug:slug>/", howto.howto_page, name="howto-page"),
    # Responsible gaming (cardroom/responsible/): before accounts' own URLs, under its prefix.
    path("accounts/limits/", responsible_views.limits_page, name="limits"),
    path("accounts/limits/exclude/", responsible_views.exclusion_request, name="limits-exclude"),
    path("accounts/limits/leave/", responsible_views.leave_tables, name="leave-tables"),
    path("accounts/limits/reality/", responsible_views.reality_status, name="reality"),
    path("accounts/limits/reality/keep/", responsible_views.reality_keep, name="reality-keep"),
    # A player's statistics (cardroom/stats/): before accounts' own URLs, under its prefix.
    path("accounts/stats/", stats_views.player_stats_page, name="stats"),
    path("accounts/", include("accounts.urls")),
    path("operators/", operator_views.operators_home, name="operators"),
    path("operators/rows/", operator_views.operators_rows, name="operators-rows"),
    path("operators/log/", operator_views.operator_log_page, name="operators-log"),
    path("operators/chat/", chat_views.chat_log_page, name="operators-chat"),
    path("operators/fair-play/", include("cardroom.fairplay.urls")),
    path(
        "operators/tournaments/",
        tournament_console.tournaments_console,
        name="operators-tournaments",
    ),
    path(
        "operators/tournaments/new/",
        tournament_console.tournament_new,
        name="operators-tournament-new",
    ),
    path(
        "operators/tournaments/<int:tournament_id>/cancel/",
        tournament_console.tournament_cancel,
        name="operators-tournament-cancel",
    ),
    path(
        "operators/tournaments/<int:tournament_id>/bots/",
        tournament_console.tournament_bots,
        name="operators-tournament-bots",
    ),
    path("operators/chat/<int:user_id>/mute/", chat_views.chat_mute, name="operators-chat-mute"),
    path(
        "operators/chat/<int:user_id>/unmute/",
        chat_views.chat_unmute,
        name="operators-chat-unmute",
    ),
    path(
        "operators/responsible/",
        responsible_views.responsible_overview,
        name="operators-responsible",
    ),
    path(
        "operators/responsible/exclusions/<int:exclusion_id>/lift/",
        responsible_views.lift_exclusion,
        name="operators-exclusion-lift",
    ),
    path("operators/players/", player_views.players_page, name="operators-players"),
    path("operators/players/<int:user_id>/", player_views.player_page, name="operators-player"),
    path(
        "operators/players/<int:user_id>/notes/",
        player_views.player_note,
        name="operators-player-note",
    ),
    path(
        "operators/players/<int:user_id>/exclude/",
        player_views.player_exclude,
        name="operators-player-exclude",
    ),
    path(
        "operators/players/<int:user_id>/exclusions/<int:exclusion_id>/lift/",
        player_views.player_lift,
        name="operators-player-lift",
    ),
    path("operators/tables/new/", operator_views.table_new, name="operators-table-new"),
    path("operators/tables/<int:table_id>/", operator_views.table_console, name="operators-table"),
    path(
        "operators/tables/<int:table_id>/stats/",
        stats_views.table_stats_page,
        name="operators-table-stats",
    ),
    path(
        "operators/tables/<int:table_id>/timers/",
        operator_views.table_timers,
        name="operators-timers",
    ),
    path(
        "operators/tables/<int:table_id>/seats/", operator_views.table_seat, name="operators-seat"
    ),
    path("operators/tables/<int:table_id>/bots/", operator_views.table_bots, name="operators-bots"),
    path("operators/tables/<int:table_id>/play/", operator_views.table_play, name="operators-play"),
    # The audit pages live under the admin (staff login, the admin's look) before its own URLs.
    path("admin/rake/", audit_views.rake_report_page, name="audit-rake"),
    path("admin/rake/rake.csv", audit_views.rake_csv, name="audit-rake-csv"),
    path("admin/rake/hands/", audit_views.rake_hands, name="audit-rake-hands"),
    path("admin/", admin.site.urls),
]
