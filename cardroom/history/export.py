"""Hand histories for export: JSON lines in a documented schema, or text in the style of the big
rooms' hand histories (docs/hand-history.md).

A player's export is their own hands as they may read them: each hand is built from their
``hand_history`` (cardroom/history/history.py) and its replay (cardroom/history/replayer.py), so it
holds no card the hand page would not show them. An auditor's export holds everything: every
event, private ones included, the whole deck with its salts, the openings checked against the
commitment, and the hand's ledger transfers.

Everything streams: hands are read with ``.iterator(chunk_size=...)``, and each chunk's events
(for auditors) and transfers are read in one query per chunk, so a month of a busy room never
sits in memory. Starting stacks come from a running :class:`LedgerBook` per table, which reads
each transfer of the period once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext, pgettext_lazy

from accounts.models import Transfer, User
from accounts.money import counting_chips, format_cents
from cardroom.history.deals import player_deals
from cardroom.history.history import hand_history, seat_names
from cardroom.history.replay_events import place_words
from cardroom.history.replayer import (
    ChipsBook,
    LedgerBook,
    first_transfer,
    hand_replay,
    hand_start,
)
from cardroom.history.verification import hand_openings
from cardroom.models import Game, Hand, HandEvent, Seat, Table
from cardroom.presentation.event_words import event_words
from cardroom.presentation.names import preset_name
from cardroom.storage.payments import movement_of, payments_json, seat_finder
from games.events import event_cards
from games.words import words

__all__ = [
    "CHUNK_SIZE",
    "SCHEMA",
    "Period",
    "hand_records",
    "hand_text",
    "hands_between",
    "jsonl_lines",
    "language_for",
    "player_hands",
    "text_hands",
    "tournament_of",
]

#: The schema every exported hand names; a change to the fields changes the number.
SCHEMA = "cardroom.hand/2"
#: Hands read from the database at a time (with their events and transfers).
CHUNK_SIZE = 200

#: How the text format heads each part of a hand, by the replayer's sections.
HEADINGS: dict[str, dict[str, Promise]] = {
    "antes": {
        "": pgettext_lazy("hand history heading", "ANTES"),
        "three_card_poker": pgettext_lazy("hand history heading", "BETS"),
        "chinese_poker": pgettext_lazy("hand history heading", "HAND FEES"),
    },
    "deal": {"": pgettext_lazy("hand history heading", "DEAL")},
    "decisions": {
        "": pgettext_lazy("hand history heading", "DECLARE"),
        "three_card_poker": pgettext_lazy("hand history heading", "PLAY OR FOLD"),
        "chinese_poker": pgettext_lazy("hand history heading", "SETTING THE HANDS"),
    },
    "showdown": {"": pgettext_lazy("hand history heading", "SHOWDOWN")},
    "payments": {"": pgettext_lazy("hand history heading", "PAYMENTS")},
}

Item = TypeVar("Item")


def _in_language(language: str | None, items: Iterator[Item]) -> Iterator[Item]:
    """Each of ``items`` made under ``language``: a download streams after its view returned
    (under ASGI, in another thread), so the words of each hand are said in the language of the
    request that asked for them."""
    while True:
        with translation.override(language):
            try:
                item = next(items)
            except StopIteration:
                return
        yield item


@dataclass(frozen=True, slots=True)
class Period:
    """From ``start`` (included) to ``end`` (excluded), in UTC."""

    start: datetime
    end: datetime

    @classmethod
    def parse(cls, start: str, end: str) -> Period:
        """Dates (YYYY-MM-DD) or ISO datetimes, in UTC unless they say otherwise; an ``end``
        given as a date includes that whole day. ValueError says what is wrong, in words.

        >>> Period.parse("2026-12-01", "2026-12-01").end.isoformat()
        '2026-12-02T00:00:00+00:00'
        >>> Period.parse("2026-12-01T10:00", "2026-12-01T12:30Z").end.isoformat()
        '2026-12-01T12:30:00+00:00'
        """
        first, last = _moment(start, end=False), _moment(end, end=True)
        if last <= first:
            raise ValueError(
                words("the period ends ({end}) before it starts ({start})", end=end, start=start)
            )
        return cls(first, last)


def _moment(text: str, *, end: bool) -> datetime:
    text = text.strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            moment = datetime.combine(day + timedelta(days=1 if end else 0), time(), UTC)
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:
        raise ValueError(
            # Translators: {text} is what was typed, in quotes.
            words(
                "{text} is not a date: write YYYY-MM-DD (such as 2026-12-01) or an ISO date and "
                "time (such as 2026-12-01T18:30)",
                text=repr(text),
            )
        ) from error
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def hands_between(period: Period, *, table_id: int | None = None) -> QuerySet[Hand]:
    """The ended hands that began within ``period`` (at one table, if given), table by table:
    what an auditor exports. A hand still in play holds cards nobody has seen: it is left out."""
    hands = Hand.objects.filter(
        ended__isnull=False, started__gte=period.start, started__lt=period.end
    )
    if table_id is not None:
        hands = hands.filter(table_id=table_id)
    return hands.order_by("table_id", "number")


def player_hands(user_id: int, period: Period | None = None) -> QuerySet[Hand]:
    """The ended hands the user played (within ``period``, if given), oldest first: those they
    were dealt into (cardroom/history/deals.py), the hands the statistics count. A hand they
    sat out, or sat down during, is not theirs; nor is a voided one, where everything went
    back."""
    played = player_deals(user_id=user_id, bounds={}).filter(hand=OuterRef("pk"))
    hands = Hand.objects.filter(Exists(played), ended__isnull=False)
    if period is not None:
        hands = hands.filter(started__gte=period.start, started__lt=period.end)
    return hands.order_by("started", "id")


def hand_records(
    hands: QuerySet[Hand],
    *,
    viewer: int | None = None,
    audit: bool = False,
    chunk_size: int = CHUNK_SIZE,
    language: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Each hand as a JSON-ready record (docs/hand-history.md): as the user ``viewer`` may read
    it, or, with ``audit``, everything. Reads ``chunk_size`` hands at a time. Its words are in
    ``language``, by default the one active when this is called (the request's); the JSON Lines
    download asks for English, since programs read it (``language_for``)."""
    records = _records(hands, viewer=viewer, audit=audit, chunk_size=chunk_size)
    return _in_language(language or translation.get_language(), records)


