"""Every game's settings, as a table's state carries them: ``config_json`` gives what
``dataclasses.asdict`` gives, for every preset, which holds only plain values (so sharing them
instead of copying them is safe)."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from games.chinese_poker.config import PRESETS as CHINESE_POKER
from games.config_json import config_json
from games.guts.classic.config import classic_config
from games.guts.classic.presets import CLASSIC_PRESETS
from games.guts.config import ONLINE_PRESETS, online_config

CONFIGS = [
    *(online_config(name, {"ante": 100}) for name in ONLINE_PRESETS),
    *(classic_config(name, {"ante": 100}) for name in CLASSIC_PRESETS),
    *CHINESE_POKER.values(),
]


@pytest.mark.parametrize(
    "config",
    CONFIGS,
    ids=lambda config: config.preset if hasattr(config, "preset") else str(config.unit),
)
def test_the_settings_json_is_asdicts_and_holds_plain_values(config):
    written = config.to_json()
    assert written == asdict(config) == config_json(config)
    assert all(
        value is None or type(value) in (str, int, float, bool) for value in written.values()
    )
    assert written is not config.to_json()  # each caller's own object


def test_a_dataclass_with_a_list_is_not_a_config_of_plain_values():
    """What the check above guards: asdict copies a list, config_json shares it."""
    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class Odd:
        names: list[str] = field(default_factory=list)

    odd = Odd()
    assert config_json(odd)["names"] is odd.names
    assert asdict(odd)["names"] is not odd.names
