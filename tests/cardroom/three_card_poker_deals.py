"""Three Card Poker hands for fixed decks (with tests/games/three_card_poker/helpers.py's
``deck_for``): Ann's pair plays and wins, Ben's ace-high folds, the dealer qualifies."""

from __future__ import annotations

ANN = "4c 4d 9s"  # a pair: plays, beats the dealer, wins Pair Plus 1 to 1


BEN = "Ac Kh 2d"  # ace-high: times out, so folds


DEALER = "Kd 9h 3s"  # king-high: qualifies
