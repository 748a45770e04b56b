from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        from accounts.audit import plug_check
        from cardroom.audit import roles
        from cardroom.observability import collectors
        from cardroom.observability import signals as observability_signals
        from cardroom.realtime.broadcast import send_version
        from cardroom.responsible import checks
        from cardroom.tables import announce, chips, policies
        from cardroom.tournaments import ledger_check, play, selectors
        from cardroom.waitlist import services as wait_list

        roles.connect()
        # The metrics (docs/monitoring.md): logins counted from their signals, and the tables
        # and the ledger audit read at each scrape.
        observability_signals.connect()
        collectors.register()
        checks.connect()
        # Every process sends the versions it commits (servers, runclock, commands, tests).
        announce.plug(send_version)
        # The rules the runtime applies for the contexts above it (cardroom/tables/policies.py).
        policies.plug_limits(
            policies.Limits(
                guard_stake=checks.guard_stake,
                seats_to_release=checks.seats_to_release,
                stand_up_at_rest=checks.stand_up_at_rest,
            )
        )
        policies.plug_wait_list(wait_list.sit_refusal)
        # A tournament's table settles its hands by the tournament's rules (places, prizes),
        # and the ledger audit checks its prize accounts.
        chips.plug_at_rest(play.at_rest)
        # Its sockets' frames carry the tournament's state, as its JSON gives it.
        chips.plug_tournament_of(selectors.table_tournament)
        plug_check("tournament prize accounts", ledger_check.prize_accounts_check)
