"""Hover text and completion for a position in a rule file, without any editor protocol.

The language server (`server.py`) turns these answers into LSP messages; the browser studio
(`castell serve`'s `/studio`) sends them as JSON. One implementation, so the two editors never
disagree about what a name means or what may be typed where.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as s
from .analysis import Analysis
from .navigation import (
    DIRECTIVES,
    definition_hover,
    definitions_of,
    directive_at,
    entry_path,
    field_doc,
    kind_doc,
    names_of,
    nested,
    open_heads,
    ref_kinds,
    resolve,
    struct_of,
    symbol_choices,
    target_file,
    words_before,
)


@dataclass(frozen=True)
class Completion:
    """One thing that may be typed here: its text, what sort of thing it is (`keyword`,
    `kind`, `field`, `value`, `name`), a short detail and Markdown documentation."""

    label: str
    sort: str
    detail: str = ""
    documentation: str = ""


def hover_text(
    analysis: Analysis, line: int, column: int, name: str, quoted: bool, files: bool = True
) -> str | None:
    """The Markdown shown for `name` at (line, column), or None. `files=False`: a quoted
    `extends`/`include` target is not looked up on disk (the text is a stranger's)."""
    directive = directive_at(analysis, line)
    if quoted and directive is not None:
        if not files:
            return None
        target = target_file(analysis, directive, name)
        return f"`{directive}` → `{target}`" if target else f"no rule file `{name}` found"
    if analysis.tree is not None:
        path = entry_path(analysis.tree, line, column)
        if path and _on_key(path[-1], line, column):
            keys = [entry_key(e) for e in path]
            top, field = resolve(analysis.kinds, keys)
            if len(keys) == 1 and top is not None:
                head = path[-1]
                if isinstance(head, s.Override):  # what the override leaves, and whence
                    changed = definitions_of(analysis, head.label, head.kind)
                    texts = [definition_hover(analysis, d) for d in changed]
                    return "\n\n".join([*texts, kind_doc(top)])
                return kind_doc(top)
            if field is not None:
                return field_doc(keys[-1], field)
    named = [definition_hover(analysis, d) for d in definitions_of(analysis, name)]
    if named:
        return "\n\n".join(named)
    named_kind = analysis.kinds.get(name)
    return kind_doc(named_kind) if named_kind is not None else None


def entry_key(entry: s.Entry | s.Override) -> str:
    return entry.key if isinstance(entry, s.Entry) else entry.kind


def _on_key(entry: s.Entry | s.Override, line: int, column: int) -> bool:
    span = entry.key_span if isinstance(entry, s.Entry) else entry.kind_span
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def completions(analysis: Analysis, line: int, column: int) -> list[Completion]:
    """What may be typed at (line, column): directives and kinds at the top, a block's fields
    inside it, a field's symbols and the names of the kinds it refers to after it."""
    heads = open_heads(analysis.text, line, column)
    before = words_before(analysis.text, line, column)
    items: list[Completion] = []
    if not heads:
        if not before:
            items += [Completion(d, "keyword") for d in DIRECTIVES]
            items += [_kind(k) for k in analysis.kinds.values()]
        elif before[0] in ("override", "remove") and len(before) == 1:
            items += [_kind(k) for k in analysis.kinds.values()]
        elif before[0] in ("override", "remove"):
            items += [Completion(n, "name", k) for k, n in names_of(analysis, (before[1],))]
        return items
    kind, field = resolve(analysis.kinds, heads)
    struct = nested(field) if len(heads) > 1 else struct_of(kind)
    fields = struct.fields if struct is not None else {}
    if not before or (before[-1] not in fields and len(before) % 2 == 0):
        for name, spec in fields.items():
            detail = str(getattr(spec.type, "expects", ""))
            items.append(Completion(name, "field", detail, field_doc(name, spec)))
    else:
        value_of = fields.get(before[-1])
        items += [Completion(c, "value") for c in symbol_choices(value_of)]
        items += [Completion(n, "name", k) for k, n in names_of(analysis, ref_kinds(value_of))]
    return items


def _kind(kind: object) -> Completion:
    from ..language.schema import Kind

    assert isinstance(kind, Kind)
    return Completion(kind.name, "kind", "", kind_doc(kind))
