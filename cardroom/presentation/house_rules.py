"""A table's house rules in words, for the table page's panel and the lobby.

Classic Guts is a home game whose players agree on house rules before the deal
(docs/rules/guts-classic.md); the cardroom states them plainly so nobody sits down surprised.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from accounts.money import format_cents
from cardroom.models import Table
from cardroom.presentation.house_games import game_rules
from cardroom.tables.engines import engine_for
from games.guts.config import SEED_MIN_BUY_IN_ANTES

__all__ = ["house_rules"]


def _money(value: Any) -> str:
    return format_cents(int(value))


#: option → value → sentence. Defaults of the basic game are
#: not listed, so the panel names only what differs from the rules page.
SENTENCES: dict[str, dict[Any, Promise]] = {
    "cards": {
        2: gettext_lazy("Two cards each."),
        3: gettext_lazy("Three cards each (three-card ranking)."),
    },
    "declare": {
        "sequential": gettext_lazy(
            "Declare in turn from the dealer's left; the dealer declares last."
        ),
        "simultaneous": gettext_lazy("Everyone declares at once."),
    },
    "payers": {"worst_losers": gettext_lazy("Only the worst hand In pays.")},
    "payment_multiple": {2: gettext_lazy("Losers pay double the pot.")},
    "winner_takes_pot": {
        False: gettext_lazy("A showdown winner takes nothing; only a lone In wins the pot.")
    },
    "ante_when": {
        "every_deal": gettext_lazy("Everyone antes every deal, except those who just paid.")
    },
    "all_out": {
        "chicken_fee": gettext_lazy("When nobody is In, everyone antes again."),
        "wimp": gettext_lazy("When nobody is In, the best hand antes for everyone (wimp rule)."),
        "henry": gettext_lazy("When nobody is In, the best hand matches the pot (Henry rule)."),
    },
    "ghost": {
        "always": gettext_lazy("A ghost hand plays every showdown; an In hand must beat it."),
        "single_in": gettext_lazy("A ghost hand plays when only one player is In."),
    },
    "single_in_needs": {"pair": gettext_lazy("A lone In needs a pair or better, or pays the pot.")},
    "pass_left": {True: gettext_lazy("After the deal each player passes one card to the left.")},
    "no_peek": {True: gettext_lazy("No peeking: you declare without seeing your cards.")},
    "partial_reveal": {True: gettext_lazy("Players In get their last card face up.")},
    "community_card": {
        True: gettext_lazy("One community card is turned up and plays in every hand.")
    },
    "hi_lo": {
        True: gettext_lazy(
            "Declare High, Low, High-Low or Out; the pot splits between high and low."
        )
    },
    "dealer_challenge": {
        True: gettext_lazy("If the dealer alone is In, the others may challenge.")
    },
    "low_wild": {
        1: gettext_lazy("The lowest face-up card's holder is In, and that rank is wild."),
        2: gettext_lazy("The two lowest face-up cards' holders are In; those ranks are wild."),
    },
    "two_plus_one": {True: gettext_lazy("Two cards, declare, then a third card for those In.")},
    "second_declare": {
        True: gettext_lazy("The third card costs an extra ante and a second declare.")
    },
    "two_card_straights_flushes": {True: gettext_lazy("Two-card straights and flushes count.")},
    "royal_crumpler": {True: gettext_lazy("Royal Crumpler: 3-2 is the best hand.")},
    "trips_over_straight_flush": {True: gettext_lazy("Three of a kind beats a straight flush.")},
    "flush_over_straight": {True: gettext_lazy("A flush beats a straight.")},
    "three_card_straights_flushes": {False: gettext_lazy("Straights and flushes don't count.")},
    "payer": {
        "all_losers": gettext_lazy("Every losing hand In matches the pot (Monte Carlo)."),
        "lowest_loser": gettext_lazy("Only the lowest losing hand In matches the pot (Survivor)."),
    },
    "round_end": {
        "no_losers": gettext_lazy("A round ends when a hand has a winner and nobody owes."),
        "single_in": gettext_lazy("A round ends only when exactly one player is In."),
    },
}

#: The games in several deals or stages, by their flow, in a sentence each
#: (docs/rules/guts-classic.md).
FLOWS: dict[str, Promise] = {
    "four_two": gettext_lazy(
        "Four cards down, twos wild; those In get more cards and play their best five. "
        "The game ends when one player is In alone."
    ),
    "legs": gettext_lazy(
        "Stages of three, five and seven cards (threes, fives, sevens wild); a lone In "
        "takes a leg, and three legs take the pot."
    ),
    "nuts": gettext_lazy(
        "Deals from two to five cards, low and high in turn; a lone In takes a nut, and "
        "three nuts take the pot."
    ),
    "napalm": gettext_lazy(
        "Two cards high, five low, seven high; a lone In takes a token, and enough "
        "tokens take the pot."
    ),
    "toh": gettext_lazy(
        "One card each, high card wins with suits breaking ties; the winner keeps a point, "
        "and enough points take the pot."
    ),
}

#: option → sentence of an amount (``%(amount)s``, in the reader's money format).
MONEY: dict[str, Promise] = {
    "ante": gettext_lazy("Ante %(amount)s."),
    "match_cap": gettext_lazy("A loser's match is capped at %(amount)s."),
    "pot_limit": gettext_lazy("Pot limit %(amount)s; the excess waits in a reserve."),
    "min_buy_in": gettext_lazy("Buy in with at least %(amount)s."),
    "max_buy_in": gettext_lazy("Buy in with at most %(amount)s."),
}


#: What a tournament's table does not say: its stake and match cap rise by level (its panel
#: says the level's), and nobody buys in at it (everyone starts with the tournament's chips).
CASH_ONLY = frozenset({"ante", "match_cap", "min_buy_in", "max_buy_in"})


def _usual_buy_in(config: Any) -> int:
    """The seeds' rooms' least buy-in, 100 antes (0 for a game without an ante)."""
    return SEED_MIN_BUY_IN_ANTES * int(getattr(config, "ante", 0) or 0)


def _lower_buy_in(least: int, usual: int) -> str:
    """A minimum below the seeds' 100 antes: only a custom table (or a classic home game)
    asks one, so it is stated as this table's own rule."""
    return gettext(
        "Buy in with at least %(amount)s: less than the usual %(count)s antes (%(usual)s),"
        " a house rule here."
    ) % {"amount": _money(least), "count": SEED_MIN_BUY_IN_ANTES, "usual": _money(usual)}


