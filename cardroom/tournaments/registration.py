"""Registering for a sit-and-go, and unregistering before it starts.

Each is one transaction that locks the tournament's row, so registrations for it happen one
at a time: the entry, its money (the buy-in into the prize pool, the fee to the house:
cardroom/tournaments/money.py) and, when the last seat fills, the start
(cardroom/tournaments/play.py) are written together or not at all. A refusal is a
:class:`RegistrationRefused` whose message is a sentence in words, and changes nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.ledger import LedgerError, ledger_post
from accounts.models import User
from accounts.selectors import bankroll_balance
from accounts.services import bot_fund, user_create
from cardroom.models import Entry, EntryStatus, Tournament, TournamentStatus
from cardroom.responsible.checks import entry_refusal, exclusion_refusal, limits_row
from cardroom.tournaments.money import pay_entry, refund_entry
from cardroom.tournaments.play import start
from games.words import Money, words

__all__ = ["RegistrationRefused", "fill_with_bots", "register", "unregister"]

#: The entries that hold a seat of the tournament.
HOLDING = (EntryStatus.REGISTERED, EntryStatus.PLAYING)


class RegistrationRefused(ValueError):
    """A registration (or unregistration) refused; the message says why, in words."""


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise RegistrationRefused(words("there is no tournament {number}", number=tournament_id))
    return tournament


def _enter(tournament: Tournament, user: User, now: datetime) -> Entry:
    """The checks every entrant passes (person or house bot), the entry and its money; the
    start when it fills the last seat. The tournament's row is locked."""
    if tournament.status != TournamentStatus.REGISTERING:
        raise RegistrationRefused(words("this tournament is not taking registrations any more"))
    entries = Entry.objects.filter(tournament=tournament, status__in=HOLDING)
    if entries.filter(user=user).exists():
        raise RegistrationRefused(words("you are already registered for this tournament"))
    taken = entries.count()
    if taken >= tournament.seats:
        raise RegistrationRefused(words("this tournament is full"))
    cost = tournament.buy_in + (0 if user.is_bot else tournament.fee)
    refusal = entry_refusal(user=user, amount=cost, now=now)
    if refusal:
        raise RegistrationRefused(refusal)
    balance = bankroll_balance(user=user)
    if balance < cost:
        raise RegistrationRefused(
            words(
                "the buy-in and fee are {cost} and your bankroll holds {balance}",
                cost=Money(cost),
                balance=Money(balance),
            )
        )
    entry = Entry.objects.create(tournament=tournament, user=user)
    try:
        pay_entry(tournament, entry)
    except LedgerError as error:  # a race with the cashier: the bankroll changed meanwhile
        raise RegistrationRefused(str(error)) from error
    if taken + 1 == tournament.seats and not _drop_excluded(tournament, now):
        start(tournament=tournament, now=now)
    return entry


def _drop_excluded(tournament: Tournament, now: datetime) -> list[Entry]:
    """Before the start: the entrants who have been excluded (self-exclusion, time-out)
    since they registered are taken off with their buy-in and fee back, rather than seated
    to have their chips anted away while they may not play; the seats they free are open
    again. Returns them (none: the tournament may start)."""
    dropped = []
    entries = Entry.objects.filter(
        tournament=tournament, status=EntryStatus.REGISTERED, user__is_bot=False
    ).select_related("user")
    for entry in entries:
        if exclusion_refusal(limits_row(entry.user), now) is None:
            continue
        ledger_post(refund_entry(tournament, entry))
        entry.status = EntryStatus.UNREGISTERED
        entry.save(update_fields=["status"])
        dropped.append(entry)
    return dropped


def register(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Register ``user``: their buy-in and fee move from their bankroll (``tourney_buy_in``,
    ``tourney_fee``), and the tournament starts when this fills its last seat.

    Refused (RegistrationRefused, in words; nothing changes): a bot (the house seats its
    bots), a tournament no longer registering, full, or that the player is already in; a
    player excluded (self-exclusion, time-out) or whose buy-in or loss limit the entry would
    pass (an entry is money put on a table: cardroom/responsible/checks.py); a bankroll short
    of the buy-in and fee."""
    now = now or timezone.now()
    if user.is_bot:
        raise RegistrationRefused(words("bots do not register: the house seats its own bots"))
    with transaction.atomic():
        return _enter(_locked(tournament_id), user, now)


def unregister(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Take ``user``'s entry back before the tournament starts: the buy-in and fee go back to
    their bankroll (``tourney_refund``) and the entry is UNREGISTERED. Refused, in words, once
    it has started (or ended), or for a player not registered."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = Entry.objects.filter(
            tournament=tournament, user=user, status=EntryStatus.REGISTERED
        ).first()
        if tournament.status != TournamentStatus.REGISTERING:
            raise RegistrationRefused(
                words("this tournament has started: entries can no longer be taken back")
            )
        if entry is None:
            raise RegistrationRefused(words("you are not registered for this tournament"))
        ledger_post(refund_entry(tournament, entry))
        entry.status = EntryStatus.UNREGISTERED
        entry.save(update_fields=["status"])
        return entry


def _house_bot(index: int) -> User:
    """The house's ``index``-th tournament bot (created the first time: a user with
    ``is_bot``, as the tables' house bots are)."""
    # Not the tables' house bots (``house-bot-N``, cardroom/clock/bots.py): one of those may
    # be seated at a cash table while a tournament would seat it too.
    name = f"sng-bot-{index}"
    user = User.objects.filter(username=name).first()
    return user or user_create(username=name, is_bot=True)


def fill_with_bots(*, tournament_id: int, count: int, now: datetime | None = None) -> list[Entry]:
    """Register up to ``count`` house bots, within the seats the tournament lets bots fill
    (``bots_allowed``, less the bots already in) and the seats still free; returns their
    entries. Each bot's bankroll is funded from the cashier for its entry, which it then pays
    as any player does. A bot already in another tournament is passed over."""
    now = now or timezone.now()
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RegistrationRefused(
            words("a count of bots is a whole number, not {value}", value=repr(count))
        )
    entries: list[Entry] = []
    with transaction.atomic():
        tournament = _locked(tournament_id)
        holding = Entry.objects.filter(tournament=tournament, status__in=HOLDING)
        room = min(
            count,
            tournament.bots_allowed - holding.filter(user__is_bot=True).count(),
            tournament.seats - holding.count(),
        )
        busy = set(
            Entry.objects.filter(
                user__is_bot=True,
                status__in=HOLDING,
                tournament__status__in=(TournamentStatus.REGISTERING, TournamentStatus.RUNNING),
            ).values_list("user_id", flat=True)
        )
        index = 1
        while len(entries) < room:
            bot = _house_bot(index)
            index += 1
            if bot.pk in busy:
                continue
            # A house bot pays no fee: the buy-in is all it needs.
            bot_fund(
                bot=bot,
                amount=tournament.buy_in,
                idempotency_key=f"tourney:n{tournament.pk}:bot-fund:u{bot.pk}",
            )
            entries.append(_enter(tournament, bot, now))
            if tournament.status != TournamentStatus.REGISTERING:
                break  # that bot filled the last seat: it has started
    return entries
