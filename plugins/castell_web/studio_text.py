"""A stranger's rule text, checked: diagnostics, hover, completion, the diff against its base,
and the compiled rules of a stored variant.

The studio's text comes from a browser, so it is loaded by `StrangerLoader`, which holds it to
what a stranger may ask of the server's disk: `extends` names an installed rule set (by plain
name, never a path), and `include` reads nothing. Both are diagnostics (E0271, as for a file
outside the rule path), never exceptions. Everything else is what `castell lsp` does (the
host's `RuleTextService`: its analysis, hover and completion), so the studio, the language
server and `castell validate` agree on codes, messages and hints; the diff is `rules show
--diff`'s (`language.diff`). Paths of the server's files are never told: the text is shown as
`studio.castell`, an installed file by its name only.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from castell_dsl.contract.services import FrontendServices, NotInstalled, TextAnalysis
from castell_dsl.language import syntax as s
from castell_dsl.language.diagnostics import Diagnostic, Diagnostics, RuleError, Span, did_you_mean
from castell_dsl.language.loader import Loader, blame, is_path_like, key_of
from castell_dsl.language.ruleset import RuleSet
from castell_dsl.language.source import MAX_FILE_BYTES
from castell_dsl.language.text import visible

#: The name a stranger's text is shown under in diagnostics and the diff.
SHOWN = "studio.castell"
#: Where the text is analysed "as if" it were: a directory that is never read (the loader
#: reads nothing relative to it, see `StrangerLoader`).
OWN_PATH = Path("/castell-studio-text-is-not-a-file") / SHOWN
#: Analyses kept, by text: hover and completion ask about the text just checked.
CACHED = 32
#: Largest text accepted, in characters (a rule file's cap; a longer text is told E0107).
MAX_TEXT = MAX_FILE_BYTES


class StrangerLoader(Loader):
    """The loader for text from the network: the rule path's installed files only.

    The stranger's own file may `extends` an installed rule set by name and may not `include`
    anything; the installed files it extends resolve as they always do (they are the
    server's). No directory is added to what `include` may read (`Loader._add_root`)."""

    def __init__(
        self, diags: Diagnostics, services: FrontendServices, own: Path = OWN_PATH
    ) -> None:
        super().__init__(services.rule_path(), diags, allow_outside=False)
        self.services = services
        self.own = own.resolve()

    def _add_root(self, directory: Path) -> None:
        return None  # a stranger's text adds no readable directory

    def _expand_includes(
        self, tree: s.RuleFile, path: Path, stack: list[Path], depth: int = 0
    ) -> list[s.Item]:
        if path == self.own:
            kept: list[s.Item] = []
            for item in tree.items:
                if isinstance(item, s.Include):
                    self.diags.error(
                        "E0271",
                        f"include '{visible(item.path)}': text from the browser may not "
                        "include files: not read",
                        item.span,
                        "write what you need in this text; it may extend an installed rule "
                        f"set ({', '.join(self.services.installed_rule_sets())})",
                    )
                else:
                    kept.append(item)
            tree = s.RuleFile(tree.path, tuple(kept))
        return super()._expand_includes(tree, path, stack, depth)

    def _locate(self, target: str, relative_to: Path, span: Span) -> Path | None:
        if relative_to == self.own:
            names = self.services.installed_rule_sets()
            if is_path_like(target) or target not in names:
                self.diags.error(
                    "E0271",
                    f"no installed rule set named '{visible(target)}': text from the browser "
                    "extends installed rule sets only",
                    span,
                    did_you_mean(target, names) or f"installed rule sets: {', '.join(names)}",
                )
                return None
        return super()._locate(target, relative_to, span)


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_cache: OrderedDict[str, TextAnalysis] = OrderedDict()
_cache_lock = threading.Lock()


def analysed(services: FrontendServices, text: str) -> TextAnalysis:
    """The analysis of `text` as the language server makes it, through `StrangerLoader`
    (recent texts are kept: hover and completion follow a check of the same text)."""
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT + 1]  # enough to be told it is too large (E0107)
    key = text_key(text)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    result = services.analyze_text(OWN_PATH, text, lambda diags: StrangerLoader(diags, services))
    with _cache_lock:
        _cache[key] = result
        while len(_cache) > CACHED:
            _cache.popitem(last=False)
    return result


def _shown(analysis: TextAnalysis, path: str) -> str:
    """A file as the page may see it: the text itself, or an installed file by name."""
    return SHOWN if path == str(analysis.path) else Path(path).name


def _extends_line(analysis: TextAnalysis) -> tuple[int, int, int]:
    """(line, first column, end column) of the text's `extends`: where a problem in the
    installed rules it extends is shown (as the language server shows it)."""
    for item in analysis.tree.items if analysis.tree is not None else ():
        if isinstance(item, s.Extends):
            return item.span.line, item.span.column, item.span.end_column
    return 1, 1, 1


def diagnostic_json(analysis: TextAnalysis, diag: Diagnostic) -> dict[str, Any]:
    """One diagnostic as the page shows it: located in the text (a problem in an installed
    file at the `extends` line, saying where), with `castell validate`'s code, message, hint."""
    data = diag.to_json()
    here = diag.span.path == str(analysis.path)
    data["path"] = _shown(analysis, diag.span.path)
    if not here:
        line, column, end = _extends_line(analysis)
        data["message"] = f"in {data['path']}:{diag.span.line}: {data['message']}"
        data.update(line=line, column=column, end_line=line, end_column=end)
    for note in data["related"]:
        note["path"] = Path(note["path"]).name if note["path"] != str(analysis.path) else SHOWN
    return data


def extends_of(analysis: TextAnalysis) -> str | None:
    for item in analysis.tree.items if analysis.tree is not None else ():
        if isinstance(item, s.Extends):
            return item.target
    return None


def diff_against_base(
    services: FrontendServices, analysis: TextAnalysis, base: str | None
) -> dict[str, Any] | None:
    """`castell rules show --diff` of the text against the installed rule set it extends (or
    `base`, an installed name, for a text that extends none); None when it does not compile."""
    from castell_dsl.language.diff import diff_entries, locate, render_entry

    rules = analysis.rules
    target = extends_of(analysis) or base
    if rules is None or target is None:
        return None
    try:
        base_rules = services.load_installed(target)
    except (NotInstalled, RuleError):
        return None
    named = {kind.key: name for name, kind in rules.kinds.items() if kind.named}
    entries = locate(
        diff_entries(base_rules.to_json(), rules.to_json(), named),
        rules,
        analysis.definitions,
        base_rules.sources,
    )
    changes = []
    for entry in entries:
        at = entry.get("at")
        line = at["line"] if at and at["path"] == str(analysis.path) else None
        shown = {k: v for k, v in entry.items() if k != "at"}
        changes.append({"text": visible(render_entry(shown)), "op": entry["op"], "line": line})
    return {"base": target, "changes": changes}


def located(services: FrontendServices, analysis: TextAnalysis) -> list[Diagnostic]:
    """The analysis' diagnostics placed as `castell validate` places them: a problem the text
    causes in the rules it extends is moved to the text's change that caused it
    (`loader.blame`, with the base compiled alone to tell its own problems)."""
    defs = analysis.definitions
    if defs is None:
        return analysis.diagnostics
    target = extends_of(analysis)

    def base_own() -> set[tuple[Any, ...]]:
        if target is None or target not in services.installed_rule_sets():
            return set()
        own = services.file_diagnostics(services.installed_rules_path(target))
        return {key_of(d) for d in own}

    return Diagnostics(blame(analysis.diagnostics, defs, [str(analysis.path)], base_own)).sorted()


def check(services: FrontendServices, text: str, base: str | None = None) -> dict[str, Any]:
    """What the page shows for `text`: its diagnostics, whether it compiles (and its rules
    hash, title and players), and its diff against the base."""
    analysis = analysed(services, text)
    rules = analysis.rules if not any(d.is_error for d in analysis.diagnostics) else None
    out: dict[str, Any] = {
        "ok": rules is not None,
        "diagnostics": [diagnostic_json(analysis, d) for d in located(services, analysis)],
        "diff": diff_against_base(services, analysis, base) if rules is not None else None,
    }
    if rules is not None:
        low, high = rules.game.players
        out.update(hash=rules.hash, title=str(rules.game.title), players=[low, high])
    return out


EXTENDS_LINE = re.compile(r'^[ \t]*extends[ \t]+"([A-Za-z0-9_-]{1,64})"', re.MULTILINE)


def for_navigation(services: FrontendServices, text: str) -> TextAnalysis:
    """The analysis hover and completion use. While the text is being typed it often does not
    parse; the language server then keeps what the last good text defined. A page keeps no
    state on the server, so the names and kinds are taken from the installed rule set the
    text extends (an analysis of just its `extends` line), as a text that parsed would have
    inherited them."""
    analysis = analysed(services, text)
    if analysis.definitions is not None and analysis.kinds:
        return analysis
    found = EXTENDS_LINE.search(text[: MAX_TEXT + 1])
    if found is None or found.group(1) not in services.installed_rule_sets():
        return analysis
    base = analysed(services, f'extends "{found.group(1)}"\n')
    return replace(
        analysis,
        definitions=analysis.definitions or base.definitions,
        kinds=analysis.kinds or base.kinds,
        rules=analysis.rules or base.rules,
    )


def hover(services: FrontendServices, text: str, line: int, column: int) -> str | None:
    """The language server's hover at (line, column) of `text` (no file is looked up)."""
    return services.hover(for_navigation(services, text), line, column)


def complete(services: FrontendServices, text: str, line: int, column: int) -> list[dict[str, str]]:
    """The language server's completions at (line, column) of `text`."""
    analysis = for_navigation(services, text)
    return [
        {"label": c.label, "sort": c.sort, "detail": c.detail, "documentation": c.documentation}
        for c in services.completions(analysis, line, column)
    ]


@dataclass(frozen=True)
class Compiled:
    """A stored variant's text compiled for play or analysis."""

    rules: RuleSet
    base: str | None


class NotPlayable(ValueError):
    """The text does not compile; the message gives the first error."""


def compile_text(services: FrontendServices, text: str) -> Compiled:
    """The rules of a stranger's text (NotPlayable, naming the first error, otherwise)."""
    analysis = analysed(services, text)
    errors = [d for d in located(services, analysis) if d.is_error]
    if errors or analysis.rules is None:
        first = diagnostic_json(analysis, errors[0]) if errors else None
        where = f"{first['line']}:{first['column']}: {first['message']}" if first else "no rules"
        raise NotPlayable(f"this variant does not compile ({where})")
    return Compiled(analysis.rules, extends_of(analysis))
