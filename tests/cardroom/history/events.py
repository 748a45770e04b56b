"""The event classes of every game."""

from __future__ import annotations

import dataclasses

from games.events import BaseEvent, card_fields


def event_classes() -> list[type]:
    """Every event class of every game."""
    card_fields()  # imports every game's events
    found, pending = [], [BaseEvent]
    while pending:
        for cls in pending.pop().__subclasses__():
            pending.append(cls)
            if dataclasses.is_dataclass(cls):
                found.append(cls)
    return found
