"""How a Chinese Poker table looks to one viewer (docs/rules/chinese-poker.md).

Two regions of its own, drawn by ``_chinese_board.html``: the setting board (the viewer's 13
cards in front, middle and back, each row's hand name, a foul warning, the natural the cards
make, submit and surrender) and, after a hand, the reveal (every shown hand's rows side by side,
each pair's units with bonuses and naturals named, and the payments after the stake caps).

Only the game's view is read, as in :mod:`cardroom.presentation`: the board draws the viewer's
own rows (``you.rows``), and other players' rows only once the view shows them at the reveal.
Row names and the foul flag are worked out here, on the server, from the rows the view holds,
so the page needs no poker logic of its own: each change of the board is a ``set`` and comes
back with its names. :func:`chinese_suggestion` is the one read beyond the view: the solver's
rows for the asking user's own seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.models import Table
from cardroom.presentation import CardFace, _buttons, translated
from cardroom.presentation.event_words import foul_words
from cardroom.presentation.hand_words import hand_name
from cardroom.tables.selectors import seat_of
from games.cards import Card, parse_cards
from games.chinese_poker import GAME, NATURAL_VALUES, find_natural
from games.engine import IllegalAction
from games.evaluators import rank_hand, rows_in_order
from games.words import words

__all__ = ["NATURAL_NAMES", "chinese_suggestion", "describe", "suggestion_html"]

#: The rows: name, label (translated when drawn), size.
ROWS: tuple[tuple[str, Promise, int], ...] = (
    ("front", pgettext_lazy("chinese poker row", "Front"), 3),
    ("middle", pgettext_lazy("chinese poker row", "Middle"), 5),
    ("back", pgettext_lazy("chinese poker row", "Back"), 5),
)

#: The naturals (special hands), as a page names them (translated when shown: ``str()``).
NATURAL_NAMES: dict[str, Promise] = {
    "thirteen_colors": gettext_lazy("13 colors"),
    "dragon": gettext_lazy("Dragon"),
    "twelve_colors": gettext_lazy("12 colors"),
    "trips_five_pairs": gettext_lazy("Three of a kind and 5 pairs"),
    "three_straights": gettext_lazy("3 straights"),
    "three_flushes": gettext_lazy("3 flushes"),
    "six_pairs": gettext_lazy("6 pairs"),
}

PHASE_WORDS: dict[str, Promise] = {
    "waiting": gettext_lazy("Waiting for players"),
    "pause": gettext_lazy("Next hand shortly"),
    "ready": gettext_lazy("Dealing"),
    "setting": gettext_lazy("Set your hand"),
}

#: The seat's part in the hand, in words (the view's ``hand_status`` and ``result``).
HAND_WORDS: dict[str, str | Promise] = {
    "setting": pgettext_lazy("chinese poker hand", "setting…"),
    "submitted": pgettext_lazy("chinese poker hand", "set"),
    "surrendered": pgettext_lazy("chinese poker hand", "surrendered"),
    "surrender": pgettext_lazy("chinese poker hand", "surrendered"),
    "foul": pgettext_lazy("chinese poker hand", "fouled"),
    "natural": pgettext_lazy("chinese poker hand", "natural"),
    "regular": "",
}

STATUS_WORDS: dict[str, Promise] = {
    "playing": pgettext_lazy("seat status", "in the hand"),
    "seated": pgettext_lazy("seat status", "seated"),
    "sitting_out": pgettext_lazy("seat status", "sitting out"),
}


def natural_name(natural: str, default: str = "") -> str:
    """A natural's name in the reader's language (``default`` for none or an unknown one)."""
    return translated(NATURAL_NAMES, natural, default)


#: Actions the board draws itself; the rest are ordinary buttons.
BOARD_ACTIONS = frozenset({"set", "submit", "surrender", "declare_natural"})


def _row_name(row: str, cards: Sequence[Card]) -> str:
    kind = "chinese_front" if row == "front" else "five_card"
    return hand_name(str(rank_hand(kind, cards)))


def _signed(units: int) -> str:
    return f"+{units}" if units > 0 else ("0" if units == 0 else f"−{-units}")


def default_rows(cards: list[str]) -> dict[str, list[str]]:
    """Where the board puts cards not yet set: highest five in the back, next five in the
    middle, lowest three in front (a start the player then rearranges).

    >>> default_rows("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac".split())["front"]
    ['4h', '3d', '2c']
    """
    ordered = sorted(parse_cards(cards), key=lambda card: (card.rank, card.index), reverse=True)
    text = [str(card) for card in ordered]
    return {"back": text[:5], "middle": text[5:10], "front": text[10:]}


def _rows(rows: dict[str, list[str]]) -> tuple[list[dict[str, Any]], bool]:
    """Each row drawn with its hand's name, and whether the rows foul (out of order)."""
    drawn = []
    parsed = {}
    for name, label, _size in ROWS:
        cards = parse_cards(rows[name])
        parsed[name] = cards
        drawn.append(
            {
                "name": name,
                "label": str(label),
                "faces": [CardFace.of(card) for card in rows[name]],
                "hand": _row_name(name, cards),
                "text": " ".join(rows[name]),
            }
        )
    foul = not rows_in_order(parsed["front"], parsed["middle"], parsed["back"])
    return drawn, foul


