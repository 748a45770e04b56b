"""The project carries its own docs: every document a file cites is in the repository.

A citation of ``docs/...`` must name a path that exists; a Markdown link must lead to a file
of the repository; and nothing may cite the design, style or rules documents that lived
outside it (the old citations named them by file name or through a sibling folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Folders that hold no text of ours: environments, packages, caches, build and test output.
SKIPPED = {"node_modules", "test-artifacts", "staticfiles", "vendor", "__pycache__"}
#: The kinds of files whose text may cite a document.
SUFFIXES = {".py", ".html", ".md", ".toml", ".txt", ".cfg", ".ini", ".sh", ".js", ".css"}

#: Documents outside the repository, by the names the old citations used.
OUTSIDE = re.compile(r"\b(?:DESIGN|STYLE)\.md\b|\.\./shared\b")
#: A path under docs/, not part of a longer path or a web address.
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]*[\w/]")
#: The old citations of a rules page: ``rules/<page>.md`` without ``docs/`` before it.
BARE_RULES = re.compile(r"(?<![\w/.-])rules/[\w-]+\.md")
#: A rules page named alone, outside Markdown (where a sibling's name is a relative link).
BARE_PAGE = re.compile(
    r"(?<![\w/.-])(?:rankings|guts-online|guts-classic|chinese-poker|three-card-poker)\.md"
)
#: A Markdown link's target.
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _files() -> Iterator[Path]:
    for folder, folders, names in os.walk(ROOT):
        folders[:] = [
            name
            for name in folders
            if not name.startswith(".") and name not in SKIPPED and not name.endswith(".egg-info")
        ]
        for name in names:
            if Path(name).suffix in SUFFIXES or name == "Makefile":
                yield Path(folder) / name


def _lines(pattern: re.Pattern[str], *, markdown: bool | None = None) -> Iterator[tuple[str, str]]:
    """(where, match) for each match in the files (only Markdown, or none, if asked)."""
    for path in _files():
        if markdown is not None and (path.suffix == ".md") != markdown:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in pattern.finditer(line):
                yield f"{path.relative_to(ROOT)}:{number}", match.group(0)


def test_the_scan_reads_the_projects_files() -> None:
    found = {path.relative_to(ROOT).as_posix() for path in _files()}
    assert {
        "README.md",
        "cardroom/presentation/howto.py",
        "templates/base.html",
        "games/ruff.toml",
    } <= found
    assert not any(path.startswith(".venv/") for path in found)


def test_every_cited_docs_path_exists() -> None:
    missing = [(where, path) for where, path in _lines(DOCS_PATH) if not (ROOT / path).exists()]
    assert not missing, missing


def test_nothing_cites_a_document_outside_the_repository() -> None:
    outside = list(_lines(OUTSIDE)) + list(_lines(BARE_RULES))
    outside += _lines(BARE_PAGE, markdown=False)
    assert not outside, outside


def test_every_markdown_link_leads_to_a_file_of_the_repository() -> None:
    broken = []
    for where, link in _lines(MARKDOWN_LINK, markdown=True):
        target = link[2:-1].split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue  # an anchor on the same page, or a web address
        source = ROOT / where.rsplit(":", 1)[0]
        resolved = (source.parent / target).resolve()
        if not resolved.exists() or not resolved.is_relative_to(ROOT):
            broken.append((where, link))
    assert not broken, broken


#: A file of the code cited by its path in the docs (``cardroom/tables/runtime.py``).
CODE_PATH = re.compile(
    r"(?<![\w/.-])(?:games|accounts|cardroom|tests|templates|static)/[\w/-]*\.\w+"
)


def test_every_code_file_the_docs_cite_exists() -> None:
    missing = [
        (where, path)
        for where, path in _lines(CODE_PATH, markdown=True)
        if not (ROOT / path).exists() and "<" not in path
    ]
    assert not missing, missing
