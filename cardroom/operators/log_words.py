"""The operator log's details in words (the rows keep them as data, for auditors' tools).

Each kind says what changed the way an operator would say it: "Seat 3 (alice)", "ante timer
5 s → 8 s", "hand 12 voided, $5.00 returned". A kind without its own words (added later) shows
its details as "name: value" pairs, still never a Python dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.models import Game, OperatorAction, OperatorActionKind
from cardroom.operators.forms import MONEY as _MONEY
from cardroom.presentation.names import OPTION_VALUE_NAMES, option_value_name, preset_name

__all__ = ["action_words"]

#: A table's status as the log says it ("The table is now paused").
STATUS_WORDS: dict[str, Promise] = {
    "open": pgettext_lazy("the table is now", "open"),
    "paused": pgettext_lazy("the table is now", "paused"),
    "closing": pgettext_lazy("the table is now", "closing"),
    "closed": pgettext_lazy("the table is now", "closed"),
    "changed": pgettext_lazy("the table is now", "changed"),
}


def _name(key: str) -> str:
    return key.replace("_", " ")


def _value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if key in _MONEY and isinstance(value, int):
        return format_cents(value)
    if key in OPTION_VALUE_NAMES and isinstance(value, str | int):
        return option_value_name(key, value)
    if key.endswith("seconds") and isinstance(value, int | float):
        # Translators: a number of seconds, "8 s".
        return gettext("%(seconds)s s") % {"seconds": f"{value:g}"}
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value) or pgettext("no items", "none")
    return str(value)


def _pairs(details: Mapping[str, Any]) -> str:
    return "; ".join(f"{_name(key)}: {_value(key, value)}" for key, value in details.items())


def _created(details: Mapping[str, Any]) -> str:
    game = details.get("game", "")
    label = str(Game(game).label) if game in Game.values else str(game)
    words = f"{label}, {preset_name(str(details.get('preset', '')))}"
    options = details.get("options") or {}
    if options:
        # Sorted: PostgreSQL's jsonb does not keep the keys' order.
        words += "; " + ", ".join(f"{_name(k)} {_value(k, v)}" for k, v in sorted(options.items()))
    bots = details.get("bots") or 0
    if not bots:
        return words
    # Translators: a new table's game and settings, then its house bots: "...; 2 bots".
    return ngettext("%(words)s; %(count)s bot", "%(words)s; %(count)s bots", bots) % {
        "words": words,
        "count": bots,
    }


def _timers(details: Mapping[str, Any]) -> str:
    before, after = details.get("before") or {}, details.get("after") or {}
    return ", ".join(
        f"{_name(key)} {_value(key, before.get(key))} → {_value(key, value)}"
        for key, value in sorted(after.items())
    )


def _seat(details: Mapping[str, Any]) -> str:
    player = details.get("player")
    if player:
        return gettext("Seat %(seat)s (%(player)s)") % {"seat": details["seat"], "player": player}
    return gettext("Seat %(seat)s") % {"seat": details["seat"]}


def _bots(details: Mapping[str, Any]) -> str:
    values = {"before": details.get("before"), "after": details.get("after")}
    leaving = details.get("leaving") or []
    if leaving:
        # Translators: the house bots before and after, and the bots that leave.
        return gettext("Bots %(before)s → %(after)s; leaving: %(players)s") % {
            **values,
            "players": ", ".join(leaving),
        }
    # Translators: the house bots before and after a change, "Bots 0 → 2".
    return gettext("Bots %(before)s → %(after)s") % values


def _status(details: Mapping[str, Any]) -> str:
    status = str(details.get("status", "changed"))
    found = STATUS_WORDS.get(status)
    return gettext("The table is now %(status)s") % {
        "status": status if found is None else str(found)
    }


def _void(details: Mapping[str, Any]) -> str:
    returned = details.get("returned")
    if isinstance(returned, int):
        return gettext("Hand %(hand)s voided; %(amount)s returned") % {
            "hand": details.get("hand"),
            "amount": format_cents(returned),
        }
    return gettext("Hand %(hand)s voided") % {"hand": details.get("hand")}


def _chat_ban(details: Mapping[str, Any]) -> str:
    # Translators: a player's chat muted at every table, until a date and time in UTC.
    return gettext("%(player)s's chat muted at every table until %(until)s") % {
        "player": details["player"],
        "until": details["until"],
    }


def _chat_unban(details: Mapping[str, Any]) -> str:
    return gettext("%(player)s may chat again") % {"player": details["player"]}


def _note(details: Mapping[str, Any]) -> str:
    # Translators: a staff note was written about a player (the note itself is the reason).
    return gettext("Note about %(player)s") % {"player": details["player"]}


def _fair_play(details: Mapping[str, Any]) -> str:
    # Translators: an operator reviewed a fair play signal of a day (YYYY-MM-DD) about two
    # players; the operator's note is the reason.
    return gettext("Fair play signal of %(day)s about %(players)s reviewed") % {
        "day": details["day"],
        "players": " & ".join(str(player) for player in details["players"]),
    }


_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    OperatorActionKind.TABLE_CREATE: _created,
    OperatorActionKind.TIMERS_CHANGE: _timers,
    OperatorActionKind.SEAT_SIT_OUT: _seat,
    OperatorActionKind.SEAT_REMOVE: _seat,
    OperatorActionKind.BOTS_CHANGE: _bots,
    OperatorActionKind.TABLE_PAUSE: _status,
    OperatorActionKind.TABLE_RESUME: _status,
    OperatorActionKind.TABLE_CLOSE: _status,
    OperatorActionKind.HAND_VOID: _void,
    OperatorActionKind.CHAT_BAN: _chat_ban,
    OperatorActionKind.CHAT_UNBAN: _chat_unban,
    OperatorActionKind.PLAYER_NOTE: _note,
    OperatorActionKind.FAIR_PLAY_REVIEW: _fair_play,
}


def action_words(action: OperatorAction) -> str:
    """What the action did, in words."""
    details = action.details if isinstance(action.details, Mapping) else {}
    words = _WORDS.get(action.kind)
    try:
        return words(details) if words else _pairs(details)
    except (KeyError, TypeError, ValueError):
        # An old row in another shape still reads, as pairs.
        return _pairs(details)