def language_for(kind: str) -> str | None:
    """The language of a download's words: JSON Lines is read by programs, so its words and
    amounts are English in every language (its schema is one); the text is for people."""
    return "en" if kind == "jsonl" else None


def _records(
    hands: QuerySet[Hand], *, viewer: int | None, audit: bool, chunk_size: int
) -> Iterator[dict[str, Any]]:
    # The table's tournament too (a sit-and-go's hands name it): joined, not one query a hand.
    hands = hands.select_related("table", "table__tournament", "round")
    if audit:
        hands = hands.prefetch_related(
            Prefetch("events", queryset=HandEvent.objects.order_by("seq"))
        )
    viewer_name = _username(viewer)
    books: dict[int, LedgerBook] = {}
    chips: dict[int, ChipsBook] = {}  # a tournament's table: its chips are in its events
    for chunk in _chunks(hands.iterator(chunk_size=chunk_size), chunk_size):
        transfers = _transfers_of(chunk)
        seats = _seats_of(chunk)
        for hand in chunk:
            moves = transfers.get(hand.pk, [])
            if hand.table.plays_for_chips:
                book = chips.setdefault(hand.table_id, ChipsBook(hand.table_id))
                start, _ = hand_start(hand, chips=book)
            else:
                ledger = books.setdefault(hand.table_id, LedgerBook(hand.table_id))
                first = moves[0].pk if moves else first_transfer(hand)
                start, _ = hand_start(hand, book=ledger, first=first)
            payments = payments_json(map(movement_of, moves), seat_finder(hand, seats[hand.pk]))
            # A sit-and-go's hand says its amounts as chips (never around the yield: the
            # generator's caller would count chips too).
            names = seat_names(hand=hand)
            with counting_chips(hand.table.plays_for_chips):
                history = (
                    _audit_history(hand, names)
                    if audit
                    else hand_history(hand=hand, user_id=viewer, names=names)
                )
                replay = hand_replay(
                    hand=hand,
                    user_id=viewer,
                    history=history,
                    start=start,
                    payments=payments,
                    names=names,
                )
                record = _record(hand, history, replay.steps, viewer=viewer_name, audit=audit)
            if audit:
                record["deck"] = {
                    "cards": list((hand.deck or {}).get("deck", [])),
                    "salts": list((hand.deck or {}).get("salts", [])),
                }
                record["transfers"] = [_transfer_json(transfer) for transfer in moves]
            yield record


