"""The house rules of the games without a Guts table's options, in words, from the table's own
config: Three Card Poker's limits, pay tables, the dealer's qualifying and the timers
(docs/rules/three-card-poker.md); Chinese Poker's unit, hand fee and timer
(docs/rules/chinese-poker.md). ``cardroom.presentation.house_rules`` adds them to the panel.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from accounts.money import format_cents
from cardroom.presentation.tcp import HAND_NAMES
from games.three_card_poker.config import ANTE_BONUS_HANDS, PAIR_PLUS_HANDS

__all__ = ["game_rules"]


def _seconds(count: int) -> str:
    return ngettext("%(count)s second", "%(count)s seconds", count) % {"count": count}


def _pays(hands: tuple[str, ...], pays: tuple[int, ...], *, bonus: bool = False) -> str:
    """ "Straight 1 to 1, Three of a kind 4 to 1": a pay table as a list in words (0: the bet
    is returned; a bonus of 0 is no bonus, left out)."""
    said = []
    for hand, paid in zip(hands, pays, strict=True):
        if bonus and not paid:
            continue
        # Translators: one line of a pay table: a hand and what it pays ("Flush 4 to 1").
        odds = (
            gettext("%(hand)s %(pays)s to 1") % {"hand": HAND_NAMES[hand], "pays": paid}
            if paid
            else gettext("%(hand)s: the bet is returned") % {"hand": HAND_NAMES[hand]}
        )
        said.append(odds)
    return ", ".join(said)


def three_card_poker(config: Any) -> list[str]:
    """A Three Card Poker table's rules: the limits, the dealer, the pay tables, the clock."""
    lines = [
        gettext("Ante %(least)s to %(most)s.")
        % {"least": format_cents(config.min_ante), "most": format_cents(config.max_ante)}
    ]
    if config.max_pair_plus > 0:
        lines.append(
            gettext("Pair Plus up to %(most)s, only with an Ante.")
            % {"most": format_cents(config.max_pair_plus)}
        )
    else:
        lines.append(gettext("No Pair Plus bet at this table."))
    lines += [
        gettext(
            "The dealer qualifies with Queen high or better. When the dealer does not"
            " qualify, the Ante is paid 1 to 1 and the Play bet is returned."
        ),
        gettext(
            "When the dealer qualifies, the better hand wins: Ante and Play are each paid 1 to"
            " 1, or lost; equal hands get both back."
        ),
    ]
    if any(config.pay_tables.ante_bonus):
        lines.append(
            gettext("Ante bonus, paid to a player who plays, whatever the dealer holds: %(pays)s.")
            % {"pays": _pays(ANTE_BONUS_HANDS, config.pay_tables.ante_bonus, bonus=True)}
        )
    if config.max_pair_plus > 0:
        lines.append(
            gettext(
                "Pair Plus pays on your three cards alone, even if you fold: %(pays)s;"
                " less than a pair loses."
            )
            % {"pays": _pays(PAIR_PLUS_HANDS, config.pay_tables.pair_plus)}
        )
    lines.append(
        gettext(
            "%(bet)s to bet when a round opens; %(decide)s to Play or Fold, and no decision"
            " in time is a fold."
        )
        % {"bet": _seconds(config.bet_seconds), "decide": _seconds(config.decision_seconds)}
    )
    return lines


def chinese_poker(config: Any) -> list[str]:
    """A Chinese Poker table's rules: the unit, the fee, the clock and what it does."""
    timeout = (
        gettext("a hand not submitted in time is surrendered")
        if config.timeout == "surrender"
        else gettext("a hand not submitted in time is set for you, as well as it can be")
    )
    return [
        gettext("One unit is %(unit)s; each hand costs a fee of %(fee)s.")
        % {"unit": format_cents(config.unit), "fee": format_cents(config.hand_fee)},
        # Translators: time is "90 seconds"; then what happens to a hand set too late.
        gettext("%(time)s to set your hand; %(timeout)s.")
        % {"time": _seconds(config.set_seconds), "timeout": timeout},
    ]


#: The game → its own rules from its config.
GAMES = {"three_card_poker": three_card_poker, "chinese_poker": chinese_poker}


def game_rules(game: str, config: Any) -> list[str]:
    """The rules of ``game`` that no Guts option states ([] for the Guts games)."""
    rules = GAMES.get(game)
    return rules(config) if rules is not None else []
