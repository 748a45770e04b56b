"""Showing cents to people, without a float anywhere, in the active language's separators
(accounts/language.py); the rules' own English is games.money's.

``format_cents`` writes an amount of the table being drawn: money, or a tournament's chips
inside ``counting_chips`` (accounts/language.py). ``format_cash`` is always money (a bankroll,
a buy-in, a prize), whatever is being drawn around it.
"""

from __future__ import annotations

from accounts.language import cash_text as format_cash
from accounts.language import counting_chips
from accounts.language import money_text as format_cents

__all__ = ["counting_chips", "format_cash", "format_cents"]
