"""The hand page leads with what happened; "Your hands" lists the hands the statistics count."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardroom.history.export import player_hands
from cardroom.models import Hand
from cardroom.stats.period import Period
from cardroom.stats.player import player_stats
from cardroom.tables.runtime import table_act
from tests.cardroom.driving import play_to_declare

pytestmark = pytest.mark.django_db


def finish_with_a_late_sitter(table, players, make_player):
    """Hand 1 played by ann, ben and cat, while dan sits down during it (dealt nothing)."""
    ann, ben, cat = players
    play_to_declare(table, players)
    dan = make_player("dan")
    table_act(table_id=table.pk, user=dan, action={"kind": "sit", "buy_in": 20_000})
    for player, choice in ((ann, "in"), (ben, "in"), (cat, "out")):
        table_act(table_id=table.pk, user=player, action={"kind": "declare", "choice": choice})
    return dan


def test_the_hand_page_shows_what_happened_before_the_proof(client, survivor_table, seated):
    ann, _, _ = seated
    play_to_declare(survivor_table, seated)
    for player, choice in zip(seated, ("in", "in", "out"), strict=True):
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    client.force_login(ann)
    page = client.get(reverse("hand", args=[survivor_table.pk, 1])).content.decode()
    happened = page.index('id="hand-outcome"')
    proof = page.index('<details class="hand-verification"')
    assert happened < page.index('<ol class="events">') < proof
    # The commitment and the openings are all still there, in the closed section.
    assert page.index("Deck commitment") > proof
    assert page.index("✔ matches") > proof
    assert '<details class="hand-verification" id="verification">' in page  # not open
    outcome = page[happened:proof]
    for name in ("ann", "ben", "cat"):
        assert f"<strong>{name}</strong>" in outcome
    assert "In all:" in outcome
    assert "\u2212$" in outcome  # a loser's net, with the one minus sign
    hand = Hand.objects.get(table=survivor_table, number=1)
    assert hand.commitment_root in page[proof:]


def test_your_hands_lists_only_the_hands_the_statistics_count(
    client, survivor_table, seated, make_player
):
    dan = finish_with_a_late_sitter(survivor_table, seated, make_player)
    assert not Hand.objects.filter(ended__isnull=True).exists()  # no hand in play to differ
    for player, hands in ((seated[0], 1), (seated[1], 1), (seated[2], 1), (dan, 0)):
        client.force_login(player)
        listed = client.get(reverse("my-hands")).context["page"].paginator.count
        assert listed == player_stats(user=player, period=Period()).hands == hands
    client.force_login(dan)
    page = client.get(reverse("my-hands")).content.decode()
    assert "No hands yet." in page and "even" not in page
    assert list(player_hands(dan.pk)) == []
