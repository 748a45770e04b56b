"""Sit-and-go tournaments' pure rules: who is out, finishing places, prizes, points and levels.

Nothing here knows a table's runtime, money or the clock: the cardroom's tournament context
(cardroom/tournaments/) calls these with what it read.

- :mod:`games.tournament.busted`: who is out of chips, from a game's spectator view;
- :mod:`games.tournament.places`: the places of the players out in one hand (ties);
- :mod:`games.tournament.payouts`: payout shares, prizes by place, awards with ties;
- :mod:`games.tournament.points`: leaderboard points by place and field size;
- :mod:`games.tournament.levels`: the levels' shape, and the default ladder.
"""

__all__: list[str] = []
