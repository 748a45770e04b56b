"""``verify_hand``: a finished hand's published openings checked against its commitment, and
docs/fairness.md's worked example, recomputed from games/deck.py and redone in a shell."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command, execute_from_command_line

from cardroom.history.history import hand_history
from cardroom.history.verification import hand_openings, published_cards
from cardroom.models import Hand
from cardroom.tables.runtime import table_act
from games.cards import DECK
from games.deck import DeckCommitment, commit_deck, root_hash
from tests.cardroom.driving import play_to_declare

pytestmark = pytest.mark.django_db

FAIRNESS = Path(__file__).resolve().parents[3] / "docs" / "fairness.md"


@pytest.fixture
def hand(survivor_table, seated) -> Hand:
    """A Survivor hand played to its end: Ann and Ben In, Cat Out (her hand mucked)."""
    play_to_declare(survivor_table, seated)
    for player, choice in zip(seated, ("in", "in", "out"), strict=True):
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    hand = Hand.objects.get(table=survivor_table, number=1)
    assert hand.ended is not None
    return hand


def verify(hand: Hand) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_hand", str(hand.table_id), str(hand.number), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def exit_status(hand: Hand) -> int:
    """The status ``python manage.py verify_hand`` exits with (0 when it returns). Run as the
    shell runs it, except that the command line's closing of the database connections at the
    end is skipped: the test's database lives on after it."""
    argv = ["manage.py", "verify_hand", str(hand.table_id), str(hand.number)]
    with mock.patch("django.core.management.base.connections.close_all"):
        try:
            execute_from_command_line(argv)
        except SystemExit as stop:
            return int(stop.code or 0)
    return 0


def tamper(hand: Hand, **deck_changes) -> None:
    deck = {**hand.deck, **deck_changes}
    Hand.objects.filter(pk=hand.pk).update(deck=deck)
    hand.refresh_from_db()


def test_an_untampered_hand_verifies(hand, capsys):
    out, err = verify(hand)
    cards = published_cards(hand)
    assert len(cards) == 9  # three hands of three, each opened to someone
    assert out.splitlines()[-1] == f"OK: 9 openings match the commitment {hand.commitment_root}"
    positions = re.findall(r"^position (\d+): (\w\w) matches its leaf$", out, re.M)
    assert sorted(int(position) for position, _ in positions) == list(range(9))
    assert {card for _, card in positions} == cards
    assert not err
    assert exit_status(hand) == 0


def test_the_openings_checked_are_those_the_hand_page_publishes(hand, seated):
    """Everyone's openings (shown cards) and each player's own, together: every card dealt."""
    published = set()
    for viewer in (None, *(player.pk for player in seated)):
        history = hand_history(hand=hand, user_id=viewer)
        published |= {opening["card"] for opening in history["openings"]}
    assert published == published_cards(hand)
    assert {check.card for check in hand_openings(hand).checks} == published


def test_a_changed_card_fails(hand):
    cards = list(hand.deck["deck"])
    cards[0], cards[1] = cards[1], cards[0]  # two dealt cards swapped in the stored deck
    tamper(hand, deck=cards)
    with pytest.raises(CommandError, match="FAILED: 2 problems"):
        verify(hand)
    assert exit_status(hand) == 1


def test_a_changed_salt_fails_and_says_which_position(hand, capsys):
    salts = list(hand.deck["salts"])
    salts[4] = "0" * 32
    tamper(hand, salts=salts)
    err = StringIO()
    with pytest.raises(CommandError, match="FAILED: 1 problem with"):
        call_command("verify_hand", str(hand.table_id), "1", stdout=StringIO(), stderr=err)
    card = hand.deck["deck"][4]
    assert err.getvalue().startswith(f"position 4: {card} with salt {'0' * 32} hashes to ")
    assert "but the published leaf is " + hand.commitment["leaves"][4] in err.getvalue()
    assert exit_status(hand) == 1


def test_a_card_missing_from_the_stored_deck_is_a_missing_opening(hand):
    cards = list(hand.deck["deck"])
    dealt, cards[2] = cards[2], cards[40]  # an undealt card twice, a dealt one gone
    tamper(hand, deck=cards)
    verification = hand_openings(hand)
    assert f"{dealt}: no opening (not in the stored deck)" in verification.problems
    assert exit_status(hand) == 1


def test_leaves_that_do_not_hash_to_the_root_fail(hand):
    leaves = list(hand.commitment["leaves"])
    leaves[40] = hashlib.sha256(b"another card").hexdigest()  # an undealt position's leaf
    Hand.objects.filter(pk=hand.pk).update(commitment={"leaves": leaves})
    hand.refresh_from_db()
    assert hand_openings(hand).problems == [
        f"the 52 published leaves hash to {root_hash(leaves)}, not to the published root "
        f"{hand.commitment_root}"
    ]
    assert exit_status(hand) == 1


def test_only_an_ended_hand_can_be_verified(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    with pytest.raises(CommandError, match="has not ended: its openings are published when"):
        call_command("verify_hand", str(survivor_table.pk), "1")
    with pytest.raises(CommandError, match=f"table {survivor_table.pk} has no hand 7"):
        call_command("verify_hand", str(survivor_table.pk), "7")


# docs/fairness.md's worked example: a commitment made by games/deck.py with fixed salts.


def worked_example() -> DeckCommitment:
    """The example's deck: the cards in the order of a hash of their names, each position's
    salt the first 16 bytes of a hash of its number (fixed, so the page can be redone)."""
    deck = sorted(
        DECK, key=lambda card: hashlib.sha256(f"example deck {card}".encode()).hexdigest()
    )
    salts = iter(
        hashlib.sha256(f"example salt {i}".encode()).digest()[:16] for i in range(len(deck))
    )
    return commit_deck(deck, salt_source=lambda size: next(salts))


def test_the_worked_example_is_what_games_deck_computes():
    example = worked_example()
    page = FAIRNESS.read_text()
    for position in (0, 3, 6):
        opening = example.opening(position)
        row = f"| {position} | {opening.card} | `{opening.salt_hex}` |"
        assert row in page
        command = f"printf '%s' '{position}:{opening.card}:{opening.salt_hex}' | sha256sum"
        assert f"$ {command}\n{example.leaves[position]}  -\n" in page
    assert f"the root `{example.root}`" in page
    assert "```text\n" + "\n".join(example.leaves) + "\n```" in page


def test_the_worked_examples_commands_give_what_the_page_says(tmp_path):
    """Every ``$ command`` of the page, run in bash beside the page's leaves.txt, prints the
    lines that follow it."""
    page = FAIRNESS.read_text()
    leaves = re.search(r"```text\n(.*?)\n```", page, re.S)
    assert leaves is not None
    (tmp_path / "leaves.txt").write_text(leaves.group(1) + "\n")
    blocks = re.findall(r"```sh\n(.*?)```", page, re.S)
    commands = 0
    for block in blocks:
        for command, expected in re.findall(r"^\$ (.*)\n((?:[^$\n].*\n)*)", block, re.M):
            bash = shutil.which("bash")
            assert bash is not None
            result = subprocess.run(
                [bash, "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True
            )
            assert result.stdout == expected, command
            commands += 1
    assert commands == 5
