"""Cancelling a sit-and-go: every entry refunded, the table closed (docs/tournaments.md).

The refund policy: a cancelled tournament gives every entry that paid (registered, playing,
or already out of it) its whole buy-in and its fee back, whatever happened at the table: the
prize pool goes back to those who paid into it and the house keeps no fee of a tournament
that did not finish. No prize has been paid before the finish, so the prize account holds
exactly the buy-ins and the refunds leave it at zero. A hand in play is voided first (chips
only: the table's chips are not money), then the table closes at once.
"""

from __future__ import annotations

import contextlib

from django.db import transaction
from django.utils import timezone

from accounts.ledger import ledger_post
from accounts.models import User
from cardroom.models import (
    Entry,
    EntryStatus,
    OperatorAction,
    OperatorActionKind,
    Tournament,
    TournamentStatus,
)
from cardroom.tables.control import hand_void, table_close
from cardroom.tables.runtime import locked_table
from cardroom.tournaments.money import entry_fee, refund_entry
from games.engine import IllegalAction
from games.words import words

__all__ = ["CancelRefused", "cancel_tournament"]

#: The entries a cancel refunds: every one that paid and was not refunded yet.
PAID = (EntryStatus.REGISTERED, EntryStatus.PLAYING, EntryStatus.ELIMINATED)


class CancelRefused(ValueError):
    """A cancel refused; the message says why, in words. Nothing changed."""


def cancel_tournament(*, tournament_id: int, reason: str, actor: User | None = None) -> Tournament:
    """Cancel a tournament that has not finished: refund every entry's buy-in and fee
    (``tourney_refund``; entries REFUNDED), void the hand in play and close the table, and
    log the operator's action with the reason (``actor``). Refused (CancelRefused, in words)
    without a reason, or once the tournament is finished or cancelled."""
    reason = (reason or "").strip()
    if not reason:
        raise CancelRefused(words("say why the tournament is cancelled"))
    # A tournament that starts between the read of its table and its row's lock is read
    # again: the table's lock must come before the tournament's, as the runtime takes them.
    for _ in range(3):
        with contextlib.suppress(_StartedMeanwhile):
            return _cancel(tournament_id, reason, actor)
    raise CancelRefused(words("the tournament kept changing; try the cancel again"))


class _StartedMeanwhile(Exception):
    """The tournament got its table after it was read: roll back and read it again."""


def _cancel(tournament_id: int, reason: str, actor: User | None) -> Tournament:
    with transaction.atomic():
        found = Tournament.objects.filter(pk=tournament_id).first()
        if found is None:
            raise CancelRefused(words("there is no tournament {number}", number=tournament_id))
        if found.table_id is not None:
            locked_table(found.table_id)  # the table's lock first, as the runtime takes them
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.table_id != found.table_id:
            raise _StartedMeanwhile
        if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise CancelRefused(
                words("this tournament is over ({status}): nothing to cancel",
                      status=tournament.get_status_display())
            )  # fmt: skip
        entries = list(
            Entry.objects.filter(tournament=tournament, status__in=PAID).select_related("user")
        )
        # One posting for all: every account it touches is locked once, in the ledger's order,
        # so a registration paying into the same accounts cannot deadlock with it.
        ledger_post([posting for entry in entries for posting in refund_entry(tournament, entry)])
        for entry in entries:
            entry.status = EntryStatus.REFUNDED
            entry.save(update_fields=["status"])
        tournament.status = TournamentStatus.CANCELLED
        tournament.cancel_reason = reason[:200]
        tournament.ended = timezone.now()
        tournament.level_deadline = None
        tournament.save(update_fields=["status", "cancel_reason", "ended", "level_deadline"])
        if tournament.table_id is not None:
            # No hand in play: the table is between hands already.
            with contextlib.suppress(IllegalAction):
                hand_void(table_id=tournament.table_id, reason=reason)
            table_close(table_id=tournament.table_id, tournament_over=True)
        if actor is not None:
            OperatorAction.objects.create(
                actor=actor,
                kind=OperatorActionKind.TOURNAMENT_CANCEL,
                table_id=tournament.table_id,
                details={
                    "tournament": tournament.pk,
                    "refunded": len(entries),
                    "cents": sum(
                        tournament.buy_in + entry_fee(tournament, entry) for entry in entries
                    ),
                },
                reason=reason,
            )
    return tournament
