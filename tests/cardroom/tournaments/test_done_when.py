"""Issue 35's "Done when", end to end through the pages: an operator creates a template in the
console, seats the bot it allows, five players register from the lobby, it plays to the end by
itself (the clock, the timeouts and the bot), prizes and fees land in the ledger to the cent,
and the leaderboard shows the result; the pages say it in English, Spanish and Norwegian."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from accounts.audit import ledger_audit
from accounts.models import Transfer, TransferKind
from cardroom.history.journal_audit import table_replay
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from cardroom.tournaments.leaderboard import period_bounds
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.tournaments.driving import play_out
from tests.cardroom.tournaments.money import balance, bankroll

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
GRANT = 100_000
FORM = {
    "name": "Done-when Survivor", "game": "guts", "preset": "survivor", "seats": "6",
    "buy_in": "10", "fee": "1", "chips": "1500", "levels": "10 1\n40 1\n100 1\n250 1",
    "payouts": "65 35", "bots": "1",
}  # fmt: skip


class _Text(HTMLParser):
    """The text a reader sees: text nodes, and the attributes read aloud or shown."""

    SHOWN = ("aria-label", "title", "placeholder", "alt", "data-label")

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        self.nodes += [value.strip() for name, value in attrs if name in self.SHOWN and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.nodes.append(" ".join(data.split()))


def _shown(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.nodes


def _english_left(code: str, html: str) -> list[str]:
    """The texts of the page that are a string marked for translation left in English (its
    translation in ``code`` differs), placeholders standing for anything."""
    catalogue = polib.pofile(str(ROOT / "locale" / code / "LC_MESSAGES" / "django.po"))
    patterns = []
    for entry in catalogue.translated_entries():
        if entry.msgid_plural or entry.msgstr.strip() == entry.msgid.strip():
            continue
        english = " ".join(entry.msgid.split())
        literal = re.sub(r"%\(\w+\)[sd]|\{\w*\}", "", english)
        if sum(char.isalpha() for char in literal) < 6:
            continue  # too little of its own to tell it from a sentence in another language
        pattern = re.escape(english.replace("%%", "%"))
        pattern = re.sub(r"%\\\(\w+\\\)[sd]|\\\{\w*\\\}", ".+", pattern)
        patterns.append(re.compile(pattern))
    return [node for node in _shown(html) if any(p.fullmatch(node) for p in patterns)]


def _in(client, code: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


def test_an_operators_template_filled_by_five_players_and_a_bot_plays_out_to_the_leaderboard(
    seeded, as_user, operator, make_player, client
):
    console = as_user(operator)
    made = console.post(reverse("operators-tournament-new"), FORM, follow=True)
    assert "Tournament Done-when Survivor is open for registration." in made.content.decode()
    sng = Tournament.objects.get(name="Done-when Survivor")
    assert (sng.seats, sng.buy_in, sng.fee, sng.chips, sng.bots_allowed) == (6, 1000, 100, 1500, 1)

    seated = console.post(reverse("operators-tournament-bots", args=[sng.pk]), follow=True)
    assert "1 house bot registered for Done-when Survivor." in seated.content.decode()

    people = [make_player(name) for name in ("ann", "ben", "cat", "dan", "eve")]
    for number, person in enumerate(people):
        client.force_login(person)
        if number == 2:  # the lobby, mid-registration, in each language
            for code in ("es", "nb"):
                lobby = _in(client, code).get(reverse("lobby")).content.decode()
                assert f'lang="{code}"' in lobby and "Done-when Survivor" in lobby
                assert _english_left(code, lobby) == []
            _in(client, "en")
        answer = client.post(
            reverse("tournament-register", args=[sng.pk]),
            {"next": reverse("lobby")},
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200
        assert "You are registered for Done-when Survivor." in answer.content.decode()
    sng.refresh_from_db()
    assert sng.status == TournamentStatus.RUNNING

    play_out(sng, sng.started)
    sng.refresh_from_db()
    assert sng.status == TournamentStatus.FINISHED
    assert sng.level > 0  # the clock raised the antes on the way

    # The money, to the cent: the pool is the six buy-ins, paid 65/35; the fees are the five
    # people's (the bot pays none); the prize account is empty; chips never reached the ledger.
    entries = list(Entry.objects.filter(tournament=sng).select_related("user").order_by("place"))
    assert len(entries) == 6 and [e.user.is_bot for e in entries].count(True) == 1
    assert [e.status for e in entries].count(EntryStatus.WON) == 1
    places = sorted(e.place for e in entries)
    if places[:3] == [1, 2, 3]:  # no tie for the paid places (ties share: test_payouts.py)
        assert [e.prize for e in entries][:3] == [3_900, 2_100, 0]
    assert sum(e.prize for e in entries) == 6_000
    prizes = Transfer.objects.filter(kind=TransferKind.PRIZE).select_related("source", "target")
    assert {(t.source.code, t.target.code, t.amount) for t in prizes} == {
        (f"prize:n{sng.pk}", f"bankroll:u{e.user_id}", e.prize) for e in entries if e.prize
    }
    fees = Transfer.objects.filter(kind=TransferKind.TOURNAMENT_FEE)
    assert list(fees.values_list("amount", flat=True)) == [100] * 5
    buy_ins = Transfer.objects.filter(kind=TransferKind.TOURNAMENT_BUY_IN)
    assert list(buy_ins.values_list("amount", flat=True)) == [1_000] * 6
    assert balance("fees") == 500
    assert balance(f"prize:n{sng.pk}") == 0
    for entry in entries:
        if not entry.user.is_bot:
            assert bankroll(entry.user) == GRANT - 1_100 + entry.prize
    assert not Transfer.objects.filter(table_id=sng.table_id).exists()
    assert ledger_audit().ok and table_replay(table=sng.table).ok

    # The leaderboard, page and JSON: the five people, ranked by points, with their prizes.
    day = sng.ended.date().isoformat()
    query = f"?game=guts&period=week&at={day}"
    board = client.get(reverse("leaderboards-json") + query).json()
    assert period_bounds("week", sng.ended.date()).start.date().isoformat() == board["start"]
    people_entries = [e for e in entries if not e.user.is_bot]
    assert {
        row["player"]: (row["points"], row["prizes"], row["wins"]) for row in board["rows"]
    } == {
        e.user.username: (10 * (6 - e.place + 1), e.prize, int(e.place == 1))
        for e in people_entries
    }
    assert [row["points"] for row in board["rows"]] == sorted(
        (row["points"] for row in board["rows"]), reverse=True
    )
    page = client.get(reverse("leaderboards") + query).content.decode()
    table = page[page.index('id="leaderboard"') :]
    best = board["rows"][0]
    cents = best["prizes"]
    assert best["player"] in table and f"${cents // 100:,}.{cents % 100:02d}" in table

    # The tournament's page and the leaderboard in Spanish and Norwegian: no marked string
    # left in English, and the words and amounts of each language.
    english = client.get(reverse("tournament", args=[sng.pk])).content.decode()
    assert len(_english_left("es", english)) > 10  # the check finds English where it is
    words = {
        "es": ("Premios", "Puntos", "Clasificaciones"),
        "nb": ("Premier", "Poeng", "Resultatlister"),
    }
    for code in ("es", "nb"):
        client = _in(client, code)
        tournament_page = client.get(reverse("tournament", args=[sng.pk])).content.decode()
        board_page = client.get(reverse("leaderboards") + query).content.decode()
        rows = client.get(reverse("tournament-rows")).content.decode()
        for html in (tournament_page, board_page, rows):
            assert _english_left(code, html) == []
        assert "60,00\xa0$" in tournament_page  # the pool, as the language writes dollars
        prize_words, points_word, board_word = words[code]
        assert prize_words in tournament_page and points_word in board_page
        assert board_word in board_page
        assert best["player"] in board_page
