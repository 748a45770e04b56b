"""A hand's payments in words, in the reader's language: "ann antes $1.00", "dana pays ann
$3.00", "ann gets $0.75 back from the pot".

The payments come as JSON (cardroom/storage/payments.py), the same for every reader; each kind
of transfer has its sentence, and a kind without one (added later) is said generically with the
kind's name, so no payment goes unsaid. Amounts are the project's money (accounts/money.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from accounts.models import TransferKind
from accounts.money import format_cents

__all__ = ["merged", "party_words", "payment_words", "payments_said"]

#: The places that are nobody's, by the kind of their account.
PLACE_WORDS: dict[str, Promise] = {
    "pot": gettext_lazy("the pot"),
    "reserve": gettext_lazy("the reserve"),
    "rake": gettext_lazy("the house (rake)"),
    "house": gettext_lazy("the house"),
    # Translators: where play money comes from (a ledger account).
    "cashier": gettext_lazy("the cashier"),
}

#: Each kind of transfer as a sentence: ``payer`` and ``payee`` (a player's name or a place in
#: words), ``player`` (the player the sentence is about), ``amount``.
SENTENCES: dict[str, Promise] = {
    # Translators: a payment of a hand: "ann antes $1.00".
    "ante": gettext_lazy("%(payer)s antes %(amount)s"),
    "match": gettext_lazy("%(player)s matches %(amount)s"),
    "pot_win": gettext_lazy("%(player)s won %(amount)s"),
    "rake": gettext_lazy("rake %(amount)s"),
    # Translators: a payment of a hand at Chinese Poker: "ann pays a hand fee of $0.50".
    "fee": gettext_lazy("%(payer)s pays a hand fee of %(amount)s"),
    "payment": gettext_lazy("%(payer)s pays %(payee)s %(amount)s"),
    "payout": gettext_lazy("%(payer)s pays %(payee)s %(amount)s"),
    # Translators: a bet against the house at Three Card Poker: "ann bets $5.00".
    "bet": gettext_lazy("%(payer)s bets %(amount)s"),
    # Translators: money given back: "ann gets $0.75 back from the pot".
    "refund": gettext_lazy("%(payee)s gets %(amount)s back from %(payer)s"),
    # Translators: a carried pot given back when the table stopped: "ann gets $1.00 back from
    # the pot (the table stopped)".
    "pot_return": gettext_lazy("%(payee)s gets %(amount)s back from %(payer)s (the table stopped)"),
    # Translators: a voided hand's money given back: "ann gets $1.00 back from the pot (void)".
    "void": gettext_lazy("%(payee)s gets %(amount)s back from %(payer)s (void)"),
}
#: A kind of transfer without a sentence of its own: "$0.75 from the pot to ann (Refund)".
# Translators: a payment of a hand of a kind said by its name, in brackets.
OTHER = gettext_lazy("%(amount)s from %(payer)s to %(payee)s (%(kind)s)")
#: Several players paying the same into the same place, said once.
GROUPS: dict[str, Promise] = {
    # Translators: the antes of a hand: "antes of $1.00: ann, ben, cat".
    "ante": gettext_lazy("antes of %(amount)s: %(players)s"),
    # Translators: the hand fees of a hand of Chinese Poker: "hand fees of $0.50: ann, ben".
    "fee": gettext_lazy("hand fees of %(amount)s: %(players)s"),
}


def _kind(place: Any) -> str:
    return str(place).partition(":")[0]


def party_words(place: Any, name: Any) -> str:
    """A payer or payee in words: a player's name (their bankroll, "ann's bankroll"), or a
    place ("the pot"); ``place`` and ``name`` as a payment gives them (its ``source`` and
    ``from``, or ``target`` and ``to``)."""
    kind = _kind(place)
    if kind == "stack":
        return str(name)
    if kind == "bankroll":
        return gettext("%(player)s's bankroll") % {"player": name}
    found = PLACE_WORDS.get(kind)
    return str(name) if found is None else str(found)


def _kind_name(kind: str) -> str:
    if kind in TransferKind.values:
        return str(TransferKind(kind).label)
    return kind.replace("_", " ")


def payment_words(payment: Mapping[str, Any]) -> str:
    """One payment as a sentence."""
    kind = str(payment.get("kind", ""))
    payer = party_words(payment.get("source"), payment.get("from"))
    payee = party_words(payment.get("target"), payment.get("to"))
    values = {
        "payer": payer,
        "payee": payee,
        "player": payee if _kind(payment.get("source")) in PLACE_WORDS else payer,
        "amount": format_cents(int(payment.get("amount", 0))),
        "kind": _kind_name(kind),
    }
    if kind == "reserve":
        if _kind(payment.get("source")) == "pot":
            return gettext("%(amount)s moves from the pot to the reserve") % values
        return gettext("%(amount)s moves from the reserve to the pot") % values
    sentence = SENTENCES.get(kind)
    return str(sentence if sentence is not None else OTHER) % values


def _group_key(payment: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """What payments said together share (None: said alone): players' antes (or hand fees)
    of one amount into one place."""
    kind = payment.get("kind")
    if kind not in GROUPS or _kind(payment.get("source")) != "stack":
        return None
    return kind, payment.get("target"), payment.get("amount")


#: The kinds whose payments between the same two are summed in a line: a player's bets against
#: the house, and the house's payouts, one for each bet of the same hand.
MERGED = frozenset({"bet", "payout"})


def merged(payments: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The payments, with a hand's bets (payouts) between the same two summed into one, in the
    order each first came: a line of the log says "the house pays ann $30.00" once, not once
    for each bet. Other payments stay one by one (each stage's payment of a game in stages).

    >>> merged([{"kind": "payout", "source": "house", "target": "stack:0", "from": "house",
    ...          "to": "ann", "amount": 500}] * 2)[0]["amount"]
    1000
    """
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for payment in payments:
        key: tuple[Any, ...] = tuple(
            payment.get(name) for name in ("kind", "source", "target", "from", "to")
        )
        if payment.get("kind") not in MERGED:
            key = (*key, len(found))  # said alone
        if key in found:
            found[key]["amount"] = int(found[key]["amount"]) + int(payment.get("amount", 0))
        else:
            found[key] = {**payment, "amount": int(payment.get("amount", 0))}
    return list(found.values())


def payments_said(payments: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """A hand's payments as phrases for its line of the log, in order (:func:`merged`): each
    on its own, except the antes (hand fees) of one amount, said once with their players
    ("antes of $1.00: ann, ben, cat"). Each phrase is ``{"kind": ..., "text": ...}``, so that
    the line can lead with who won."""
    payments = merged(payments)
    phrases: list[dict[str, str]] = []
    index = 0
    while index < len(payments):
        key = _group_key(payments[index])
        end = index + 1
        while key is not None and end < len(payments) and _group_key(payments[end]) == key:
            end += 1
        kind = str(payments[index].get("kind", ""))
        if end - index < 2 or key is None:
            phrases.append({"kind": kind, "text": payment_words(payments[index])})
        else:
            players = ", ".join(str(payment.get("from")) for payment in payments[index:end])
            amount = format_cents(int(payments[index].get("amount", 0)))
            text = str(GROUPS[key[0]]) % {"amount": amount, "players": players}
            phrases.append({"kind": kind, "text": text})
        index = end
    return phrases
