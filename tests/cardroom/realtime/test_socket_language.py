"""Each table socket speaks its handshake's language (docs/languages.md).

The catalogues may not hold a translation yet, so the translation is faked: ``accounts.language``
looks its templates up through ``gettext``, replaced here by one that answers a marker for the
templates under test while Spanish or Norwegian is active. What is checked is the consumer's
side: the language it takes from the handshake, that refusals are said in it (with the
language's money format), that codes do not change, and that the page is drawn in it.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

import accounts.language
import cardroom.realtime.consumers
from accounts.services import user_create
from cardroom.asgi import application
from cardroom.models import Table
from cardroom.realtime.auth import token_create
from tests.cardroom.sockets import ORIGIN

pytestmark = [pytest.mark.django_db(transaction=True)]

SIT_DOWN = "the least you may sit down with is {amount}"
UNKNOWN_TYPE = "unknown type {type}; types: action, sync"
#: What the fake catalogue says, by language and template.
FAKE = {
    "es": {SIT_DOWN: "ES-MARCA lo mínimo para sentarse: {amount}", UNKNOWN_TYPE: "ES-TIPO {type}"},
    "nb": {SIT_DOWN: "NB-MERKE minst {amount} for å sette seg", UNKNOWN_TYPE: "NB-TYPE {type}"},
}
#: The Survivor table below asks at least $1,000.00 to sit: a thousands separator shows.
ENGLISH_REFUSAL = "the least you may sit down with is $1,000.00"
LOCAL_MONEY = "1\xa0000,00\xa0$"


@pytest.fixture(autouse=True)
def fake_catalogue(monkeypatch):
    real = accounts.language.gettext

    def gettext(message: str) -> str:
        language = (translation.get_language() or "en").split("-")[0]
        return FAKE.get(language, {}).get(message) or real(message)

    monkeypatch.setattr(accounts.language, "gettext", gettext)


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 1000, "seats": 6}, name="Big table"
    )


async def _socket(path: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    user = await sync_to_async(user_create)(username="ann")
    token = await sync_to_async(token_create)(user=user)
    communicator = WebsocketCommunicator(
        application,
        path,
        headers=[ORIGIN, (b"authorization", f"Bearer {token}".encode()), *headers],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _api_answer(communicator: WebsocketCommunicator, message: dict) -> dict:
    await communicator.send_to(text_data=json.dumps(message))
    while True:
        frame = json.loads(await communicator.receive_from(timeout=5))
        if frame["type"] in ("ack", "error"):
            return frame


async def _refused_sit(communicator: WebsocketCommunicator) -> dict:
    return await _api_answer(
        communicator, {"type": "action", "id": 1, "action": {"kind": "sit", "buy_in": 500}}
    )


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ((b"accept-language", b"es-ES,es;q=0.9,en;q=0.5"), "es"),
        ((b"cookie", b"django_language=nb"), "nb"),
    ],
)
async def test_an_api_socket_says_a_refusal_in_its_handshakes_language(
    table: Table, header, language
):
    communicator = await _socket(f"/ws/api/tables/{table.pk}/", header)
    frame = await _refused_sit(communicator)
    assert frame["code"] == "refused"
    assert frame["id"] == 1
    assert frame["message"] != ENGLISH_REFUSAL
    assert frame["message"] == FAKE[language][SIT_DOWN].format(amount=LOCAL_MONEY)
    # A protocol refusal (MessageError) too, its code unchanged.
    frame = await _api_answer(communicator, {"type": "nope"})
    assert frame["code"] == "bad_type"
    assert frame["message"] == FAKE[language][UNKNOWN_TYPE].format(type="'nope'")
    await communicator.disconnect()


async def test_the_cookie_wins_over_accept_language(table: Table):
    communicator = await _socket(
        f"/ws/api/tables/{table.pk}/",
        (b"cookie", b"django_language=nb"),
        (b"accept-language", b"es"),
    )
    frame = await _refused_sit(communicator)
    assert frame["message"].startswith("NB-MERKE")
    await communicator.disconnect()


async def test_an_english_socket_gets_the_exact_english(table: Table):
    communicator = await _socket(f"/ws/api/tables/{table.pk}/", (b"accept-language", b"en-GB"))
    frame = await _refused_sit(communicator)
    assert frame == {"type": "error", "id": 1, "code": "refused", "message": ENGLISH_REFUSAL}
    frame = await _api_answer(communicator, {"type": "nope"})
    assert frame["code"] == "bad_type"
    assert frame["message"] == "unknown type 'nope'; types: action, sync"
    await communicator.disconnect()


async def test_a_socket_without_a_language_speaks_the_sites_default(table: Table):
    communicator = await _socket(f"/ws/api/tables/{table.pk}/")
    frame = await _refused_sit(communicator)
    assert frame["message"] == ENGLISH_REFUSAL
    await communicator.disconnect()


async def test_a_page_socket_draws_its_fragments_in_its_language(table: Table, monkeypatch):
    seen: list[tuple[str, str | None]] = []
    real_render = cardroom.realtime.consumers.render_to_string
    real_context = cardroom.realtime.consumers.page_context

    def render_to_string(template_name, context=None, *args, **kwargs):
        seen.append((template_name, translation.get_language()))
        return real_render(template_name, context, *args, **kwargs)

    def page_context(*args, **kwargs):
        seen.append(("page_context", translation.get_language()))
        return real_context(*args, **kwargs)

    monkeypatch.setattr(cardroom.realtime.consumers, "render_to_string", render_to_string)
    monkeypatch.setattr(cardroom.realtime.consumers, "page_context", page_context)
    communicator = await _socket(f"/ws/tables/{table.pk}/", (b"cookie", b"django_language=nb"))
    first = await communicator.receive_from(timeout=5)
    assert 'hx-swap-oob="true"' in first
    assert 'id="chat-lines"' in await communicator.receive_from(timeout=5)  # the chat's lines
    # A refused sit from the page's form (dollars): the notice says it in Norwegian.
    form = {"kind": "sit", "buy_in": "5", "HEADERS": {"HX-Request": "true"}}
    await communicator.send_to(text_data=json.dumps(form))
    notice = await communicator.receive_from(timeout=5)
    assert FAKE["nb"][SIT_DOWN].format(amount=LOCAL_MONEY) in notice
    assert ENGLISH_REFUSAL not in notice
    await communicator.disconnect()
    drawn = {name for name, _ in seen}
    assert {"page_context", "cardroom/partials/_regions.html"} <= drawn
    assert "cardroom/partials/_notice.html" in drawn
    assert {language for _, language in seen} == {"nb"}
    # Nothing leaked: the event loop's own language is untouched.
    assert translation.get_language() != "nb"
