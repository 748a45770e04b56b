"""Sit-and-go tournaments (issue 35; docs/tournaments.md): templates, registration, play, the
clock's levels and cancels, on the tables' runtime and the ledger.

The write side: ``templates`` (a new tournament), ``registration`` (entries and their money),
``play`` (the start, the hand-by-hand places, the finish and its prizes), ``levels`` (the
antes rising on the clock), ``cancel`` (refunds), ``money`` (every ledger move of a
tournament, and the keys that name them), ``ledger_check`` (the audit's prize accounts).
A tournament's table plays for chips (cardroom/tables/chips.py): only the entries and the
prizes are money.
"""
