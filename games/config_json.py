"""A table's settings as the JSON object its state carries.

Every game's config is a frozen dataclass of plain values (text, numbers, booleans, None), and
a table's state holds it, so it is written with every version. ``dataclasses.asdict`` gives the
same object but deep-copies each value on the way, which took most of the time of dumping a
Guts table's state; plain values need no copy.

>>> from games.guts.config import online_config
>>> from dataclasses import asdict
>>> config = online_config("survivor", {"ante": 100})
>>> config_json(config) == asdict(config)
True
>>> config_json(config) is config_json(config)  # a new object each time: the caller's to keep
False
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["config_json"]


#: Each config class's field names, in order (a class's fields never change).
_NAMES: dict[type, tuple[str, ...]] = {}


def config_json(config: Any) -> dict[str, Any]:
    """``asdict(config)`` for a dataclass whose fields hold plain values only."""
    kind = type(config)
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(field.name for field in fields(config))
    return {name: getattr(config, name) for name in names}
