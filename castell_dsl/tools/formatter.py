"""The canonical layout of a rule file (`castell fmt`).

The layout, in short:

- two spaces per level; one entry per line inside a multi-line block;
- a block, map or list the author wrote on one line stays on one line if it fits in 100
  columns, and is broken one entry (block) or one source line of items (map, list) per line if
  not; one written across lines stays across lines, keeping the author's grouping of list and map
  items per line (wrapped at 100 columns) with a trailing comma;
- consecutive one-line entries (no blank line between them) form a *table*: their names are
  padded so that bodies, `=` and `when` line up, and the fields of one-line blocks line up in
  columns for as long as the rows name the same fields; trailing comments line up too;
- expressions are kept exactly as written, line by line (their text is part of the compiled
  rule set and of its hash); only the indentation of their continuation lines is canonical;
- every comment is kept (see `cst.py` for where each one attaches, `layout.py` for where it is
  printed); one blank line is kept wherever the author left one or more.

Formatting works on the concrete tree and never on meaning, so it cannot change the compiled
rule set; `tests/tools/test_fmt_properties.py` checks that, and that formatting is idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lark import Token, Tree

from ..language.diagnostics import Diagnostic, Diagnostics
from ..language.parser import parse
from ..language.source import Source
from .cst import Concrete, leaves, parse_concrete
from .layout import INDENT, WIDTH, Line, emit, new_group
from .spacing import join_line

_BRACKETED = ("block", "map", "list")


@dataclass
class Formatted:
    """The outcome of formatting one text: the new text, or the syntax errors that stop it."""

    text: str | None
    diagnostics: list[Diagnostic]


def format_text(text: str, path: str = "<string>") -> Formatted:
    """Format rule-file text; on a syntax error return the parser's diagnostics instead."""
    diags = Diagnostics()
    if parse(Source(path, text), diags) is None or diags.has_errors:
        return Formatted(None, diags.sorted())
    concrete = parse_concrete(text)
    lines = _Formatter(concrete).entries(_trees(concrete.tree), 0)
    return Formatted(emit(lines, concrete), [])


def _trees(node: Tree) -> list[Tree]:
    return [c for c in node.children if isinstance(c, Tree)]


def _one_line(node: Tree) -> bool:
    return bool(node.meta.line == node.meta.end_line)


@dataclass
class _Parts:
    """An item taken apart: the words before its value, the value, `= expr`, `when cond`."""

    key: str
    head: list[str]
    value: Tree | None
    expr: list[Token] | None  # `=` and the expression's tokens
    cond: list[Token] | None  # `when` and the condition's tokens
    node: Tree


def _parts(node: Tree) -> _Parts:
    kind, ch = str(node.data), node.children
    first = str(ch[0])
    if kind in ("include", "extends"):
        return _Parts(first, [first, str(ch[1])], None, None, None, node)
    if kind == "remove":
        return _Parts(first, [join_line(leaves(node))], None, None, None, node)
    head = [first]
    value = expr = cond = None
    for child in ch[1:]:
        if isinstance(child, Token):
            if child.type == "NAME":  # the kind named by `override`
                head.append(str(child))
            elif child.type == "EQUAL":
                expr = [child]
            continue
        if child.data == "label":
            head.append(str(child.children[0]))
        elif child.data == "condition":
            cond = leaves(child)
        elif expr is not None:
            expr.extend(leaves(child))
        else:
            value = child
    return _Parts(first, head, value, expr, cond, node)


@dataclass
class _Text:
    """One line of an expression, as written, and the tokens on it."""

    text: str
    toks: list[Token]


@dataclass
class _Row:
    """A one-line item, in cells that a table aligns."""

    key: str
    head: str
    cells: list[tuple[str, str]] | None  # the (key, text) of each entry of a one-line block
    flat: str | None  # a one-line map
    expr: list[_Text] | None
    cond: list[_Text] | None
    toks: list[Token]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.cells or ())

    @property
    def has_more(self) -> bool:
        return self.cells is not None or self.flat is not None or bool(self.expr or self.cond)


def _body_text(cells: list[tuple[str, str]], widths: list[int]) -> str:
    if not cells:
        return "{ }"
    padded = [text.ljust(width) for (_, text), width in zip(cells, widths, strict=True)]
    return "{ " + "  ".join(padded) + " }"


