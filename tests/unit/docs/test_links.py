"""The README and the documents in docs/ link only to what the repository holds (issue 37: the architecture
document used to be a link out of the repository, so a clone had none).

Every relative Markdown link (inline, image or reference-style) in README.md, docs/**/*.md and every other
tracked Markdown file must name a file or folder inside the repository, and a `#fragment` must name a heading of the
Markdown file it points to (GitHub's anchors). Links inside fenced code blocks are not links.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[3]
INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...


def documents() -> list[Path]:
    found = {ROOT / "README.md", *(ROOT / "docs").rglob("*.md")}
    tracked = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:
        found |= {ROOT / line for line in tracked.stdout.splitlines() if (ROOT / line).is_file()}
    return sorted(found)


def prose(text: str) -> str:
    """`text` without its fenced code blocks (their lines blanked, so line numbers stay)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        match = HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    text = prose(path.read_text(encoding="utf-8"))
    return [m.group(1) for m in INLINE.finditer(text)] + [m.group(1) for m in REFERENCE.finditer(text)]


def broken(path: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for target in links(path):
        if EXTERNAL.match(target):
            continue
        where, _, fragment = target.partition("#")
        resolved = (path.parent / unquote(where)).resolve() if where else path
        if where:
            if not resolved.is_relative_to(root.resolve()):
                problems.append(f"{target}: outside the repository")
                continue
            if not resolved.exists():
                problems.append(f"{target}: no such file")
                continue
        if fragment and resolved.suffix == ".md" and unquote(fragment).lower() not in anchors(resolved):
            problems.append(f"{target}: no heading #{fragment} in {resolved.name}")
    return problems


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    problems = broken(path)
    assert not problems, f"{path.relative_to(ROOT)} has broken links:\n" + "\n".join(problems)


def test_the_architecture_document_is_in_the_repository_and_linked_from_the_readme() -> None:
    assert (ROOT / "docs" / "ARCHITECTURE.md").is_file()
    readme = links(ROOT / "README.md")
    assert any(t.split("#", 1)[0] == "docs/ARCHITECTURE.md" for t in readme), "the README must link the architecture"


def test_the_checker_finds_what_it_should(tmp_path: Path) -> None:
    """The checker itself: a missing file, a link out of the repository and an unknown heading are caught;
    a link in a code block, an external link and a good fragment are not."""
    assert slug("When a dependency is away: nothing acknowledged is lost") == (
        "when-a-dependency-is-away-nothing-acknowledged-is-lost"
    )
    assert slug("The `gamehall` command, step 2") == "the-gamehall-command-step-2"
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ARCHITECTURE.md").write_text("# Title\n\n## The move path\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("# Elsewhere\n", encoding="utf-8")
    sample = folder / "sample.md"
    sample.write_text(
        "# Top\n\n## Part two\n\n[a](missing.md) [b](../../outside.md) [c](#nowhere) [d](#part-two)\n"
        "[e](https://example.org/x) [f](ARCHITECTURE.md#the-move-path) [h](ARCHITECTURE.md#no-such-part)\n"
        "![i](../outside.md)\n\n```\n[g](also-missing.md)\n```\n",
        encoding="utf-8",
    )
    problems = broken(sample, root=tmp_path)
    assert [p.split(": ", 1)[0] for p in problems] == [
        "missing.md",
        "../../outside.md",
        "#nowhere",
        "ARCHITECTURE.md#no-such-part",
    ], problems
