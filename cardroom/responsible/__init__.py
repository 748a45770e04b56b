"""Responsible gaming: limits a player sets, reality checks, time-outs and self-exclusion.

The rules are in docs/responsible-gaming.md. The models live here, in the cardroom app, because
the table runtime enforces them (accounts sits below the cardroom and knows nothing of them):
``checks`` holds what the runtime asks before new money goes into play and at each point
between hands, ``services`` every change a player, support or an operator makes, ``usage`` the
sums read from the ledger and the play session read from the seats.
"""
