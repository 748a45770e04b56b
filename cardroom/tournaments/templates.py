"""A new sit-and-go from its template's settings (an operator's form, ``create_tournament``).

Everything is checked before anything is written, and a bad setting is refused with
:class:`~games.engine.ConfigError` in words. The table's config is checked as the game itself
checks it, with the tournament's settings in chips as the stake's units: the first level's
stake, no rake and no hand fee, and the rules a tournament's table plays by (a short stack
antes all it has, an away player is still anted or dealt in, a short loser pays at once:
docs/tournaments.md); a seat is tried with the starting chips, as the start will seat them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from cardroom.models import OperatorAction, OperatorActionKind, Tournament
from cardroom.tables.engines import engine_for
from games.engine import ConfigError, IllegalAction
from games.tournament.levels import default_levels, validate_levels
from games.tournament.payouts import validate_shares
from games.words import words

__all__ = ["GAMES", "create_tournament", "table_options"]

#: The games and presets a sit-and-go is played at (docs/tournaments.md says why no others).
GAMES: dict[str, tuple[str, ...]] = {
    "guts": ("monte_carlo", "survivor"),
    "chinese_poker": ("unit-25c", "unit-50c", "unit-1", "unit-2", "unit-5", "unit-10"),
}

#: The options a tournament's table always has, by game (its stake comes from the levels).
FIXED_OPTIONS: dict[str, dict[str, Any]] = {
    "guts": {
        "rake_basis_points": 0,
        "rake_cap": 0,
        "short_ante": "all_in",
        "away_antes": True,
        "top_up_seconds": 0,
    },
    "chinese_poker": {"hand_fee": 0, "away_deals": True},
}

#: The option that holds the stake, by game.
STAKE_OPTION = {"guts": "ante", "chinese_poker": "unit"}


def _whole(name: str, value: object, least: int, most: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < least
        or (most is not None and value > most)
    ):
        if most is None:
            raise ConfigError(
                words(
                    "{option} must be a whole number of at least {least}, not {value}",
                    option=name,
                    least=least,
                    value=repr(value),
                )
            )
        raise ConfigError(
            words(
                "{option} must be a whole number from {least} to {most}, not {value}",
                option=name,
                least=least,
                most=most,
                value=repr(value),
            )
        )
    return value


def table_options(
    game: str, seats: int, stake: int, options: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The options of a tournament's table: the template's own, then the seats, the stake
    and the fixed rules (an option the tournament fixes may not be given another value)."""
    given = dict(options or {})
    fixed = {**FIXED_OPTIONS[game], "seats": seats, STAKE_OPTION[game]: stake}
    for name, value in given.items():
        if name in fixed and fixed[name] != value:
            raise ConfigError(
                words(
                    "option {option} is set by the tournament ({value})",
                    option=name,
                    value=repr(fixed[name]),
                )
            )
    return {**given, **fixed}


def _check_table(game: str, preset: str, options: dict[str, Any], chips: int) -> None:
    """The table's config as the game checks it, and a seat taken with the starting chips."""
    engine = engine_for(game)
    config = engine.make_config(preset, options)
    state = engine.new_table(config)
    try:
        engine.game.apply(state, {"kind": "sit", "seat": 0, "stack": chips, "now": 0.0})
    except IllegalAction as refusal:
        raise ConfigError(
            words(
                "the starting chips ({chips}) do not seat a player at this table: {reason}",
                chips=chips,
                reason=str(refusal),
            )
        ) from refusal


def _payouts(payouts: Sequence[int] | None, seats: int) -> list[int]:
    if payouts is None:
        # Winner takes all at three seats or fewer, else the first two places: 65/35.
        payouts = [10_000] if seats <= 3 else [6_500, 3_500]
    return list(validate_shares(tuple(payouts), seats))


def create_tournament(
    *,
    name: str,
    game: str,
    preset: str,
    seats: int,
    buy_in: int,
    fee: int,
    chips: int,
    levels: Sequence[Mapping[str, Any]] | None = None,
    payouts: Sequence[int] | None = None,
    bots: int = 0,
    repeat: bool = False,
    options: Mapping[str, Any] | None = None,
    actor: User | None = None,
) -> Tournament:
    """A new tournament, registering; ConfigError in words for a bad setting, and nothing is
    written. ``levels``: ``[{"ante": chips, "minutes": n}, ...]`` (None: the default levels for
    the starting chips); ``payouts``: basis points by place (None: 65/35, or winner takes all
    at three seats or fewer); ``bots``: how many seats house bots may fill (at most all but
    one). ``actor``: the operator, whose creation is logged."""
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise ConfigError(words("a tournament's name is 1 to 80 characters"))
    if game not in GAMES:
        raise ConfigError(
            words(
                "sit-and-gos are played at {games}, not {game}",
                games=", ".join(GAMES),
                game=repr(game),
            )
        )
    if preset not in GAMES[game]:
        raise ConfigError(
            words(
                "unknown preset {preset} for a {game} sit-and-go; presets: {presets}",
                preset=repr(preset),
                game=game,
                presets=", ".join(GAMES[game]),
            )
        )
    seats = _whole("seats", seats, 2, 10)
    # The whole pool may go to one winner in one transfer, which the ledger bounds.
    buy_in = _whole("buy_in", buy_in, 1, settings.CARDROOM_MAX_TRANSFER_CENTS // seats)
    fee = _whole("fee", fee, 0, settings.CARDROOM_MAX_TRANSFER_CENTS)
    chips = _whole("chips", chips, 1)
    bots = _whole("bots", bots, 0, seats - 1)
    if not isinstance(repeat, bool):
        raise ConfigError(words("repeat is true or false, not {value}", value=repr(repeat)))
    if levels is None:
        checked_levels = [dict(level) for level in default_levels(chips, max(1, chips // 100))]
    else:
        checked_levels = [dict(level) for level in validate_levels(list(levels))]
    shares = _payouts(payouts, seats)
    stake = int(checked_levels[0]["ante"])
    table = table_options(game, seats, stake, options)
    _check_table(game, preset, table, chips)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            preset=preset,
            options=dict(options or {}),
            seats=seats,
            buy_in=buy_in,
            fee=fee,
            chips=chips,
            levels=checked_levels,
            payouts=shares,
            bots_allowed=bots,
            repeat=repeat,
            created_by=actor,
        )
        if actor is not None:
            OperatorAction.objects.create(
                actor=actor,
                kind=OperatorActionKind.TOURNAMENT_CREATE,
                details={"tournament": tournament.pk, "name": name, "game": game},
                reason="",
            )
    return tournament


def repeat_of(tournament: Tournament) -> Tournament:
    """A copy of ``tournament``'s template, registering (its ``repeat``)."""
    return Tournament.objects.create(
        name=tournament.name,
        game=tournament.game,
        preset=tournament.preset,
        options=tournament.options,
        seats=tournament.seats,
        buy_in=tournament.buy_in,
        fee=tournament.fee,
        chips=tournament.chips,
        levels=tournament.levels,
        payouts=tournament.payouts,
        bots_allowed=tournament.bots_allowed,
        repeat=True,
        created_by=tournament.created_by,
    )
