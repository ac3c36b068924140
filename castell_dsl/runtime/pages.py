"""Players' pages as help topics: `help`, `help rules`, `help TOPIC` while playing.

A game registers its page with the `register_help_pages` hook (name → Markdown file). A page's
`##` sections are its topics, each named by its GitHub anchor (`## Size tokens` is
`size-tokens`); `rules` is the page's rules summary. Front-ends ask for a game's page by its rule
set (`page_for(rules)`): the rule set's name first, then its mechanics' name, so a rule set
that extends a game finds that game's page. No game is named here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The topic that holds a game's rules summary.
RULES_TOPIC = "rules"


@dataclass(frozen=True)
class Topic:
    slug: str
    heading: str
    text: str  # the section without its heading line, trailing blank lines removed


@dataclass(frozen=True)
class HelpPage:
    path: Path
    title: str
    topics: tuple[Topic, ...]

    def topic(self, name: str) -> Topic | None:
        """The topic by slug or heading, case-insensitively; a unique prefix is enough."""
        wanted = slug(name)
        for topic in self.topics:
            if topic.slug == wanted:
                return topic
        starting = [t for t in self.topics if t.slug.startswith(wanted)] if wanted else []
        return starting[0] if len(starting) == 1 else None

    def names(self) -> list[str]:
        return [t.slug for t in self.topics]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def parse_page(path: Path) -> HelpPage:
    """A page's title (its `#` heading) and `##` sections; headings inside code are skipped."""
    title = path.stem
    sections: list[tuple[str, list[str]]] = []
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if not in_code and line.startswith("# ") and not sections:
            title = line[2:].strip()
        elif not in_code and line.startswith("## "):
            sections.append((line[3:].strip(), []))
        elif sections:
            sections[-1][1].append(line)
    topics = []
    for heading, body in sections:
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        topics.append(Topic(slug(heading), heading, "\n".join(body)))
    return HelpPage(path, title, tuple(topics))


def registered_pages() -> dict[str, Path]:
    """Every page the plugins register, by name (the first plugin to name one keeps it)."""
    from .plugins import get_plugins

    def valid(item: Any) -> bool:
        return (
            isinstance(item, tuple)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], (str, Path))
        )

    pages: dict[str, Path] = {}
    for _plugin, (name, path) in get_plugins().collect_from(
        "register_help_pages",
        accept=valid,
        expected="a list of (name, path) pairs",
        registration_order=True,
    ):
        pages.setdefault(name, Path(path))
    return pages


def page_for(rules: Any) -> HelpPage | None:
    """The players' page of a rule set's game, or None when no plugin registers one (or its
    file cannot be read)."""
    pages = registered_pages()
    for name in (getattr(rules, "name", None), rules.game.mechanics):
        path = pages.get(name) if isinstance(name, str) else None
        if path is not None:
            try:
                return parse_page(path)
            except (OSError, UnicodeDecodeError):
                return None
    return None
