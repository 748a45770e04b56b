"""The cardroom's pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

GAMES = (
    ("Monte Carlo Guts", "Three cards, In or Out at once; every loser matches the pot."),
    ("Survivor Guts", "As Monte Carlo, but only the lowest hand In pays."),
    ("Classic Guts", "The home game with its house rules: ghost hands, Hi-Lo, 3-5-7 and more."),
    ("Chinese Poker", "Thirteen cards set into three rows, scored pair by pair."),
    ("Three Card Poker", "Ante, Play and Pair Plus against the house."),
)


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the cardroom offers."""
    return render(request, "cardroom/home.html", {"games": GAMES})