def _board(view: dict[str, Any], you: dict[str, Any]) -> dict[str, Any] | None:
    """The setting board of the viewer's hand, while hands are being set."""
    cards = you.get("cards") or []
    if view.get("phase") != "setting" or not cards:
        return None
    legal = {action["kind"] for action in you.get("legal_actions", [])}
    own: dict[str, Any] = next(
        (s for s in view.get("seats", []) if s.get("seat") == you.get("seat")), {}
    )
    rows = you.get("rows") or default_rows(cards)
    drawn, foul = _rows(rows)
    natural = find_natural(parse_cards(cards))
    return {
        "hand": view.get("hand"),
        "editable": "set" in legal,
        "status": own.get("hand_status") or "",
        "status_text": translated(HAND_WORDS, own.get("hand_status") or ""),
        "placed": you.get("rows") is not None,
        "rows": drawn,
        "foul": foul,
        "fields": {row["name"]: row["text"] for row in drawn},
        "natural": None
        if natural is None
        else {"name": natural, "label": natural_name(natural), "value": NATURAL_VALUES[natural]},
        "declared": natural_name(you.get("natural") or ""),
        "can_surrender": "surrender" in legal,
        "can_declare": "declare_natural" in legal and natural is not None,
    }


def _pair_rows(
    pair: dict[str, Any], shown: dict[int, dict[str, Any]]
) -> list[dict[str, Any]] | None:
    units = pair.get("rows")
    if units is None:
        return None
    first, second = pair["seats"]
    drawn = []
    for (name, label, _size), won in zip(ROWS, units, strict=True):
        bonus = ""
        if abs(won) > 1:
            winner = shown.get(first if won > 0 else second, {})
            cards = (winner.get("rows") or {}).get(name)
            if cards:
                bonus = _row_name(name, parse_cards(cards))
        drawn.append(
            {"label": str(label), "units": won, "units_text": _signed(won), "bonus": bonus}
        )
    return drawn


def _units(count: int) -> str:
    """ "1 unit", "3 units"."""
    return ngettext("%(count)s unit", "%(count)s units", count) % {"count": count}


def _pair_text(pair: dict[str, Any], names: dict[int, str], shown: dict[int, Any]) -> str:
    """Why a pair was scored as it was, in words (docs/rules/chinese-poker.md)."""
    first, second = pair["seats"]
    total, reason = pair["total"], pair["reason"]
    payer, winner = (second, first) if total > 0 else (first, second)
    units = abs(total)
    values = {"winner": names[winner], "payer": names[payer], "units": _units(units)}
    if reason == "natural":
        natural = natural_name(shown.get(winner, {}).get("natural") or "", gettext("a natural"))
        # Translators: "ann's Dragon wins 13 units from ben" ({natural}: the natural's name).
        return gettext("%(winner)s's %(natural)s wins %(units)s from %(payer)s") % {
            **values,
            "natural": natural,
        }
    if reason == "natural_tie":
        return gettext("naturals of equal rank: nothing changes hands")
    if reason == "surrender":
        return gettext("%(payer)s surrendered: pays %(winner)s %(units)s") % values
    if reason == "both_surrendered":
        return gettext("both surrendered: nothing changes hands")
    if reason == "foul":
        extra = units - 3
        if extra:
            # Translators: a fouled hand pays 3 units and the winner's row bonuses.
            return gettext(
                "%(payer)s fouled: pays %(winner)s %(units)s (3 + %(extra)s in bonuses)"
            ) % {**values, "extra": extra}
        return gettext("%(payer)s fouled: pays %(winner)s %(units)s") % values
    if reason == "both_fouled":
        return gettext("both fouled: nothing changes hands")
    if total == 0:
        return gettext("rows split evenly: nothing changes hands")
    return gettext("%(winner)s wins %(units)s from %(payer)s") % values


