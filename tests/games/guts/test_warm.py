"""The server builds the online rooms' evaluators as it starts (games.guts.showdown.warm)."""

from __future__ import annotations

from games.guts.showdown import hand_key, warm


def test_warm_builds_the_evaluators_the_online_showdown_uses():
    hand_key.cache_clear()
    warm()
    built = hand_key.cache_info().currsize
    hand_key("three_card")  # what games/guts/rounds.py asks for at a showdown
    assert built == 2
    assert hand_key.cache_info().hits == 1
