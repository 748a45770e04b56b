"""Every page writes a date and an amount one way per language (issue 37): each moment is a
``<time>`` element in the language's pattern, in UTC and saying so, which the pages' script
rewrites in the reader's zone; each negative amount has the one minus sign, U+2212."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from accounts.language import MINUS, MOMENT_FORMATS, day_text, moment_text, money_text
from cardroom.models import Hand
from cardroom.responsible.services import exclusion_record
from cardroom.tables.runtime import table_act
from tests.cardroom.driving import play_to_declare
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

TIME = re.compile(r"<time\b[^>]*>.*?</time>", re.S)
#: Ways of writing a moment other than the one (outside <time> elements): ISO with a clock,
#: a US date, a 12-hour clock, a month's abbreviation.
OTHER_WAYS = re.compile(
    r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\b\d{1,2}/\d{1,2}/\d{4}\b"
    r"|\b[ap]\.m\.|\b\d{1,2}:\d{2} ?[AP]M\b"
    r"|\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\. \d"
)
PATTERN = {"Y": r"\d{4}", "m": r"\d{2}", "d": r"\d{2}", "H": r"\d{2}", "i": r"\d{2}"}


def element_pattern(code: str) -> re.Pattern[str]:
    written = "".join(PATTERN.get(char, re.escape(char)) for char in MOMENT_FORMATS[code])
    return re.compile(
        rf'<time datetime="\d{{4}}-\d{{2}}-\d{{2}}T\d{{2}}:\d{{2}}:\d{{2}}Z" data-local '
        rf'data-format="{re.escape(MOMENT_FORMATS[code])}">{written} UTC</time>'
    )


def check_dates(html: str, code: str, page: str) -> int:
    found = TIME.findall(html)
    for element in found:
        assert element_pattern(code).fullmatch(element), (page, code, element)
    shown = re.sub(
        r"<[^>]+>", " ", re.sub(r"<script\b.*?</script>", "", TIME.sub("", html), flags=re.S)
    )
    assert not OTHER_WAYS.search(shown), (page, code, OTHER_WAYS.search(shown))
    return len(found)


def check_minus(html: str, page: str) -> None:
    # A hyphen before an amount ("-$5.00", "-5,00") is a second way of writing a minus.
    text = re.sub(r"<[^>]+>", " ", html)
    hyphen = re.search(r"(?<![\w-])-(\$\d|\d+[.,]\d{2}\b)", text)
    assert hyphen is None, (page, hyphen and text[hyphen.start() - 40 : hyphen.end() + 10])


def test_the_pattern_and_the_minus_in_each_language():
    moment = datetime(2026, 12, 2, 18, 12, 40, tzinfo=UTC)
    expected = {"en": "2026-12-02 18:12 UTC", "es": "02/12/2026 18:12 UTC"}
    expected["nb"] = "02.12.2026 18:12 UTC"
    for code, text in expected.items():
        with translation.override(code):
            assert moment_text(moment) == text
            assert day_text(moment.date()) == text[:10]
            assert money_text(-5_000).startswith(MINUS)
            assert "-" not in money_text(-5_000)


@pytest.fixture
def played(survivor_table, seated):
    """A hand played to its end at the Survivor table: ann and ben In, cat Out."""
    play_to_declare(survivor_table, seated)
    for player, choice in zip(seated, ("in", "in", "out"), strict=True):
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    return Hand.objects.get(table=survivor_table, number=1)


@pytest.mark.parametrize("code", ["en", "es", "nb"])
def test_every_players_page_writes_dates_and_amounts_one_way(client, played, seated, code):
    ann = seated[0]
    exclusion_record(
        user=seated[2], days=1, kind="time_out", reason="test", by=seated[2], now=timezone.now()
    )
    pages = {
        "cashier": reverse("cashier"),
        "account": reverse("account"),
        "statistics": reverse("stats"),
        "limits": reverse("limits"),
        "your hands": reverse("my-hands"),
        "hand": reverse("hand", args=[played.table_id, played.number]),
        "table": reverse("table", args=[played.table_id]),
    }
    times = 0
    seen = {}
    for who in (ann, seated[2]):
        client.force_login(who)
        for name, url in pages.items():
            response = client.get(url, headers={"accept-language": code})
            assert response.status_code == 200, name
            html = response.content.decode()
            times += check_dates(html, code, name)
            check_minus(html, name)
            seen[who.username, name] = html
    assert times >= 6  # the cashier's lines, the statistics' sessions, the hands, the time-out
    # Buy-ins and the antes cat lost Out are negative amounts, shown with the one sign.
    with translation.override(code):
        bought, ante = money_text(-20_000), money_text(-100)
    assert bought in seen["ann", "cashier"] and bought in seen["cat", "cashier"]
    assert ante in seen["cat", "statistics"]
    assert MINUS in seen["ann", "hand"]  # a loser's net


@pytest.mark.parametrize("code", ["en", "nb"])
def test_every_operators_page_writes_dates_one_way(played, seated, operator, as_user, code):
    exclusion_record(
        user=seated[2], days=1, kind="time_out", reason="test", by=seated[2], now=timezone.now()
    )
    client = as_user(operator)
    urls = [
        reverse("operators"),
        reverse("operators-log"),
        reverse("operators-responsible"),
        reverse("operators-table", args=[played.table_id]),
    ]
    times = 0
    for url in urls:
        response = client.get(url, headers={"accept-language": code})
        assert response.status_code == 200, url
        times += check_dates(response.content.decode(), code, url)
    assert times >= 3
