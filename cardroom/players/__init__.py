"""The console's player look-up: find any player, and the staff notes about them.

Operators and auditors find a player by name or e-mail; operators add notes, each logged in the
operator log in the same transaction as the note. The player page itself is in
:mod:`cardroom.players.views`; exclusions go through cardroom/responsible/services.py, the same
service ``manage.py exclude`` uses, so the same checks and logging apply.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from accounts.models import Account, AccountKind, User
from cardroom.models import OperatorActionKind, PlayerNote, Seat
from cardroom.models.notes import MAX_NOTE_CHARS
from cardroom.operators import operator_log
from games.words import words

__all__ = ["player_note_add", "player_search"]


def player_search(query: str) -> QuerySet[User]:
    """Players whose username, display name or e-mail holds ``query`` (any case), by
    username; everyone when it is blank. Each row carries ``bankroll`` (cents, None before the
    first grant) and ``seated`` (sits at a table now), so a page of results is one query."""
    users = User.objects.all()
    query = query.strip()
    if query:
        users = users.filter(
            Q(username__icontains=query)
            | Q(display_name__icontains=query)
            | Q(email__icontains=query)
        )
    bankroll = Account.objects.filter(kind=AccountKind.BANKROLL, user=OuterRef("pk"))
    return users.annotate(
        bankroll=Subquery(bankroll.values("balance")[:1]),
        seated=Exists(Seat.objects.filter(user=OuterRef("pk"), left__isnull=True)),
    ).order_by("username", "id")


def player_note_add(*, actor: User, user: User, text: str) -> PlayerNote:
    """A staff note about ``user``, written and logged together (the note is the log's why)."""
    text = text.strip()
    if not text:
        raise ValueError(words("a note needs some text"))
    if len(text) > MAX_NOTE_CHARS:
        raise ValueError(words("a note holds at most {count} characters", count=MAX_NOTE_CHARS))
    with transaction.atomic():
        note = PlayerNote.objects.create(user=user, by=actor, text=text)
        operator_log(
            actor=actor,
            kind=OperatorActionKind.PLAYER_NOTE,
            reason=text,
            details={"player": user.username, "note": note.pk},
        )
    return note
