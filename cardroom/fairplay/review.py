"""An operator's review of a signal: their note kept on it and logged, in one transaction."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from cardroom.models import FairPlaySignal, OperatorActionKind
from cardroom.models.notes import MAX_NOTE_CHARS
from cardroom.operators import operator_log
from games.words import words

__all__ = ["signal_review"]


def signal_review(*, actor: User, signal: FairPlaySignal, note: str) -> FairPlaySignal:
    """Mark ``signal`` reviewed by ``actor`` with ``note`` (what they found), and log it.

    Reviewing again replaces the note and is logged again. ValueError: an empty or too long
    note.
    """
    note = note.strip()
    if not note:
        raise ValueError(words("a review needs a note saying what was found"))
    if len(note) > MAX_NOTE_CHARS:
        raise ValueError(words("a note holds at most {count} characters", count=MAX_NOTE_CHARS))
    with transaction.atomic():
        signal.reviewed_by, signal.reviewed_at, signal.note = actor, timezone.now(), note
        signal.save(update_fields=["reviewed_by", "reviewed_at", "note"])
        operator_log(
            actor=actor,
            kind=OperatorActionKind.FAIR_PLAY_REVIEW,
            reason=note,
            details={
                "signal": signal.pk,
                "signal_kind": signal.kind,
                "day": signal.day.isoformat(),
                "players": [signal.player_a.username, signal.player_b.username],
            },
        )
    return signal
