"""A player's own mutes: whose lines they do not want to read, at any table. Kept per
player (ChatMute), read by each of their sockets when it opens and again when they change."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.models import User
from cardroom.chat.lines import ChatRefused
from cardroom.models import ChatMute
from games.words import words

__all__ = ["mute_add", "mute_remove", "muted_ids", "muted_names", "player_named"]


def player_named(name: Any) -> User:
    """The player shown under ``name`` (their display name, or their username without one),
    or ChatRefused saying there is none."""
    if isinstance(name, str) and 0 < len(name.strip()) <= 150:
        name = name.strip()
        found = User.objects.filter(
            Q(display_name__iexact=name) | Q(display_name="", username__iexact=name)
        ).first()
        if found is not None:
            return found
    shown = name[:40] if isinstance(name, str) else "?"
    raise ChatRefused("refused", words("no player is called {name}", name=repr(shown)))


def mute_add(*, muter: User, name: Any) -> User:
    """``muter`` no longer reads the lines of the player called ``name``; returns them."""
    muted = player_named(name)
    if muted.pk == muter.pk:
        raise ChatRefused("refused", words("you cannot mute yourself"))
    ChatMute.objects.get_or_create(muter=muter, muted=muted)
    return muted


def mute_remove(*, muter: User, name: Any) -> User:
    """``muter`` reads the player called ``name`` again (muted or not before)."""
    muted = player_named(name)
    ChatMute.objects.filter(muter=muter, muted=muted).delete()
    return muted


def muted_ids(user_id: int) -> set[int]:
    """The players whose lines ``user_id`` does not read."""
    return set(ChatMute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True))


def muted_names(user_id: int) -> list[str]:
    """The names of the players ``user_id`` muted, in order."""
    users = User.objects.filter(chat_muted_by__muter_id=user_id)
    return sorted((user.public_name for user in users), key=str.casefold)