def _chunks(rows: Iterator[Hand], size: int) -> Iterator[list[Hand]]:
    chunk: list[Hand] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _transfers_of(chunk: list[Hand]) -> dict[int, list[Transfer]]:
    """The ledger transfers of a chunk's hands, by hand, in order: one query."""
    found: defaultdict[int, list[Transfer]] = defaultdict(list)
    rows = Transfer.objects.filter(hand_id__in=[hand.pk for hand in chunk])
    related = rows.select_related("source__user", "target__user")
    for transfer in related.order_by("id"):
        assert transfer.hand_id is not None
        found[transfer.hand_id].append(transfer)
    return found


def _seats_of(chunk: list[Hand]) -> dict[int, list[Seat]]:
    """The seats held at the chunk's tables while each of its hands was played, by hand: one
    query (who sat where names the places of a hand's payments)."""
    first = min(hand.started for hand in chunk)
    rows = Seat.objects.filter(table_id__in={hand.table_id for hand in chunk}).filter(
        Q(left__isnull=True) | Q(left__gte=first)
    )
    by_table: defaultdict[int, list[Seat]] = defaultdict(list)
    for seat in rows:
        by_table[seat.table_id].append(seat)
    return {hand.pk: by_table[hand.table_id] for hand in chunk}


def _transfer_json(transfer: Transfer) -> dict[str, Any]:
    return {
        "id": transfer.pk,
        "from": transfer.source.code,
        "to": transfer.target.code,
        "amount": transfer.amount,
        "kind": transfer.kind,
        "at": _utc(transfer.created),
    }


def _username(user_id: int | None) -> str | None:
    if user_id is None:
        return None
    return User.objects.filter(pk=user_id).values_list("username", flat=True).first()


def _audit_history(hand: Hand, names: dict[int, str]) -> dict[str, Any]:
    """The hand as an auditor reads it: every event, private ones with their readers, and the
    opening of every card an event names, each checked against the commitment (``names``:
    the hand's ``seat_names``)."""
    events: list[dict[str, Any]] = []
    public: set[str] = set()
    cards: set[str] = set()
    for event in hand.events.all():  # prefetched, in order, with the chunk
        private = event.private_to is not None or event.audience is not None
        named = event_cards(event.data)
        cards |= named
        if not private:
            public |= named
        events.append(
            {
                "seq": event.seq,
                "type": event.type,
                "data": event.data,
                "words": event_words(event.data, names),
                "private": private,
                "readers": event.readers,
            }
        )
    openings = [
        {**check.to_json(), "public": check.card in public}
        for check in hand_openings(hand, cards).checks
    ]
    return {
        "hand": hand.number,
        "table": hand.table_id,
        "root": hand.commitment_root,
        "leaves": hand.commitment.get("leaves", []),
        "ended": hand.ended is not None,
        "result": hand.result,
        "events": events,
        "openings": openings,
    }


def tournament_of(table: Table) -> dict[str, Any] | None:
    """The sit-and-go ``table`` belongs to, as the schema names it (``id``, ``name``), or None
    for a cash table. Reads the tournament joined to the table when it was (no query then)."""
    try:
        tournament = table.tournament
    except Table.tournament.RelatedObjectDoesNotExist:
        return None
    return {"id": tournament.pk, "name": tournament.name}


def game_title(table: Table) -> str:
    """The game as a hand history heads it: "Survivor Guts", "Classic Guts, Kitty"."""
    if table.game == Game.GUTS:
        # "Monte Carlo Guts", "Survivor Guts": the games' own names, in every language.
        return f"{preset_name(table.preset)} Guts"
    if table.game == Game.CLASSIC_GUTS:
        # Translators: Classic Guts and the table's preset, "Classic Guts, Kitty".
        return gettext("Classic Guts, %(preset)s") % {"preset": preset_name(table.preset)}
    return str(Game(table.game).label)


