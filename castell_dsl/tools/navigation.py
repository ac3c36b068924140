"""Where the cursor is in a rule file, and what the name under it means.

Positions here are the language's: lines and columns from 1, columns counted in characters.
The syntax tree (when the document parses) says which definition and field the cursor is in;
while the document is being typed and does not parse, a bracket scan of the text before the
cursor (`open_heads`) says which blocks are open, which is all completion needs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..language import syntax as s
from ..language.diagnostics import Span
from ..language.loader import Definition, is_path_like
from ..language.schema import Field, FieldType, Kind, ListOf, MapOf, Ref, Struct, Symbol
from ..language.source import brackets, resolve_path, split_lines
from ..runtime.loading import rule_path
from .analysis import Analysis

_WORD = re.compile(r'[A-Za-z_][A-Za-z0-9_]*|"(?:[^"\\\n]|\\.)*"')
DIRECTIVES = ("extends", "include", "override", "remove")


@dataclass(frozen=True)
class Word:
    text: str
    line: int
    column: int  # first character
    end_column: int  # after the last

    @property
    def bare(self) -> str:
        return self.text.strip('"')

    @property
    def quoted(self) -> bool:
        return self.text.startswith('"')


def word_at(text: str, line: int, column: int) -> Word | None:
    """The name or string under (or just before) the cursor."""
    lines = split_lines(text)
    if not 1 <= line <= len(lines):
        return None
    for match in _WORD.finditer(lines[line - 1]):
        if match.start() + 1 <= column <= match.end() + 1:
            return Word(match.group(), line, match.start() + 1, match.end() + 1)
    return None


def contains(span: Span | None, line: int, column: int) -> bool:
    if span is None:
        return False
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column)


# ---- the syntax tree at a position ------------------------------------------------------------


def entry_path(tree: s.RuleFile, line: int, column: int) -> list[s.Entry | s.Override]:
    """The entries containing the position, outermost first."""
    path: list[s.Entry | s.Override] = []
    items: tuple[s.Item | s.Entry, ...] = tree.items
    while True:
        inner = next(
            (
                i
                for i in items
                if isinstance(i, s.Entry | s.Override) and contains(i.span, line, column)
            ),
            None,
        )
        if inner is None:
            return path
        path.append(inner)
        body = inner.value if isinstance(inner, s.Entry) else inner.body
        items = body.entries if isinstance(body, s.Block) else ()


def struct_of(kind: Kind | None) -> Struct | None:
    return kind.body if kind is not None and isinstance(kind.body, Struct) else None


def nested(field: Field | None) -> Struct | None:
    """The block type a field's value is written in, if it is one."""
    typ: FieldType | None = field.type if field is not None else None
    while isinstance(typ, ListOf | MapOf):
        typ = typ.item if isinstance(typ, ListOf) else typ.value
    return typ if isinstance(typ, Struct) else None


def resolve(kinds: Mapping[str, Kind], keys: list[str]) -> tuple[Kind | None, Field | None]:
    """The kind of a top-level key and the field a chain of nested keys names."""
    if not keys:
        return None, None
    kind = kinds.get(keys[0])
    struct, field = struct_of(kind), None
    for key in keys[1:]:
        field = struct.fields.get(key) if struct is not None else None
        struct = nested(field)
    return kind, field


def type_words(field: Field) -> str:
    return str(getattr(field.type, "expects", type(field.type).__name__))


def field_doc(name: str, field: Field) -> str:
    parts = [f"**{name}**: {type_words(field)}"]
    flags = [
        "required" if field.required and field.default is None else "optional",
        *(["repeated"] if field.repeated else []),
        *(["may carry `when`"] if field.conditional else []),
    ]
    parts.append(", ".join(flags))
    if field.doc:
        parts.append(field.doc)
    if field.example:
        parts.append(f"Example: `{name} {field.example}`")
    return "\n\n".join(parts)


def kind_doc(kind: Kind) -> str:
    form = f"`{kind.name} NAME {{ … }}`" if kind.named else f"`{kind.name} {{ … }}`"
    parts = [f"**{kind.name}** — {form}" + (" (required)" if kind.required else "")]
    if kind.doc:
        parts.append(kind.doc)
    struct = struct_of(kind)
    if struct is not None and struct.fields:
        parts.append("\n".join(f"- `{n}`: {type_words(f)}" for n, f in struct.fields.items()))
    elif kind.body is not None:
        parts.append(f"Body: {getattr(kind.body, 'expects', type(kind.body).__name__)}")
    return "\n\n".join(parts)


# ---- names ------------------------------------------------------------------------------------


def definitions_of(
    analysis: Analysis, name: str | None, kind: str | None = None
) -> list[Definition]:
    """The definitions called `name` (of `kind`, if given; a singleton: `name` None), with the
    overrides applied to them."""
    defs = analysis.definitions
    if defs is None:
        return []
    return [
        d
        for (k, label), d in defs.items.items()
        if (kind is None or k == kind) and (label == name or (name is None and kind == k))
    ]


def definitions_named(analysis: Analysis, name: str) -> list[tuple[str, s.Entry]]:
    """Every definition with this name: (kind, its entry)."""
    defs = analysis.definitions
    if defs is None:
        return []
    return [(kind, d.entry) for (kind, label), d in defs.items.items() if label == name]