def house_rules(table: Table) -> list[str]:
    """The table's settings as sentences, money first, then every rule that is not the default."""
    try:
        config = engine_for(table.game).make_config(table.preset, dict(table.config))
    except ValueError:
        return []
    lines = []
    for name, template in MONEY.items():
        if table.plays_for_chips and name in CASH_ONLY:
            continue
        value = getattr(config, name, None)
        if name == "min_buy_in" and value and value < _usual_buy_in(config):
            lines.append(_lower_buy_in(value, _usual_buy_in(config)))
        elif value:
            lines.append(str(template) % {"amount": _money(value)})
    lines += game_rules(table.game, config)
    flow = getattr(config, "flow", "one_deal")
    if flow in FLOWS:
        lines.append(str(FLOWS[flow]))
    for name, sentences in SENTENCES.items():
        if name == "cards" and flow in FLOWS:
            continue  # the stages say how many cards, not this option
        value = getattr(config, name, None)
        if value in sentences:
            lines.append(str(sentences[value]))
        if name == "declare" and value == "sequential":
            lines.append(
                gettext("If all before the dealer are Out, the dealer takes the pot unseen.")
                if getattr(config, "dealer_auto_in", False)
                else gettext(
                    "The dealer is never In automatically: if all are Out, the rule for "
                    "nobody In applies."
                )
            )
    basis_points = getattr(config, "rake_basis_points", None)
    # A tournament's table takes no rake from its chips (the house has the fees).
    if basis_points is not None and not table.plays_for_chips:
        cap = getattr(config, "rake_cap", 0)
        whole, part = divmod(int(basis_points), 100)
        rate = f"{whole}.{part:02d}".rstrip("0").rstrip(".")
        lines.append(
            # Translators: the rake: a percentage ("5", "2.5") of each pot, and its cap.
            gettext("Rake %(rate)s %% of each pot won, at most %(cap)s.")
            % {"rate": rate, "cap": _money(cap)}
        )
    return lines
