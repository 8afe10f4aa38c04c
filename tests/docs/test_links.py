"""Every relative link of the README and of ``docs/`` resolves: the file exists, and a
``#fragment`` names a heading of that file (GitHub's anchors: lower case, punctuation dropped,
spaces as hyphens, a repeated heading numbered ``-1``, ``-2``...)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
#: ``[text](target)`` outside code; images too (``![alt](target)``).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def _prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, inline code removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(page: Path) -> list[str]:
    return [m.group(1) for line in _prose_lines(page.read_text(encoding="utf-8"))
            for m in LINK.finditer(line)]


def broken(page: Path) -> list[str]:
    """The relative links of ``page`` that do not resolve, each with why."""
    out = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            shown = dest.relative_to(ROOT) if ROOT in dest.parents else dest
            out.append(f"{target}: no file {shown}")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            out.append(f"{target}: no heading #{fragment} in {dest.name}")
    return out


def test_slugs_follow_githubs_anchors() -> None:
    assert slug("The worker tier") == "the-worker-tier"
    assert slug("1. Cards") == "1-cards"
    assert slug("Leaderboard, ratings and the Route-66 tour") == (
        "leaderboard-ratings-and-the-route-66-tour")
    assert slug("`sixtysix serve` and *you*") == "sixtysix-serve-and-you"


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n[ok](#top) [gone](#nowhere) [file](missing.md)\n"
                    "```\n[in code](#ignored)\n```\n", encoding="utf-8")
    assert broken(page) == ["#nowhere: no heading #nowhere in page.md",
                            f"missing.md: no file {tmp_path / 'missing.md'}"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []
