"""The table protocol's frames (docs/protocol.md): reading a client's frame, and the errors.

Reading a frame must cost the same whatever a client sends: the size is checked before
decoding, deep nesting is refused as bad JSON, and amounts are checked for type and range
here, before any rule or database is involved. Every refusal is a :class:`MessageError` with
a code from :data:`ERROR_CODES` and a sentence a person can read (a sentence of the rules,
games.words, which the consumer says in the connection's language).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from games.words import words

__all__ = [
    "AMOUNT_FIELDS",
    "ERROR_CODES",
    "MAX_MESSAGE_BYTES",
    "MessageError",
    "check_message",
    "check_text",
    "decode",
    "encode_frame",
    "error_frame",
    "id_key",
    "parse_message",
]

MAX_MESSAGE_BYTES = 8 * 1024
#: A JSON escape of NUL: ``\u0000`` after an even number of backslashes (``\\u0000`` is a
#: backslash followed by the text "u0000", which is harmless).
ESCAPED_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
#: The largest amount a frame may name: far beyond any table, small enough to print and store.
MAX_AMOUNT_CENTS = 10**12
#: Fields of an action that hold an amount of money in cents.
AMOUNT_FIELDS = ("buy_in", "amount", "ante", "pair_plus")

#: Every error code a client may receive, and what it means.
ERROR_CODES = {
    "bad_frame": "a binary frame: the protocol speaks JSON text",
    "too_large": "a frame over the size limit",
    "bad_json": "not JSON, or nested too deeply",
    "bad_message": "JSON, but not an object",
    "bad_type": "an unknown message type",
    "bad_id": "an action without a usable id",
    "bad_action": "an action that is not an object with a kind",
    "bad_amount": "an amount that is not a whole number of cents in range",
    "bad_chat": "a chat line that is empty, too long or holds control characters",
    "rate_limited": "too many frames: slow down",
    "refused": "the rules, the ledger or the runtime said no",
    "unavailable": "the server could not reach its database: nothing was applied",
    "internal": "the server failed on this frame: nothing was applied",
}


class MessageError(ValueError):
    """A message the protocol refuses: ``code`` and a message a person can read (a Sentence,
    kept as ``args[0]``: read it with ``games.words.sentence_of``)."""

    def __init__(self, code: str, message: str, ident: Any = None) -> None:
        super().__init__(message)
        self.code = code
        #: The refused action's id, where the frame had a usable one.
        self.ident = ident


def error_frame(ident: Any, code: str, message: str) -> dict[str, Any]:
    """The ``error`` frame answering the action ``ident`` (None when there is none)."""
    return {"type": "error", "id": ident, "code": code, "message": message}


def parse_message(text: str | None) -> dict[str, Any]:
    """Check one client frame against the protocol's schema; MessageError says what is wrong."""
    if text is None:
        raise MessageError("bad_frame", words("send JSON text frames, not binary"))
    check_text(text)
    return check_message(decode(text))


def check_text(text: str) -> None:
    """A text frame within the size limit, and text that UTF-8 can carry (a lone surrogate,
    as ``"\\ud800"`` decodes to, cannot be stored or sent back)."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", _too_large())
    try:
        size = len(text.encode())
    except UnicodeEncodeError as error:
        raise MessageError("bad_frame", words("the frame is not valid UTF-8 text")) from error
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", _too_large())


def _too_large() -> str:
    return words("a message may be at most {size} bytes", size=MAX_MESSAGE_BYTES)


def decode(text: str) -> Any:
    """JSON text as a value; deep nesting and oversized numbers are bad JSON, not a crash."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        # RecursionError: thousands of nested brackets. ValueError also covers integers past
        # Python's digit limit, which would otherwise fail later, when the answer is written.
        if isinstance(error, RecursionError):
            reason = words("not JSON: nested too deeply")
        elif "digits" in str(error):
            reason = words("not JSON: a number in it is too long")
        else:
            # Translators: {reason} is Python's own explanation, in English
            reason = words("not JSON: {reason}", reason=str(error)[:120])
        raise MessageError("bad_json", reason) from error
    try:
        # Escapes in the JSON can make what the frame's text could not: a lone surrogate, or
        # a NUL that no database column takes.
        json.dumps(value, ensure_ascii=False).encode()
    except (UnicodeEncodeError, RecursionError) as error:
        raise MessageError(
            "bad_json", words("the JSON holds text that is not valid Unicode")
        ) from error
    if "\\u0000" in text and ESCAPED_NUL.search(text):
        raise MessageError("bad_json", words("the JSON holds a NUL character"))
    return value


def check_message(message: Any) -> dict[str, Any]:
    """A decoded message in the protocol's shape: ``sync``, a chat message (its text and names
    are the chat's to check: cardroom/chat/), or an ``action`` with an id."""
    if not isinstance(message, dict):
        raise MessageError("bad_message", words("a message is a JSON object with a 'type'"))
    kind = message.get("type")
    if kind in ("sync", "chat", "chat_mute", "chat_unmute"):
        return message
    if kind != "action":
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else "?"
        raise MessageError(
            "bad_type", words("unknown type {type}; types: action, sync", type=repr(shown))
        )
    ident = message.get("id")
    if not _usable_id(ident):
        raise MessageError(
            "bad_id", words("an action needs an 'id': a string or number, unique per client")
        )
    action = message.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise MessageError("bad_action", words("'action' must be an object with a 'kind'"), ident)
    if len(action["kind"]) > 40:
        raise MessageError(
            "bad_action", words("'kind' names an action, in at most 40 characters"), ident
        )
    for name in AMOUNT_FIELDS:
        value = action.get(name)
        # Other types are left to the rules, which say which amount they wanted.
        out_of_range = isinstance(value, int) and not 0 <= value <= MAX_AMOUNT_CENTS
        if out_of_range and not isinstance(value, bool):
            raise MessageError(
                "bad_amount",
                # Translators: {field} is the name of an amount's field, such as 'buy_in'
                words("'{field}' is out of range: amounts are 0 to $10 billion", field=name),
                ident,
            )
    return message


def _usable_id(ident: Any) -> bool:
    if isinstance(ident, bool):
        return False
    if isinstance(ident, str):
        return len(ident) <= 64
    if isinstance(ident, int):
        return -(10**63) < ident < 10**64
    return False


def id_key(ident: Any) -> str:
    """An action id as the text it is remembered by: 1 and "1" are different ids."""
    return json.dumps(ident)


def encode_frame(frame: dict[str, Any]) -> str:
    """A frame's JSON text. orjson writes a state frame in a fifth of the time the standard
    library takes (a frame per viewer per version is the bulk of a server's pushes); what it
    refuses and the standard library takes, such as an echoed id beyond 64 bits, is written
    by the standard library. Either way the text parses to the same value."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(frame)
