"""The rules package's command line: ``python -m games COMMAND ...``.

Commands: ``presets``, ``simulate GAME``, ``script FILE``, ``score GAME``, ``solve GAME CARDS``,
``odds GAME`` and ``bench``. Each game contributes through a ``commands`` module named in
:data:`GAMES` (``games.<package>.commands``), which defines what it supports:

- ``PRESETS``: a tuple of preset names;
- ``simulate(*, preset, players, hands, seed) -> dict``;
- ``script(data: dict) -> dict``;
- optionally ``score(data) -> dict``, ``solve(text) -> dict``, ``odds(**tables) -> dict``;
- optionally ``bench() -> dict[str, float]`` (figures for ``python -m games bench``).

Bad arguments or input print a message saying what is wrong and exit with code 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["GAMES", "UsageError", "main"]

#: The games the command line knows, by the name used on the command line.
GAMES: dict[str, str] = {
    "guts": "games.guts.commands",
    "chinese-poker": "games.chinese_poker.commands",
    "three-card-poker": "games.three_card_poker.commands",
}

#: Modules contributing to ``bench``, in the order they print.
BENCHES: tuple[str, ...] = (
    "games.evaluators.bench",
    "games.guts.commands",
    "games.chinese_poker.commands",
    "games.three_card_poker.commands",
)


class UsageError(ValueError):
    """A bad argument or input file: printed, exit code 2."""


def _game(name: str) -> ModuleType:
    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    try:
        return importlib.import_module(GAMES[name])
    except ModuleNotFoundError as error:
        raise UsageError(f"game {name!r} is not available yet ({error})") from error


def _need(module: ModuleType, game: str, attribute: str) -> Any:
    function = getattr(module, attribute, None)
    if function is None:
        raise UsageError(f"game {game!r} has no {attribute!r} command")
    return function


def _read_json(path: str) -> Any:
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from error
    except json.JSONDecodeError as error:
        raise UsageError(f"{path} is not valid JSON: {error}") from error


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"expected whole numbers such as 1,4,5: {text!r}"
        ) from error


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    presets = commands.add_parser("presets", help="every game's presets")
    presets.add_argument("--json", action="store_true")

    simulate = commands.add_parser("simulate", help="play hands with bots")
    simulate.add_argument("game")
    simulate.add_argument("--preset", default=None)
    simulate.add_argument("--players", type=int, default=4)
    simulate.add_argument("--hands", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--json", action="store_true")

    script = commands.add_parser("script", help="play a scripted game from a JSON file")
    script.add_argument("file")
    script.add_argument("--json", action="store_true")

    score = commands.add_parser("score", help="score finished hands read from standard input")
    score.add_argument("game")
    score.add_argument("--json", action="store_true")

    solve = commands.add_parser("solve", help="the solver's arrangement of a hand")
    solve.add_argument("game")
    solve.add_argument("cards")
    solve.add_argument("--json", action="store_true")

    odds = commands.add_parser("odds", help="exact odds of a game's pay tables")
    odds.add_argument("game")
    odds.add_argument("--ante-bonus", type=_ints, default=None)
    odds.add_argument("--pair-plus", type=_ints, default=None)
    odds.add_argument("--json", action="store_true")

    bench = commands.add_parser("bench", help="evaluator and engine throughput")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--quick", action="store_true", help="a short run, for smoke tests")
    return parser


def _print(result: Any, as_json: bool) -> None:
    if as_json or not isinstance(result, dict):
        print(json.dumps(result, indent=None if as_json else 2, sort_keys=False))
        return
    for key, value in result.items():
        print(f"{key}: {json.dumps(value) if isinstance(value, (dict, list)) else value}")


def _run(args: argparse.Namespace) -> Any:
    if args.command == "presets":
        return {name: list(_game(name).PRESETS) for name in GAMES if _available(name)}
    if args.command == "simulate":
        if args.players < 1 or args.hands < 0:
            raise UsageError("--players must be at least 1 and --hands at least 0")
        module = _game(args.game)
        return _need(module, args.game, "simulate")(
            preset=args.preset, players=args.players, hands=args.hands, seed=args.seed
        )
    if args.command == "script":
        data = _read_json(args.file)
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise UsageError('a script is a JSON object with a "game", such as "guts"')
        game = data["game"].replace("_", "-")
        return _need(_game(game), game, "script")(data)
    if args.command == "score":
        return _need(_game(args.game), args.game, "score")(_read_json("-"))
    if args.command == "solve":
        return _need(_game(args.game), args.game, "solve")(args.cards)
    if args.command == "odds":
        tables = {"ante_bonus": args.ante_bonus, "pair_plus": args.pair_plus}
        given = {key: value for key, value in tables.items() if value is not None}
        return _need(_game(args.game), args.game, "odds")(**given)
    if args.command == "bench":
        figures: dict[str, Any] = {}
        for path in BENCHES:
            try:
                module = importlib.import_module(path)
            except ModuleNotFoundError:
                continue
            function = getattr(module, "bench", None)
            if function is not None:
                figures.update(function(quick=args.quick))
        return figures
    raise UsageError(f"unknown command {args.command!r}")  # pragma: no cover (argparse)


def _available(name: str) -> bool:
    try:
        _game(name)
    except UsageError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad arguments or input)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        result = _run(args)
    except (UsageError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    _print(result, getattr(args, "json", False))
    return 0
