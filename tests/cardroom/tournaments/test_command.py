"""``manage.py create_tournament``: the tournament as its flags say, its id on the last line."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cardroom.models import Entry, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command("create_tournament", *args, stdout=out)
    return out.getvalue()


def test_the_issue_s_command_prints_the_id_last(db):
    out = _run(
        "--game", "guts", "--preset", "survivor", "--seats", "6", "--buy-in", "1000",
        "--fee", "100", "--chips", "1500", "--bots", "1",
    )  # fmt: skip
    last = out.strip().splitlines()[-1]
    tournament = Tournament.objects.get()
    assert last == str(tournament.pk)
    assert (tournament.game, tournament.preset, tournament.seats) == ("guts", "survivor", 6)
    assert (tournament.buy_in, tournament.fee, tournament.chips) == (1000, 100, 1500)
    assert tournament.bots_allowed == 1 and tournament.payouts == [6500, 3500]
    assert tournament.status == TournamentStatus.REGISTERING
    assert Entry.objects.filter(tournament=tournament, user__is_bot=True).count() == 1


def test_levels_payouts_name_and_repeat(db):
    out = _run(
        "--game", "chinese_poker", "--preset", "unit-1", "--seats", "4", "--buy-in", "500",
        "--fee", "50", "--chips", "400", "--levels", "5:3,10:3,20:3", "--payouts", "10000",
        "--name", "Friday CP", "--repeat",
    )  # fmt: skip
    tournament = Tournament.objects.get(pk=int(out.strip().splitlines()[-1]))
    assert tournament.name == "Friday CP" and tournament.repeat
    assert tournament.levels == [
        {"ante": 5, "minutes": 3}, {"ante": 10, "minutes": 3}, {"ante": 20, "minutes": 3}
    ]  # fmt: skip
    assert tournament.payouts == [10000]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "three_card_poker", "--preset", "standard"], "sit-and-gos are played at"),
        (["--game", "guts", "--preset", "survivor", "--levels", "10-5"], "ante:minutes"),
        (["--game", "guts", "--preset", "custom"], "unknown preset"),
        (["--game", "guts", "--preset", "survivor", "--payouts", "7000,2000"], "add up to 9000"),
    ],
)
def test_bad_settings_are_refused_in_words_and_nothing_is_created(db, args, words):
    with pytest.raises(CommandError, match=words):
        _run(*args, "--seats", "6", "--buy-in", "1000", "--fee", "100", "--chips", "1500")
    assert not Tournament.objects.exists()
