"""How a Three Card Poker table looks to one viewer (docs/rules/three-card-poker.md).

Its own region, drawn by ``_tcp_bets.html``: the dealer's hand (face down until the reveal),
every seat's bets and, after the reveal, each bet's result; the bet form (Ante and Pair Plus
within the table's limits); and the table's pay tables with their exact house edges, computed
by :func:`games.three_card_poker.exact_odds` over every player and dealer hand.

Only the game's view is read, as in :mod:`cardroom.presentation`: the dealer's cards are in it
only once they are turned up, another player's only at the reveal.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.presentation import ActionButton, CardFace, _buttons, translated
from cardroom.presentation.hand_words import hand_name
from games.three_card_poker import exact_odds
from games.three_card_poker.config import ANTE_BONUS_HANDS, PAIR_PLUS_HANDS

__all__ = ["describe", "odds_figures", "percent"]

PHASE_WORDS: dict[str, Promise] = {
    "idle": gettext_lazy("Waiting for bets"),
    "betting": gettext_lazy("Place your bets"),
    "dealing": gettext_lazy("Dealing"),
    "deciding": gettext_lazy("Play or fold?"),
}

STATUS_WORDS: dict[str, Promise] = {
    "bet": pgettext_lazy("seat status", "bet placed"),
    "deciding": pgettext_lazy("seat status", "deciding"),
    "played": pgettext_lazy("seat status", "played"),
    "folded": pgettext_lazy("seat status", "folded"),
    "waiting": pgettext_lazy("seat status", "waiting for the next round"),
    "short": pgettext_lazy("seat status", "stack too short to bet"),
    "sitting_out": pgettext_lazy("seat status", "sitting out"),
    "leaving": pgettext_lazy("seat status", "leaving after this hand"),
}

#: The bets by name: Ante and Pair Plus are names kept in every language (the glossary).
BET_NAMES: dict[str, str | Promise] = {
    "ante": "Ante",
    "play": pgettext_lazy("three card poker bet", "Play"),
    "ante_bonus": gettext_lazy("Ante bonus"),
    "pair_plus": "Pair Plus",
}
HAND_NAMES: dict[str, Promise] = {
    "pair": pgettext_lazy("hand category", "Pair"),
    "flush": pgettext_lazy("hand category", "Flush"),
    "straight": pgettext_lazy("hand category", "Straight"),
    "three_of_a_kind": pgettext_lazy("hand category", "Three of a kind"),
    "straight_flush": pgettext_lazy("hand category", "Straight flush"),
}
#: A bet's outcome, as the results name it (``outcome`` stays the code: a class of the page).
OUTCOME_WORDS: dict[str, Promise] = {
    "won": pgettext_lazy("bet outcome", "won"),
    "returned": pgettext_lazy("bet outcome", "returned"),
    "lost": pgettext_lazy("bet outcome", "lost"),
}
#: A seat's decision, as the view names it.
DECISION_WORDS: dict[str, Promise] = {
    "play": pgettext_lazy("three card poker decision", "play"),
    "fold": pgettext_lazy("three card poker decision", "fold"),
}

#: The buy-in the sit form offers, in least Antes.
SESSION_ANTES = 50

#: Actions the region draws itself (the bet form); the rest are ordinary buttons.
REGION_ACTIONS = frozenset({"bet"})


def percent(value: Fraction, places: int = 4) -> str:
    """An exact fraction as a percentage, rounded only for display (no float).

    >>> percent(Fraction(686689, 20358520))
    '3.3730 %'
    """
    shown = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return f"{shown:.{places}f} %"


def _signed_cents(amount: int) -> str:
    if amount > 0:
        return f"+{format_cents(amount)}"
    if amount < 0:
        return f"−{format_cents(-amount)}"
    return format_cents(0)


def odds_figures(ante_bonus: list[int], pair_plus: list[int]) -> dict[str, Any]:
    """The pay tables in words and their exact figures (cached per pay table by the game)."""
    odds = exact_odds(ante_bonus, pair_plus)
    threshold = odds.play_threshold

    def pays_words(pays: int) -> str:
        # Translators: a pay table's odds, "5 to 1".
        return gettext("%(pays)s to 1") % {"pays": pays}

    return {
        "ante_bonus": [
            (str(HAND_NAMES[hand]), pays_words(pays))
            for hand, pays in zip(ANTE_BONUS_HANDS, ante_bonus, strict=True)
        ],
        "pair_plus": [
            (
                str(HAND_NAMES[hand]),
                pays_words(pays) if pays else pgettext("pay table: the bet is returned", "push"),
            )
            for hand, pays in zip(PAIR_PLUS_HANDS, pair_plus, strict=True)
        ],
        "ante_play_edge": percent(odds.ante_play_house_edge),
        "ante_play_exact": f"{odds.ante_play_house_edge}",
        "element_of_risk": percent(odds.element_of_risk),
        "pair_plus_edge": percent(odds.pair_plus_house_edge),
        "pair_plus_exact": f"{odds.pair_plus_house_edge}",
        "play_probability": percent(odds.play_probability, 2),
        "dealer_qualifies": percent(odds.dealer_qualifies, 2),
        "threshold": threshold.text.replace(" ", "-"),
        "threshold_hand": hand_name(threshold.hand),
        "monotone": threshold.monotone,
    }


def _results(entry: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for result in entry.get("results", []):
        bet, outcome = result["bet"], result["outcome"]
        net = result["paid"] - (0 if bet == "ante_bonus" else result["stake"])
        rows.append(
            {
                "label": translated(BET_NAMES, bet, bet),
                "outcome": outcome,
                "outcome_text": translated(OUTCOME_WORDS, outcome, outcome),
                "stake_text": format_cents(result["stake"]),
                "net_text": _signed_cents(net),
            }
        )
    return rows


def _bets(view: dict[str, Any], you_seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for entry in view.get("seats", []):
        if "player" not in entry:
            continue
        rows.append(
            {
                "seat": entry["seat"],
                "player": entry["player"],
                "is_you": entry["seat"] == you_seat,
                "ante_text": format_cents(entry["ante"]) if entry.get("ante") else "",
                "pair_plus_text": format_cents(entry["pair_plus"])
                if entry.get("pair_plus")
                else "",
                "play_text": format_cents(entry["play"]) if entry.get("play") else "",
                "decision": entry.get("decision") or "",
                "decision_text": translated(
                    DECISION_WORDS, entry.get("decision") or "", entry.get("decision") or ""
                ),
                "results": _results(entry),
                "net_text": _signed_cents(entry["net"]) if "net" in entry else "",
            }
        )
    return rows


def _dealer(view: dict[str, Any]) -> dict[str, Any]:
    dealer = view.get("dealer") or {}
    cards = dealer.get("cards") or []
    return {
        "faces": [CardFace.of(card) for card in cards],
        "backs": range(0 if cards else dealer.get("card_count", 0)),
        "hand": hand_name(dealer.get("hand", "")),
        "qualifies": dealer.get("qualifies"),
    }


def _bet_form(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    bet = next((action for action in legal if action["kind"] == "bet"), None)
    if bet is None:
        return None
    low, high, pair_plus = bet["min_ante"], bet["max_ante"], max(bet["max_pair_plus"], 0)
    return {
        "min_text": format_cents(low),
        "max_text": format_cents(high),
        "ante": f"{Decimal(low) / 100:.2f}",
        "max_pair_plus_text": format_cents(pair_plus),
        "pair_plus": pair_plus > 0,
    }


def _action_buttons(legal: list[dict[str, Any]]) -> list[ActionButton]:
    buttons: list[ActionButton] = []
    others: list[dict[str, Any]] = []
    for action in legal:
        kind = action["kind"]
        if kind in REGION_ACTIONS:
            continue
        if kind == "play":
            # Translators: the Play button of Three Card Poker, "Play $2.00".
            label = gettext("Play %(amount)s") % {"amount": format_cents(action["amount"])}
            buttons.append(ActionButton("play", label, {}, key="P", primary=True))
        elif kind == "fold":
            label = pgettext("three card poker", "Fold")
            buttons.append(ActionButton("fold", label, {}, key="F"))
        else:
            others.append({**action, "min": action.get("min", action.get("min_stack"))})
    for button in _buttons(others):
        if button.kind == "sit" and button.amount_input and button.amount_input["min"]:
            # The least stack covers one Ante and its Play: offer room for a session instead.
            least = button.amount_input["min"]
            button.amount_input["value"] = f"{SESSION_ANTES * least // 2 // 100}"
        buttons.append(button)
    return buttons


def describe(state: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The Three Card Poker additions to :func:`cardroom.presentation.describe_table`'s
    context."""
    view = state["table"]
    you = state.get("you") or {}
    legal = you.get("legal_actions", [])
    for seat in context["seats"]:
        seat["status_text"] = translated(STATUS_WORDS, seat.get("status", ""), seat["status_text"])
    limits = view.get("limits", {})
    tables = view.get("pay_tables", {})
    context.update(
        game_partial="cardroom/partials/_tcp_bets.html",
        phase_words=translated(PHASE_WORDS, view.get("phase", ""), view.get("phase", "")),
        buttons=_action_buttons(legal),
        tcp={
            "dealer": _dealer(view),
            "revealed": bool((view.get("dealer") or {}).get("cards")),
            "bets": _bets(view, you.get("seat")),
            "bet_form": _bet_form(legal),
            "limits": {
                "min_ante": format_cents(limits.get("min_ante", 0)),
                "max_ante": format_cents(limits.get("max_ante", 0)),
                "max_pair_plus": format_cents(limits.get("max_pair_plus", 0)),
            },
            "odds": odds_figures(tables.get("ante_bonus", []), tables.get("pair_plus", []))
            if tables
            else None,
        },
    )
    return context
