"""The seat wait list of a full table: the line has priority, offers expire, pages show it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.models import Seat, TableStatus
from cardroom.models.waitlist import WaitingPlayer
from cardroom.tables.runtime import table_act, table_create
from cardroom.waitlist.services import (
    OFFER_SECONDS,
    WaitListError,
    wait_list_join,
    wait_list_leave,
    waitlist_sweep,
)
from games.engine import IllegalAction
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_table(make_player):
    """A two-seat Survivor table with both seats taken by ann and ben."""
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Heads up"
    )
    for name in ("ann", "ben"):
        table_act(
            table_id=table.pk, user=make_player(name), action={"kind": "sit", "buy_in": 20_000}
        )
    return table


def _sit(table, user):
    return table_act(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000})


def _stand_up(table, name):
    seat = Seat.objects.get(table=table, user__username=name, left__isnull=True)
    table_act(table_id=table.pk, user=seat.user, action={"kind": "leave"})


def test_players_queue_in_the_order_they_ask_and_may_leave_the_line(full_table, make_player):
    cat, dan = make_player("cat"), make_player("dan")
    assert wait_list_join(table_id=full_table.pk, user=cat).position == 1
    place = wait_list_join(table_id=full_table.pk, user=dan)
    assert (place.position, place.waiting, place.offered_until) == (2, 2, None)
    # Asking again keeps one's place.
    assert wait_list_join(table_id=full_table.pk, user=cat).position == 1
    assert wait_list_leave(table_id=full_table.pk, user=cat) is True
    assert wait_list_join(table_id=full_table.pk, user=cat).position == 2
    assert wait_list_leave(table_id=full_table.pk, user=make_player("eve")) is False


def test_nobody_joins_the_line_of_a_table_with_a_free_seat_or_where_they_sit(
    survivor_table, full_table, make_player
):
    with pytest.raises(WaitListError, match="A seat is free"):
        wait_list_join(table_id=survivor_table.pk, user=make_player("cat"))
    ann = Seat.objects.get(table=full_table, user__username="ann").user
    with pytest.raises(WaitListError, match="already have a seat"):
        wait_list_join(table_id=full_table.pk, user=ann)
    full_table.status = TableStatus.CLOSING
    full_table.save(update_fields=["status"])
    with pytest.raises(WaitListError, match="closing"):
        wait_list_join(table_id=full_table.pk, user=make_player("dan"))
    assert not WaitingPlayer.objects.exists()


def test_a_freed_seat_goes_to_the_first_in_line_and_nobody_else(full_table, make_player):
    cat, dan, eve = make_player("cat"), make_player("dan"), make_player("eve")
    wait_list_join(table_id=full_table.pk, user=cat)
    wait_list_join(table_id=full_table.pk, user=dan)
    _stand_up(full_table, "ben")
    # Before the clock has offered the seat, the line already holds it.
    for passer_by in (eve, dan):
        with pytest.raises(IllegalAction, match="held for a player on the wait list"):
            _sit(full_table, passer_by)
    assert waitlist_sweep() == 1
    offered = WaitingPlayer.objects.get(user=cat)
    assert offered.offered_until is not None
    assert WaitingPlayer.objects.get(user=dan).offered_until is None
    _sit(full_table, cat)
    assert Seat.objects.filter(table=full_table, user=cat, left__isnull=True).exists()
    # Seated: out of the line; dan is first now, and no seat is free for an offer.
    assert list(WaitingPlayer.objects.values_list("user__username", flat=True)) == ["dan"]
    assert waitlist_sweep() == 0


def test_an_offer_not_taken_in_time_goes_to_the_next_in_line(full_table, make_player):
    cat, dan = make_player("cat"), make_player("dan")
    wait_list_join(table_id=full_table.pk, user=cat)
    wait_list_join(table_id=full_table.pk, user=dan)
    _stand_up(full_table, "ben")
    now = timezone.now()
    assert waitlist_sweep(now=now) == 1
    # Within the offer, a second sweep makes no other offer for the same seat.
    assert waitlist_sweep(now=now + timedelta(seconds=OFFER_SECONDS - 1)) == 0
    later = now + timedelta(seconds=OFFER_SECONDS + 1)
    assert waitlist_sweep(now=later) == 1
    assert list(WaitingPlayer.objects.values_list("user__username", flat=True)) == ["dan"]
    # cat's offer is over: the seat is dan's now.
    with pytest.raises(IllegalAction, match="held"):
        table_act(
            table_id=full_table.pk,
            user=cat,
            action={"kind": "sit", "buy_in": 20_000},
            now=later + timedelta(seconds=1),
        )
    table_act(
        table_id=full_table.pk,
        user=dan,
        action={"kind": "sit", "buy_in": 20_000},
        now=later + timedelta(seconds=1),
    )
    assert not WaitingPlayer.objects.exists()


def test_a_closing_table_ends_its_line(full_table, make_player):
    wait_list_join(table_id=full_table.pk, user=make_player("cat"))
    full_table.status = TableStatus.CLOSING
    full_table.save(update_fields=["status"])
    assert waitlist_sweep() == 0
    assert not WaitingPlayer.objects.exists()


def test_the_lobby_offers_the_line_and_shows_each_players_place(client, full_table, make_player):
    cat, dan = make_player("cat"), make_player("dan")
    client.force_login(cat)
    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    assert "Join the wait list" in rows and "2 / 2" in rows
    response = client.post(
        reverse("wait-list-join", args=[full_table.pk]), {"next": reverse("lobby")}
    )
    assert response.status_code == 302 and response.url == reverse("lobby")
    page = client.get(reverse("lobby")).content.decode()
    assert "You are number 1 in line for Heads up." in page
    assert "you are 1 of 1 waiting" in page and "Leave the wait list" in page
    client.force_login(dan)
    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    assert "1 waiting" in rows and "Join the wait list" in rows
    # A seat frees: cat's lobby says so at its next refresh, outside the rows (out of band).
    _stand_up(full_table, "ben")
    waitlist_sweep()
    client.force_login(cat)
    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    offers = rows[rows.index('id="lobby-offers"') :]
    assert 'hx-swap-oob="true"' in offers
    assert "A seat is yours at Heads up." in offers and "Take the seat" in offers
    page = client.get(reverse("lobby")).content.decode()
    assert "A seat is yours at Heads up." in page


def test_the_table_page_lets_a_watcher_queue_and_tells_them_when_a_seat_is_theirs(
    client, full_table, make_player
):
    cat = make_player("cat")
    client.force_login(cat)
    page = client.get(reverse("table", args=[full_table.pk])).content.decode()
    panel = page[page.index('id="wait-list"') :]
    assert "The table is full." in panel and "Join the wait list" in panel
    assert 'hx-trigger="every 5s"' in panel
    panel = client.post(
        reverse("wait-list-join", args=[full_table.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "You are number 1 of 1 in line" in panel
    _stand_up(full_table, "ben")
    waitlist_sweep()
    panel = client.get(reverse("wait-list", args=[full_table.pk])).content.decode()
    assert "A seat is yours." in panel and "seconds" in panel
    _sit(full_table, cat)
    panel = client.get(reverse("wait-list", args=[full_table.pk])).content.decode()
    # Seated: the panel stops polling and says nothing.
    assert "every 5s" not in panel and "hidden" in panel


def test_joining_is_a_post_and_a_refusal_is_shown(client, survivor_table, make_player):
    client.force_login(make_player("cat"))
    url = reverse("wait-list-join", args=[survivor_table.pk])
    assert client.get(url).status_code == 405
    panel = client.post(url, headers={"HX-Request": "true"}).content.decode()
    assert "A seat is free: sit down now" in panel and 'role="alert"' in panel
    # A redirect elsewhere than this site is not followed.
    response = client.post(url, {"next": "https://example.com/"})
    assert response.url == reverse("table", args=[survivor_table.pk])
    assert not WaitingPlayer.objects.exists()


def test_the_operator_console_lists_who_waits_in_order(full_table, make_player, as_user, operator):
    cat, dan = make_player("cat"), make_player("dan")
    client = as_user(operator)
    url = reverse("operators-table", args=[full_table.pk])
    assert "Nobody is waiting for a seat here." in client.get(url).content.decode()
    wait_list_join(table_id=full_table.pk, user=dan)
    wait_list_join(table_id=full_table.pk, user=cat)
    page = client.get(url).content.decode()
    listed = page[page.index('id="operator-wait-list"') :]
    assert listed.index("dan") < listed.index("cat")
    _stand_up(full_table, "ben")
    waitlist_sweep()
    page = client.get(url).content.decode()
    listed = page[
        page.index('id="operator-wait-list"') : page.index(
            "</table>", page.index('id="operator-wait-list"')
        )
    ]
    # dan, first in line, holds the offer: a time, where cat's row has none.
    assert listed.count("<time") == 3