def _reveal(view: dict[str, Any], you_seat: int | None) -> dict[str, Any] | None:
    """The last hand's reveal: shown rows, pair scores and payments (until the next deal)."""
    result = view.get("result")
    if result is None or view.get("phase") == "setting":
        return None
    seats = {entry["seat"]: entry for entry in view.get("seats", [])}
    names = {number: entry.get("player") or _seat(number) for number, entry in seats.items()}
    in_hand = sorted(int(seat) for seat in result.get("units", {}))
    for number in in_hand:
        names.setdefault(number, _seat(number))
    shown = {n: seats[n] for n in in_hand if n in seats and seats[n].get("result")}
    players = []
    for number in in_hand:
        entry = shown.get(number, {})
        units = result["units"][str(number)]
        kind = entry.get("result", "")
        rows = None
        if entry.get("rows"):
            rows, _ = _rows(entry["rows"])
        players.append(
            {
                "seat": number,
                "player": names[number],
                "is_you": number == you_seat,
                "kind": kind,
                "kind_text": translated(HAND_WORDS, kind, kind),
                "why": foul_words(entry.get("why") or ""),
                "natural": natural_name(entry.get("natural") or ""),
                "rows": rows,
                "units": units,
                "units_text": _signed(units),
            }
        )
    pairs = [
        {
            "first": names[pair["seats"][0]],
            "second": names[pair["seats"][1]],
            "rows": _pair_rows(pair, shown),
            "total": pair["total"],
            "total_text": _signed(pair["total"]),
            "text": _pair_text(pair, names, shown),
        }
        for pair in result.get("pairs", [])
    ]
    payments = [
        {
            "payer": names.get(payment["from"], _seat(payment["from"])),
            "winner": names.get(payment["to"], _seat(payment["to"])),
            "amount_text": format_cents(payment["amount"]),
        }
        for payment in result.get("payments", [])
    ]
    return {"hand": view.get("hand"), "players": players, "pairs": pairs, "payments": payments}


def _seat(number: object) -> str:
    """A seat without a player's name: "seat 3"."""
    return gettext("seat %(number)s") % {"number": number}


def _seat_note(entry: dict[str, Any], phase: str) -> str:
    status = str(entry.get("hand_status") or "")
    return translated(HAND_WORDS, status, status) if phase == "setting" else ""


def describe(state: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The Chinese Poker additions to :func:`cardroom.presentation.describe_table`'s context."""
    view = state["table"]
    you = state.get("you") or {}
    phase = view.get("phase", "")
    for seat in context["seats"]:
        # The 13 cards are drawn in the board and the reveal, not in the seat boxes.
        seat["faces"] = []
        seat["backs"] = range(1 if seat.get("card_count") else 0)
        seat["hand"] = _seat_note(seat, phase)
        seat["status_text"] = translated(STATUS_WORDS, seat.get("status", ""), seat["status_text"])
    legal = [
        {**action, "min": action.get("min", action.get("min_stack"))}
        for action in you.get("legal_actions", [])
        if action["kind"] not in BOARD_ACTIONS
    ]
    context.update(
        game_partial="cardroom/partials/_chinese_board.html",
        phase_words=translated(PHASE_WORDS, phase, phase),
        buttons=_buttons(legal),
        your_faces=[],
        seated=False,
        board=_board(view, you) if you else None,
        reveal=_reveal(view, you.get("seat")),
        unit_text=format_cents(view.get("unit", 0)),
        fee_text=format_cents(view.get("hand_fee", 0)),
    )
    return context


def chinese_suggestion(*, table_id: int, user_id: int) -> dict[str, Any]:
    """The solver's rows for the hand ``user_id`` is setting at the table: their own cards
    only (IllegalAction when they have no hand being set)."""
    table = Table.objects.get(pk=table_id)
    if table.game != "chinese_poker":
        raise IllegalAction(words("suggestions are for Chinese Poker hands"))
    seat = seat_of(table=table, user_id=user_id)
    state = GAME.load(table.state)
    entry = state.entry(seat) if seat is not None and state.in_hand else None
    if seat is None or entry is None or entry.status != "setting":
        raise IllegalAction(words("you have no hand being set"))
    rows = GAME.suggestion(state, seat)
    assert rows is not None
    return {"hand": state.hand_number, **rows}


def suggestion_html(answer: dict[str, Any]) -> str:
    """The page's fragment for a ``suggestion`` answer: the rows, named, with "use these"."""
    rows, foul = _rows({name: answer[name] for name, _label, _size in ROWS})
    suggestion = {
        "hand": answer.get("hand"),
        "rows": rows,
        "foul": foul,
        "fields": {row["name"]: row["text"] for row in rows},
        "natural": natural_name(answer.get("natural") or ""),
    }
    html: str = render_to_string(
        "cardroom/partials/_chinese_suggestion.html", {"suggestion": suggestion, "oob": True}
    )
    return html
