"""What an editor needs to know about one rule file: its diagnostics, names, schema and rule set.

An open document is loaded from its (unsaved) text at its own path, so its `extends` and
`include` resolve as they will on disk, then compiled exactly as `castell validate` would
(`Loader` + `compile_rules`). Diagnostics keep the file they point into: a variant can cause
an error in its base, and the server shows it there and, as related information, in the variant.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..language import syntax as s
from ..language.compiler import compile_rules
from ..language.compiler import schema_kinds as compiler_kinds
from ..language.diagnostics import Diagnostic, Diagnostics
from ..language.loader import Definitions, Loader
from ..language.parser import parse
from ..language.ruleset import RuleSet
from ..language.schema import Kind
from ..language.source import MAX_FILE_BYTES, Source, decode_source, resolve_path
from ..runtime.loading import find_mechanics, mechanics_names, rule_path


@dataclass
class Analysis:
    """One load of one document."""

    path: Path
    text: str
    #: The document's own syntax tree (None if it does not parse).
    tree: s.RuleFile | None
    diagnostics: list[Diagnostic]
    definitions: Definitions | None
    rules: RuleSet | None
    #: Every kind of definition the document may use: the core's and its mechanics'.
    kinds: Mapping[str, Kind] = field(default_factory=dict)
    #: Every file read, by the name diagnostics use for it.
    sources: dict[str, Source] = field(default_factory=dict)

    def file_of(self, shown: str) -> Path:
        """The file a diagnostic's span names (the loader shows paths relative to the cwd)."""
        if shown == str(self.path):
            return self.path
        return Path(os.path.abspath(shown))


class Cancelled(Exception):
    """A newer text of the document arrived: this analysis is of no use any more."""


def _never() -> bool:
    return False


def analyze(
    path: Path,
    text: str,
    cancelled: Callable[[], bool] = _never,
    loader: Callable[[Diagnostics], Loader] | None = None,
) -> Analysis:
    """Parse, resolve and compile a document's text as the file at `path`.

    The text is held to the limits `castell validate` holds a file to (its size and encoding:
    E0107, E0108), so an editor cannot make the server parse a 10 MB document. `cancelled` is
    asked between the steps; when it says so the analysis stops with `Cancelled`. `loader`
    makes the loader for the diagnostics (by default one on the rule path, as `castell
    validate`'s); the web studio passes one that confines a stranger's `extends` and `include`.
    """
    path = resolve_path(path)
    diags = Diagnostics()
    if not _within_limits(text, str(path), diags):
        return Analysis(path, text, None, diags.sorted(), None, None)
    tree = parse(Source(str(path), text), Diagnostics())
    if cancelled():
        raise Cancelled
    loader_used = Loader(rule_path(), diags) if loader is None else loader(diags)
    definitions = loader_used.load_text(text, str(path))
    if cancelled():
        raise Cancelled
    rules = None
    kinds: Mapping[str, Kind] = {}
    if definitions is not None and not diags.has_errors:
        rules = compile_rules(definitions, diags, find_mechanics, mechanics_names())
    if definitions is not None:
        kinds = schema_kinds(definitions)
    sources = dict(definitions.sources if definitions is not None else {})
    sources.update(loader_used.sources)
    return Analysis(path, text, tree, diags.sorted(), definitions, rules, kinds, sources)


def _within_limits(text: str, shown: str, diags: Diagnostics) -> bool:
    """Whether a document's text passes the checks a file's bytes pass (`source.decode_source`:
    size, NUL characters), reported with the same codes."""
    if len(text) > MAX_FILE_BYTES:  # at least as many bytes as characters: too large
        return decode_source(b"x" * (MAX_FILE_BYTES + 1), shown, diags) is not None
    return decode_source(text.encode("utf-8", "surrogatepass"), shown, diags) is not None


def schema_kinds(definitions: Definitions) -> Mapping[str, Kind]:
    """The kinds of the mechanics the `game` block names (even if the rules do not compile)."""
    game = next((d for (kind, _), d in definitions.items.items() if kind == "game"), None)
    if game is None or not isinstance(game.entry.value, s.Block):
        return {}
    name = next(
        (
            e.value.value
            for e in game.entry.value.entries
            if e.key == "mechanics" and isinstance(e.value, s.Scalar)
        ),
        None,
    )
    mechanics = find_mechanics(str(name)) if name is not None else None
    return {} if mechanics is None else compiler_kinds(mechanics)