class _Formatter:
    def __init__(self, concrete: Concrete):
        self.concrete = concrete

    # ---- one-line forms ---------------------------------------------------------------------
    def inline(self, node: Tree) -> str | None:
        """The one-line form of a value, or None if it must span lines."""
        kind = str(node.data)
        if kind == "integer":
            return "".join(str(t) for t in node.children)
        if kind in ("string", "symbol", "true", "false"):
            return str(node.children[0])
        if kind == "range":
            low, high = _trees(node)
            return f"{self.inline(low)}..{self.inline(high)}"
        if not _one_line(node):
            return None
        if kind == "list":
            items = [self.inline(c) for c in _trees(node)]
            return None if None in items else "[" + ", ".join(map(str, items)) + "]"
        if kind == "map":
            pairs = [self.inline_pair(c) for c in _trees(node)]
            return None if None in pairs else "{ " + ", ".join(map(str, pairs)) + " }"
        entries = [self.inline_entry(c) for c in _trees(node)]
        if any(e is None for e in entries):
            return None
        return "{ " + "  ".join(e[1] for e in entries if e is not None) + " }" if entries else "{ }"

    def inline_pair(self, item: Tree) -> str | None:
        key, value = _trees(item)
        text = self.inline(value)
        return None if text is None else f"{self.inline(key)}: {text}"

    def inline_entry(self, node: Tree) -> tuple[str, str] | None:
        """An entry inside a one-line block: (its key, its text)."""
        parts = _parts(node)
        words = list(parts.head)
        if parts.value is not None:
            value = self.inline(parts.value)
            if value is None:
                return None
            words.append(value)
        for tokens in (parts.expr, parts.cond):
            if tokens:
                lines = self.expression(tokens)
                if len(lines) > 1:
                    return None
                words.append(lines[0].text)
        return parts.key, " ".join(words)

    def expression(self, tokens: list[Token]) -> list[_Text]:
        """`= expr` or `when expr`, each of the expression's lines exactly as written.

        The compiled rule set keeps every expression's source text (its lines stripped and
        joined by a space: `expressions.expression_source`), and that text is part of the rule
        set's hash; so the formatter may re-indent an expression's lines but not change a
        character within them, nor the comments and blank lines inside it.
        """
        keyword, first, last = tokens[0], tokens[1], tokens[-1]
        source = self.concrete.lines
        start, end = first.line or 1, last.end_line or 1
        if start == end:
            texts = [source[start - 1][(first.column or 1) - 1 : (last.end_column or 1) - 1]]
        else:
            texts = [source[start - 1][(first.column or 1) - 1 :].strip()]
            texts += [source[n].strip() for n in range(start, end - 1)]
            texts.append(source[end - 1][: (last.end_column or 1) - 1].strip())
            for tok in tokens[1:]:  # comments inside the expression are part of its text
                if (tok.line or 0) < end:
                    self.concrete.trailing.pop(tok.start_pos or 0, None)
                if (tok.line or 0) > start:
                    self.concrete.leading.pop(tok.start_pos or 0, None)
        lines = [
            _Text(text, [t for t in tokens[1:] if t.line == start + i])
            for i, text in enumerate(texts)
        ]
        lines[0] = _Text(f"{keyword} {lines[0].text}", [keyword, *lines[0].toks])
        return lines

    def row(self, node: Tree, indent: int) -> _Row | None:
        """The item as a table row, or None if it must span lines."""
        parts = _parts(node)
        head, cells, flat = " ".join(parts.head), None, None
        value = parts.value
        if value is not None:
            if value.data == "block":
                if not _one_line(value):
                    return None
                entries = [self.inline_entry(c) for c in _trees(value)]
                if any(e is None for e in entries):
                    return None
                cells = [e for e in entries if e is not None]
            else:
                text = self.inline(value)
                if text is None:
                    return None
                if value.data == "map":
                    flat = text
                else:
                    head = f"{head} {text}"
        row = _Row(
            parts.key,
            head,
            cells,
            flat,
            self.expression(parts.expr) if parts.expr else None,
            self.expression(parts.cond) if parts.cond else None,
            leaves(node),
        )
        bracketed = value is not None and value.data in _BRACKETED
        if bracketed and indent + len(self.align([row], indent, aligned=False)[0].text) > WIDTH:
            return None
        for lines in (row.expr, row.cond):
            if lines and len(lines) > 1:
                inside = {id(t) for line in lines[1:] for t in line.toks} | {
                    id(t) for t in lines[0].toks[1:]
                }
                self.lift_comments([t for t in row.toks if id(t) not in inside], row.toks[0])
        return row

    def lift_comments(self, tokens: list[Token], onto: Token) -> None:
        """Print the trailing comments of `tokens` on lines of their own before `onto`.

        For tokens printed on the first line of a multi-line expression: a comment there would
        become part of the expression's text (which is kept exactly, see `expression`).
        """
        moved = [c for t in tokens for c in self.concrete.trailing.pop(t.start_pos or 0, [])]
        if moved:
            key = onto.start_pos or 0
            lifted = [replace(c, blank_before=False) for c in moved]
            self.concrete.leading[key] = [*self.concrete.leading.get(key, []), *lifted]

    # ---- tables -----------------------------------------------------------------------------
    def entries(self, items: list[Tree], indent: int) -> list[Line]:
        """The entries of a block (or of the file) at `indent`, one-line ones as tables."""
        lines: list[Line] = []
        run: list[_Row] = []
        for item in items:
            row = self.row(item, indent)
            if row is not None and run and not self.starts_section(item):
                run.append(row)
                continue
            if run:
                lines.extend(self.table(run, indent))
                run = []
            if row is not None:
                run = [row]
            else:
                lines.extend(self.multiline(item, indent))
        if run:
            lines.extend(self.table(run, indent))
        return lines

    def starts_section(self, item: Tree) -> bool:
        """A blank line before the item (or before its comments) ends a table."""
        first = leaves(item)[0]
        leading = self.concrete.leading.get(first.start_pos or 0)
        if leading and leading[0].blank_before:
            return True
        return (first.start_pos or 0) in self.concrete.line_starts and self.concrete.blank_before(
            first
        )

    def table(self, rows: list[_Row], indent: int) -> list[Line]:
        aligned = self.align(rows, indent, aligned=True)
        too_wide = any(line.width > WIDTH for line in aligned if line.kind != "cont")
        return self.align(rows, indent, aligned=False) if too_wide else aligned

    def align(self, rows: list[_Row], indent: int, aligned: bool) -> list[Line]:
        widths = [[len(text) for _, text in r.cells or ()] for r in rows]
        if aligned:
            self._align_cells(rows, widths)
        head_at = self._columns(
            rows, texts=[r.head for r in rows], present=[r.has_more for r in rows]
        )
        texts = []
        for row, row_widths, at in zip(rows, widths, head_at, strict=True):
            text = row.head.ljust(at - 1) if aligned and at else row.head
            if row.cells is not None:
                text += " " + _body_text(row.cells, row_widths)
            elif row.flat is not None:
                text += " " + row.flat
            texts.append(text)
        conts: list[list[tuple[int, _Text]]] = [[] for _ in rows]
        for attr, hang in (("expr", 2), ("cond", 5)):
            present = [getattr(r, attr) is not None for r in rows]
            columns = self._columns(rows, texts, present)
            for i, row in enumerate(rows):
                lines = getattr(row, attr)
                if lines:
                    at = columns[i] if aligned else len(texts[i]) + 1
                    texts[i] = self._attach(texts[i], at, lines, conts[i], hang)
        group = new_group()
        lines = []
        for row, text, more in zip(rows, texts, conts, strict=True):
            in_cont = {id(t) for _, line in more for t in line.toks}
            lines.append(Line(indent, text, [t for t in row.toks if id(t) not in in_cont], group))
            for column, line in more:
                lines.append(Line(indent + column, line.text, line.toks, group, "cont"))
        return lines

    @staticmethod
    def _columns(rows: list[_Row], texts: list[str], present: list[bool]) -> list[int]:
        """Where the next cell starts in each row that has one: one column for consecutive
        such rows with the same key (a `tiebreak` after the `category` rows is not padded)."""
        columns = [0] * len(rows)
        group: list[int] = []
        for i in [*(i for i, p in enumerate(present) if p), -1]:
            if group and (i < 0 or rows[i].key != rows[group[0]].key):
                width = max(len(texts[m]) for m in group) + 1
                for m in group:
                    columns[m] = width
                group = []
            if i >= 0:
                group.append(i)
        return columns

    @staticmethod
    def _attach(
        text: str, start: int, lines: list[_Text], conts: list[tuple[int, _Text]], hang: int
    ) -> str:
        conts.extend((start + hang, line) for line in lines[1:])
        return text.ljust(start) + lines[0].text

    @staticmethod
    def _align_cells(rows: list[_Row], widths: list[list[int]]) -> None:
        """Pad the fields of one-line blocks: column k lines up across consecutive rows that
        name the same fields up to k. A row's last field is not padded: a closing brace is not
        worth a column of spaces."""
        count = len(rows)
        deepest = max((len(r.cells or ()) for r in rows), default=0)
        for k in range(deepest):
            i = 0
            while i < count:
                if len(rows[i].cells or ()) <= k:
                    i += 1
                    continue
                prefix, j = rows[i].keys[: k + 1], i
                while (
                    j < count and len(rows[j].cells or ()) > k and rows[j].keys[: k + 1] == prefix
                ):
                    j += 1
                width = max(len((rows[m].cells or [])[k][1]) for m in range(i, j))
                for m in range(i, j):
                    if k < len(rows[m].cells or ()) - 1:
                        widths[m][k] = width
                i = j

    # ---- across lines -----------------------------------------------------------------------
    def multiline(self, item: Tree, indent: int) -> list[Line]:
        parts = _parts(item)
        value = parts.value
        assert value is not None and value.data in _BRACKETED  # anything else is a row
        start = leaves(value)[0].start_pos or 0
        head_toks = [t for t in leaves(item) if (t.start_pos or 0) < start]
        return self.bracketed(
            value, indent, " ".join(parts.head) + " ", head_toks, parts.cond, trailer=""
        )

    def bracketed(
        self,
        node: Tree,
        indent: int,
        prefix: str,
        prefix_toks: list[Token],
        cond: list[Token] | None,
        trailer: str,
    ) -> list[Line]:
        tokens = [c for c in node.children if isinstance(c, Token)]
        opener, closer = tokens[0], tokens[-1]
        lines = [Line(indent, prefix + str(opener), [*prefix_toks, opener], kind="open")]
        if node.data == "block":
            lines.extend(self.entries(_trees(node), indent + INDENT))
        else:
            lines.extend(self.items(node, indent + INDENT))
        text, toks, group = str(closer), [closer], new_group()
        more: list[Line] = []
        if cond:
            cond_lines = self.expression(cond)
            if len(cond_lines) > 1:
                self.lift_comments([closer], closer)
            text += " " + cond_lines[0].text
            toks.extend(cond_lines[0].toks)
            hang = indent + len(closer) + 1 + 5
            more.extend(Line(hang, line.text, line.toks, group, "cont") for line in cond_lines[1:])
        lines.append(Line(indent, text + trailer, toks, group, "close"))
        return lines + more

    def items(self, node: Tree, indent: int) -> list[Line]:
        """The items of a list or map, grouped by the source lines they were written on."""
        lines: list[Line] = []
        group = new_group()
        pending: list[tuple[str, list[Token]]] = []  # one source line's items, not yet laid out
        last_line = 0

        def flush() -> None:
            text, toks = "", list[Token]()
            for piece, piece_toks in pending:
                candidate = f"{text} {piece}," if text else f"{piece},"
                if text and indent + len(candidate) > WIDTH:
                    lines.append(Line(indent, text, toks, group))
                    candidate, toks = f"{piece},", []
                text = candidate
                toks = toks + piece_toks
            if text:
                lines.append(Line(indent, text, toks, group))
            pending.clear()

        children = node.children
        for index, child in enumerate(children):
            if not isinstance(child, Tree):
                continue
            toks = leaves(child)
            following = children[index + 1] if index + 1 < len(children) else None
            if isinstance(following, Token) and following.type == "COMMA":
                toks.append(following)
            if (toks[0].line or 0) > last_line:
                flush()
            last_line = toks[-1].end_line or 0
            text = self.inline_pair(child) if child.data == "map_item" else self.inline(child)
            if text is not None:
                pending.append((text, toks))
                continue
            flush()
            if child.data == "map_item":
                key, value = _trees(child)
                start = leaves(value)[0].start_pos or 0
                before = [t for t in leaves(child) if (t.start_pos or 0) < start]
                key_text = self.inline(key)
                lines.extend(self.bracketed(value, indent, f"{key_text}: ", before, None, ","))
            else:
                lines.extend(self.bracketed(child, indent, "", [], None, ","))
            if lines and isinstance(following, Token) and following.type == "COMMA":
                lines[-1].toks.append(following)
        flush()
        return lines