def stakes_words(table: Table) -> str:
    """ "$1.00 ante", "$1.00 a unit", "$1.00 minimum Ante"."""
    amount = {"amount": format_cents(table.stakes)}
    if table.game == Game.CHINESE_POKER:
        # Translators: Chinese Poker's stakes, "$1.00 a unit".
        return gettext("%(amount)s a unit") % amount
    if table.game == Game.THREE_CARD_POKER:
        # Translators: Three Card Poker's stakes, "$1.00 minimum Ante".
        return gettext("%(amount)s minimum Ante") % amount
    # Translators: a Guts table's stakes, "$1.00 ante".
    return gettext("%(amount)s ante") % amount


def _utc(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _record(
    hand: Hand,
    history: Mapping[str, Any],
    steps: list[dict[str, Any]],
    *,
    viewer: str | None,
    audit: bool,
) -> dict[str, Any]:
    table = hand.table
    first, last = steps[0], steps[-1]
    starts = {seat["seat"]: seat for seat in first["seats"]}
    ends = {seat["seat"]: seat for seat in last["seats"]}
    seats = []
    for number in sorted(starts.keys() | ends.keys()):
        seat = ends.get(number) or starts[number]
        seats.append(
            {
                "seat": number,
                "player": seat["player"],
                "start": starts[number]["stack"] if number in starts else 0,
                "end": ends[number]["stack"] if number in ends else 0,
                "net": ends[number]["net"] if number in ends else 0,
                "you": bool(seat["you"]),
            }
        )
    button = next(
        (
            event["data"]["button"]
            for event in history["events"]
            if event["type"] == "hand_started" and isinstance(event["data"].get("button"), int)
        ),
        None,
    )
    return {
        "schema": SCHEMA,
        "id": f"{table.pk}-{hand.number}",
        "table": {
            "id": table.pk,
            "name": table.name,
            "game": table.game,
            "title": game_title(table),
            "preset": table.preset,
            "stakes": table.stakes,
            "stakes_text": stakes_words(table),
        },
        "tournament": tournament_of(table),
        "hand": hand.number,
        "round": hand.round.number if hand.round else None,
        "started": _utc(hand.started),
        "ended": _utc(hand.ended),
        "void": hand.void_reason or None,
        "viewer": {"audit": audit, "user": viewer},
        "button": button,
        "seats": seats,
        "events": list(history["events"]),
        "actions": [
            {"section": step["section"], "seat": step["seat"], "text": step["line"]}
            for step in steps[1:-1]
        ],
        "payments": _payments(last.get("payments", [])),
        "rake": last["rake"],
        "summary": last["caption"],
        "result": history.get("result"),
        "commitment": {"root": history["root"], "leaves": list(history["leaves"])},
        "openings": list(history["openings"]),
    }


def _payments(payments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who paid whom, as the schema names the places: a player's name, "the pot", "the
    reserve", "the house" or "the house (rake)", in English whatever the reader's language
    (programs read them)."""

    def place(pay: dict[str, Any], code: str, shown: str) -> str:
        where = pay.get(code)
        if not isinstance(where, str) or where.partition(":")[0] in ("stack", "bankroll"):
            return str(pay[shown])  # a player's name, the same in every language
        with translation.override("en"):
            return place_words(where, {})

    summed: dict[tuple[str, str], int] = {}
    for pay in payments:
        key = (place(pay, "source", "from"), place(pay, "target", "to"))
        summed[key] = summed.get(key, 0) + int(pay["amount"])
    return [
        {"from": payer, "to": payee, "amount": amount}
        for (payer, payee), amount in summed.items()
        if amount
    ]


def jsonl_lines(records: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """One JSON object per line."""
    for record in records:
        yield json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def text_hands(records: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """Each hand in the text format, a blank line after each, in the language active when this
    is called (the request's)."""
    texts = (hand_text(record) + "\n\n" for record in records)
    return _in_language(translation.get_language(), texts)


def hand_text(record: Mapping[str, Any]) -> str:
    """One hand in the style of the big rooms' hand histories (docs/hand-history.md); a
    sit-and-go's hand (one naming its ``tournament``) in its chips."""
    with counting_chips(bool(record.get("tournament"))):
        return _hand_text(record)


def _hand_text(record: Mapping[str, Any]) -> str:
    table = record["table"]
    started = datetime.fromisoformat(str(record["started"]).replace("Z", "+00:00"))
    # Translators: the first line of a hand in the text export: "Cardroom Hand #1-1: Survivor
    # Guts ($1.00 ante) - 2026/12/01 01:50:00 UTC" (the date and time stay as they are).
    head = gettext("Cardroom Hand #%(id)s: %(title)s (%(stakes)s) - %(started)s UTC") % {
        "id": record["id"],
        "title": table["title"],
        "stakes": table["stakes_text"],
        "started": f"{started.astimezone(UTC):%Y/%m/%d %H:%M:%S}",
    }
    lines = [head]
    tournament = record.get("tournament")
    if tournament:
        # Translators: the line naming a sit-and-go in the text export: "Tournament #5: Friday
        # Survivor" (its stacks and amounts are the tournament's chips).
        lines.append(
            gettext("Tournament #%(id)s: %(name)s")
            % {"id": tournament["id"], "name": tournament["name"]}
        )
    button = record.get("button")
    if button is not None:
        lines.append(
            gettext("Table '%(name)s' Seat %(seat)s is the button")
            % {"name": table["name"], "seat": button}
        )
    else:
        lines.append(gettext("Table '%(name)s'") % {"name": table["name"]})
    for seat in record["seats"]:
        lines.append(
            # Translators: a seat as a hand begins: "Seat 0: ann ($200.00 in chips)".
            gettext("Seat %(seat)s: %(player)s (%(amount)s in chips)")
            % {
                "seat": seat["seat"],
                "player": seat["player"],
                "amount": format_cents(seat["start"]),
            }
        )
    section = ""
    for action in record["actions"]:
        if action["section"] != section:
            section = action["section"]
            names = HEADINGS.get(section)
            heading = str(names.get(table["game"], names[""])) if names else section.upper()
            lines.append(f"*** {heading} ***")
        lines.append(action["text"])
    summary = pgettext("hand history heading", "SUMMARY")
    lines.append(f"*** {summary} ***")
    result = record.get("result") or {}
    totals = []
    if isinstance(result.get("pot"), int):
        totals.append(gettext("Total pot %(amount)s") % {"amount": format_cents(result["pot"])})
    totals.append(gettext("Rake %(amount)s") % {"amount": format_cents(record["rake"])})
    lines.append(" | ".join(totals))
    if record.get("void"):
        # Translators: {reason}: the house's reason, as the operator typed it.
        lines.append(gettext("Hand void: %(reason)s") % {"reason": record["void"]})
    for seat in record["seats"]:
        net = seat["net"]
        values = {
            "seat": seat["seat"],
            "player": seat["player"],
            "amount": format_cents(abs(net)),
        }
        if seat["seat"] == button:
            values["player"] = gettext("%(player)s (button)") % {"player": seat["player"]}
        if net > 0:
            lines.append(gettext("Seat %(seat)s: %(player)s won %(amount)s") % values)
        elif net < 0:
            lines.append(gettext("Seat %(seat)s: %(player)s lost %(amount)s") % values)
        else:
            lines.append(gettext("Seat %(seat)s: %(player)s even") % values)
    lines.append(gettext("Deck commitment %(root)s") % {"root": record["commitment"]["root"]})
    for opening in record["openings"]:
        values = {key: opening[key] for key in ("position", "card", "salt")}
        if opening.get("verified"):
            # Translators: a card's opening checked against the deck commitment.
            lines.append(gettext("Opening %(position)s: %(card)s salt %(salt)s matches") % values)
        else:
            lines.append(
                gettext("Opening %(position)s: %(card)s salt %(salt)s DOES NOT MATCH") % values
            )
    return "\n".join(lines)
