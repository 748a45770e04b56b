"""The tests follow the code, and share helpers only through modules made for them.

Under tests/<app>/ each folder mirrors a package of that app (tests/cardroom/history/ holds the
tests of cardroom/history/). A test module imports no other test module: what two tests
share lives in a helpers module (tests/cardroom/driving.py, sockets.py, ...) or a conftest.py
fixture, so moving or renaming a test never breaks another one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
#: The apps whose tests mirror their packages.
APPS = ("accounts", "cardroom", "games")


def _modules() -> Iterator[Path]:
    yield from (path for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts)


def _imported(source: str, package: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """(line, module) for each module ``source`` (a module of ``package``) imports, relative
    imports made absolute."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            if node.module is None:  # ``from . import test_x``
                yield from ((node.lineno, f"{module}.{alias.name}") for alias in node.names)
            else:
                yield node.lineno, module


def _is_test_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] == "tests" and parts[-1].startswith("test_")


def test_the_scan_sees_absolute_and_relative_imports_of_test_modules() -> None:
    source = (
        "from .test_classic import x\n"
        "from . import test_nuts\n"
        "from ..helpers import of\n"
        "import tests.cardroom.test_y\n"
        "from tests.cardroom.driving import run_clock\n"
    )
    found = [module for _, module in _imported(source, ("tests", "games", "guts", "classic"))]
    assert found == [
        "tests.games.guts.classic.test_classic",
        "tests.games.guts.classic.test_nuts",
        "tests.games.guts.helpers",
        "tests.cardroom.test_y",
        "tests.cardroom.driving",
    ]
    assert [_is_test_module(module) for module in found] == [True, True, False, True, False]


def test_no_module_of_the_tests_imports_a_test_module() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _modules()
        for line, module in _imported(
            path.read_text(encoding="utf-8"), path.relative_to(ROOT).parent.parts
        )
        if _is_test_module(module)
    ]
    assert not found, "\n".join(found)


def test_each_folder_of_an_apps_tests_mirrors_a_package_of_the_app() -> None:
    folders = [
        folder
        for app in APPS
        for folder in (TESTS / app).rglob("*")
        if folder.is_dir() and folder.name != "__pycache__"
    ]
    assert folders  # tests/cardroom/history/ and the others
    strays = [
        str(folder.relative_to(ROOT))
        for folder in folders
        if not (ROOT / folder.relative_to(TESTS) / "__init__.py").is_file()
    ]
    assert not strays, strays