def names_of(analysis: Analysis, kinds: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(kind, name) of the named definitions, of the given kinds (all if none given)."""
    defs = analysis.definitions
    if defs is None:
        return []
    return [
        (kind, label)
        for kind, label in defs.items
        if label is not None and (not kinds or kind in kinds)
    ]


def ref_kinds(field: Field | None) -> tuple[str, ...]:
    typ: FieldType | None = field.type if field is not None else None
    while isinstance(typ, ListOf | MapOf):
        typ = typ.item if isinstance(typ, ListOf) else typ.value
    return typ.kinds if isinstance(typ, Ref) else ()


def symbol_choices(field: Field | None) -> tuple[str, ...]:
    typ: FieldType | None = field.type if field is not None else None
    while isinstance(typ, ListOf):
        typ = typ.item
    if isinstance(typ, Symbol):
        return typ.choices or ()
    if isinstance(typ, Ref):
        return typ.extra
    return ()


def record_text(analysis: Analysis, kind: str, name: str) -> str | None:
    """The compiled record of a definition, as `field: value` lines."""
    rules = analysis.rules
    if rules is None or rules.get(kind, name) is None or kind not in rules.kinds:
        return None
    data = rules.kinds[kind].to_json(rules.get(kind, name))
    if isinstance(data, dict):
        lines = [f"{k}: {json.dumps(v)}" for k, v in data.items() if k != "name"]
        return "\n".join(lines)
    return json.dumps(data)


def definition_hover(analysis: Analysis, definition: Definition) -> str:
    """A definition as the rules use it, and where that comes from: its value after every
    override (the compiled record; as written when the rules do not compile), the line that
    defines it and each line that overrides it (a base file's, a variant's)."""
    kind, name = definition.kind, definition.label
    shown = f"{kind} {name}" if name else kind
    rules = analysis.rules
    named = rules is not None and kind in rules.kinds and rules.kinds[kind].named
    body = record_text(analysis, kind, name) if named and name else None
    if rules is not None and not named and kind in rules:  # a singleton (`game castell`)
        body = json.dumps(rules.kinds[kind].to_json(rules.one(kind)))
    heading = f"**{shown}**" + (" (as overridden)" if definition.patches else "")
    if body is None:  # the rules do not compile: what is written, base and overrides
        body = entry_source(analysis, definition.entry) or ""
        heading += " — the rules do not compile; as written:"
    lines = [heading, f"```castell\n{body}\n```"]
    entry = definition.entry.span
    lines.append(f"- defined at `{entry.path}:{entry.line}`")
    for patch in definition.patches:
        where = patch.override.span
        first = (override_source(analysis, patch.override) or "").splitlines()[:1]
        text = f": `{first[0].strip()}`" if first else ""
        lines.append(f"- overridden at `{where.path}:{where.line}`{text}")
    return "\n".join(lines)


def override_source(analysis: Analysis, override: s.Override) -> str | None:
    return _span_source(analysis, override.span)


def entry_source(analysis: Analysis, entry: s.Entry) -> str | None:
    return _span_source(analysis, entry.span)


def _span_source(analysis: Analysis, span: Span) -> str | None:
    """The lines a span covers (at most 12), from the file as the analysis read it."""
    source = analysis.sources.get(span.path)
    if source is None:
        return None
    lines = source.lines[span.line - 1 : span.end_line]
    return "\n".join(lines[:12])


def target_file(analysis: Analysis, directive: str, target: str) -> Path | None:
    """The file an `extends` or `include` names."""
    here = analysis.path.parent
    if directive == "include" or is_path_like(target):
        candidate = resolve_path(here / target)
        return candidate if candidate.is_file() else None
    return rule_path().find_rules(target)


def directive_at(analysis: Analysis, line: int) -> str | None:
    lines = split_lines(analysis.text)
    if not 1 <= line <= len(lines):
        return None
    head = lines[line - 1].split()
    return head[0] if head and head[0] in ("extends", "include") else None


# ---- while typing -----------------------------------------------------------------------------


def open_heads(text: str, line: int, column: int) -> list[str]:
    """The keys of the blocks open at the cursor, outermost first (`override KIND` gives KIND)."""
    lines = split_lines(text)
    current = lines[line - 1][: column - 1] if 1 <= line <= len(lines) else ""
    before = "\n".join([*lines[: line - 1], current])
    stack: list[str] = []
    for ch, ln, col in brackets(before):
        if ch == "{":
            prefix = re.split(r"[{}]", lines[ln - 1][: col - 1])[-1].split()
            if prefix and prefix[0] == "override" and len(prefix) > 1:
                prefix = prefix[1:]
            stack.append(prefix[0] if prefix else "")
        elif ch == "}" and stack:
            stack.pop()
    return stack


def words_before(text: str, line: int, column: int) -> list[str]:
    """The complete words on the cursor's line before it, since the last brace."""
    lines = split_lines(text)
    current = lines[line - 1][: column - 1] if 1 <= line <= len(lines) else ""
    segment = re.split(r"[{}]", current)[-1]
    words = segment.split()
    if words and not segment.endswith((" ", "\t")):
        words = words[:-1]  # the word being typed
    return words
