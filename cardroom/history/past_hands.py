"""The pages of past hands: the replayer, a player's own hands and their downloads.

The replayer and the downloads are built from the viewer's redacted history, as the hand page
is (cardroom/history/replayer.py, cardroom/history/export.py): whoever asks sees what the hand page
would show them, never more. Downloads stream (StreamingHttpResponse), hand by hand.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from accounts.language import counting_chips, said
from accounts.models import AccountKind, Transfer, User
from cardroom.history.export import (
    Period,
    game_title,
    hand_records,
    jsonl_lines,
    language_for,
    player_hands,
    stakes_words,
    text_hands,
)
from cardroom.history.replayer import hand_replay
from cardroom.models import Hand
from cardroom.presentation import CardFace
from games.words import sentence_of

__all__ = ["hand_replay_page", "my_hands", "my_hands_download", "streamed"]

#: The download formats: (content type, file name suffix, the lines of the records).
FORMATS = {
    "jsonl": ("application/x-ndjson; charset=utf-8", "jsonl", jsonl_lines),
    "text": ("text/plain; charset=utf-8", "txt", text_hands),
}
#: Hands per page of a player's history.
PAGE_SIZE = 50
#: Pieces handed from the database thread to an ASGI server at a time.
BATCH = 20


@login_required
def hand_replay_page(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """A hand step by step, as this user may see it (the hand page's rules); ``?step=N`` draws
    step N without the script, which otherwise steps through the embedded steps itself."""
    hand = get_object_or_404(Hand.objects.select_related("table"), table_id=table_id, number=number)
    # A sit-and-go's hand counts chips: its steps' amounts are drawn as chips.
    with counting_chips(hand.table.plays_for_chips):
        user: User = request.user  # type: ignore[assignment]
        replay = hand_replay(hand=hand, user_id=user.pk)
        last = len(replay.steps) - 1
        try:
            index = min(max(int(request.GET.get("step", 0)), 0), last)
        except ValueError:
            index = 0
        context = {
            "table": hand.table,
            "hand": hand,
            "title": game_title(hand.table),
            "stakes": stakes_words(hand.table),
            "steps": replay.steps,
            "step": drawn(replay.steps[index]),
            "previous": max(index - 1, 0),
            "next": min(index + 1, last),
            "last": last,
        }
        return render(request, "cardroom/replay.html", context)


def drawn(step: dict[str, Any]) -> dict[str, Any]:
    """A step with each card as a face the templates draw and its face-down cards counted."""
    seats = []
    for seat in step["seats"]:
        rows = seat.get("rows") or {}
        seats.append(
            {
                **seat,
                "faces": [CardFace.of(card) for card in seat["cards"]] if not rows else [],
                "backs": range(seat["down"]),
                "row_faces": [
                    (name, [CardFace.of(card) for card in rows.get(name, [])])
                    for name in ("front", "middle", "back")
                ]
                if rows
                else [],
                "point_faces": [CardFace.of(card) for card in seat["points"]],
            }
        )
    board = [
        {**hand, "faces": [CardFace.of(c) for c in hand["cards"]], "backs": range(hand["down"])}
        for hand in step["board"]
    ]
    return {**step, "seats": seats, "board": board}


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    """The hands this player sat in, newest first, with what each won or lost, and downloads of
    them (all, or a period) as JSON lines or text."""
    user: User = request.user  # type: ignore[assignment]
    start, end = request.GET.get("from", ""), request.GET.get("to", "")
    error, period = "", None
    if start or end:
        try:
            period = Period.parse(start or "2000-01-01", end or "2999-12-31")
        except ValueError as problem:
            error = said(sentence_of(problem))
    hands = player_hands(user.pk, period).select_related("table").reverse()
    page = Paginator(hands, PAGE_SIZE).get_page(request.GET.get("page"))
    results = _results(user, [hand.pk for hand in page])
    rows = [
        {"hand": hand, "title": game_title(hand.table), "net": results.get(hand.pk, 0)}
        for hand in page
    ]
    query = urlencode({key: value for key, value in (("from", start), ("to", end)) if value})
    context = {
        "rows": rows,
        "page": page,
        "start": start,
        "end": end,
        "error": error,
        "query": query,
    }
    return render(request, "cardroom/my_hands.html", context, status=400 if error else 200)


def _results(user: User, hand_ids: list[int]) -> dict[int, int]:
    """What the player won or lost in each hand: the ledger's moves in and out of their table
    stacks, leaving out sitting down and cashing out. One query for the page."""
    found: defaultdict[int, int] = defaultdict(int)
    stack = AccountKind.STACK
    mine = Q(source__user=user, source__kind=stack) | Q(target__user=user, target__kind=stack)
    cashier = Q(source__kind=AccountKind.BANKROLL) | Q(target__kind=AccountKind.BANKROLL)
    transfers = Transfer.objects.filter(mine, hand_id__in=hand_ids).exclude(cashier)
    for hand_id, amount, source_user, source_kind in transfers.values_list(
        "hand_id", "amount", "source__user_id", "source__kind"
    ):
        paid = source_user == user.pk and source_kind == stack
        if hand_id is not None:
            found[hand_id] += -amount if paid else amount
    return dict(found)


@login_required
def my_hands_download(request: HttpRequest) -> HttpResponseBase:
    """The player's hands (all, or ``from``/``to``) as they may read them: ``format=jsonl``
    (docs/hand-history.md) or ``format=text``, streamed."""
    user: User = request.user  # type: ignore[assignment]
    kind = request.GET.get("format", "jsonl")
    if kind not in FORMATS:
        return HttpResponseBadRequest(_("The format is jsonl or text."), content_type="text/plain")
    period = None
    start, end = request.GET.get("from", ""), request.GET.get("to", "")
    if start or end:
        try:
            period = Period.parse(start or "2000-01-01", end or "2999-12-31")
        except ValueError as error:
            return HttpResponseBadRequest(
                said(sentence_of(error)), content_type="text/plain; charset=utf-8"
            )
    content_type, suffix, lines = FORMATS[kind]
    records = hand_records(
        player_hands(user.pk, period), viewer=user.pk, language=language_for(kind)
    )
    return streamed(request, lines(records), content_type, f"my-hands.{suffix}")


def streamed(
    request: HttpRequest, pieces: Iterator[str], content_type: str, filename: str
) -> StreamingHttpResponse:
    """A download streamed piece by piece. Under ASGI the pieces are read from the database in
    a worker thread a few at a time (an ASGI server given a plain iterator would read it whole
    first); under WSGI they are read as the server sends them."""
    content: Iterator[str] | AsyncIterator[str]
    content = _in_batches(pieces) if isinstance(request, ASGIRequest) else pieces
    response = StreamingHttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Accel-Buffering"] = "no"  # nginx passes each piece on as it comes
    return response


async def _in_batches(pieces: Iterator[str]) -> AsyncIterator[str]:
    take = sync_to_async(lambda: "".join(itertools.islice(pieces, BATCH)), thread_sensitive=True)
    while batch := await take():
        yield batch
