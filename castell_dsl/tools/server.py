"""The language server (`castell lsp`): diagnostics, hover, definitions, completion, symbols and
formatting for rule files, over stdio, with pygls.

Every answer comes from the same code the command line uses (the loader and compiler for
diagnostics, `castell fmt` for formatting), so the editor and `castell validate` never
disagree. Each change re-analyses the document (about 10 ms for a variant, 80 ms for a whole
game), so there is no debounce; the last analysis that loaded is kept for hover, definitions
and completion while the text does not parse.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..language import syntax as s
from ..language.diagnostics import Diagnostic, Span
from ..language.source import MAX_FILE_BYTES, read_capped
from .analysis import Analysis, Cancelled, analyze
from .assist import Completion, completions, entry_key, hover_text
from .formatter import format_text
from .navigation import (
    definitions_named,
    directive_at,
    entry_path,
    ref_kinds,
    resolve,
    target_file,
    word_at,
)


class CastellServer(LanguageServer):
    """The pygls server, with the analyses of the open documents.

    A document is analysed in a background thread after each change, so the server keeps
    answering while a large document compiles: every change gives the document a new
    generation, an analysis of an older one stops at its next step (`analysis.Cancelled`) or
    is dropped when it ends, and queued ones that are already stale never start.
    """

    def __init__(self) -> None:
        super().__init__("castell-lsp", __version__)
        self.analyses: dict[str, Analysis] = {}
        #: Other files this document's diagnostics were published to (cleared on the next run).
        self.elsewhere: dict[str, set[str]] = defaultdict(set)
        #: The latest generation of each document (one more per change).
        self.generations: dict[str, int] = defaultdict(int)
        self.validator = ThreadPoolExecutor(1, thread_name_prefix="castell-lsp-validate")


server = CastellServer()


# ---- positions --------------------------------------------------------------------------------


def uri_path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def _utf16(line_text: str, column: int) -> int:
    """The LSP character (UTF-16 units) of a 1-based character column."""
    head = line_text[: max(column - 1, 0)]
    return len(head.encode("utf-16-le")) // 2 + max(column - 1 - len(head), 0)


def _column(line_text: str, character: int) -> int:
    """The 1-based character column of an LSP character (UTF-16 units)."""
    units = 0
    for index, ch in enumerate(line_text):
        if units >= character:
            return index + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text) + 1 + max(character - units, 0)


def to_range(span: Span, lines: list[str]) -> lsp.Range:
    def position(line: int, column: int) -> lsp.Position:
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        return lsp.Position(line=max(line - 1, 0), character=_utf16(text, column))

    return lsp.Range(position(span.line, span.column), position(span.end_line, span.end_column))


def from_position(analysis: Analysis, position: lsp.Position) -> tuple[int, int]:
    lines = analysis.text.splitlines()
    text = lines[position.line] if position.line < len(lines) else ""
    return position.line + 1, _column(text, position.character)


def _lines_of(analysis: Analysis, shown: str) -> list[str]:
    if shown == str(analysis.path):
        return analysis.text.splitlines()
    source = analysis.sources.get(shown)
    return source.lines if source is not None else []


def location(analysis: Analysis, span: Span) -> lsp.Location:
    file = analysis.file_of(span.path)
    return lsp.Location(file.as_uri(), to_range(span, _lines_of(analysis, span.path)))


# ---- diagnostics ------------------------------------------------------------------------------


def _lsp_diagnostic(diag: Diagnostic, lines: list[str]) -> lsp.Diagnostic:
    message = diag.message + (f"\nhelp: {diag.hint}" if diag.hint else "")
    return lsp.Diagnostic(
        range=to_range(diag.span, lines),
        message=message,
        severity=lsp.DiagnosticSeverity.Error if diag.is_error else lsp.DiagnosticSeverity.Warning,
        code=diag.code,
        source="castell",
    )


def _link_line(analysis: Analysis) -> Span:
    """Where an error in another file is shown in this one: its `extends` or `include`."""
    for number, text in enumerate(analysis.text.splitlines(), start=1):
        words = text.split()
        if words and words[0] in ("extends", "include"):
            return Span(str(analysis.path), number, 1, number, len(text) + 1)
    return Span.point(str(analysis.path))


def publish(ls: CastellServer, uri: str, analysis: Analysis) -> None:
    here: list[lsp.Diagnostic] = []
    others: dict[str, list[lsp.Diagnostic]] = defaultdict(list)
    lines = analysis.text.splitlines()
    link = _link_line(analysis)
    for diag in analysis.diagnostics:
        file = analysis.file_of(diag.span.path)
        if file == analysis.path:
            here.append(_lsp_diagnostic(diag, lines))
            continue
        other = _lsp_diagnostic(diag, _lines_of(analysis, diag.span.path))
        others[file.as_uri()].append(other)
        summary = _lsp_diagnostic(diag, lines)
        summary.range = to_range(link, lines)
        summary.message = f"in {diag.span.path}:{diag.span.line}: {summary.message}"
        summary.related_information = [
            lsp.DiagnosticRelatedInformation(location(analysis, diag.span), diag.message)
        ]
        here.append(summary)
    for other_uri in ls.elsewhere[uri] - set(others):
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(other_uri, []))
    for other_uri, diags in others.items():
        if other_uri not in ls.analyses:  # an open document publishes its own
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(other_uri, diags))
    ls.elsewhere[uri] = set(others)
    # The document's own last: a client that waits for it has the other files' too.
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, here))


def document_text(ls: CastellServer, uri: str) -> str:
    """An open document's text, or an unopened one's file read as `castell validate` reads it
    (a regular file, at most the rule-file cap; "" when it cannot be read: the analysis of
    that text says nothing about a file the editor did not open)."""
    opened = ls.workspace.text_documents.get(unquote(uri))
    if opened is not None:
        return opened.source
    path = uri_path(uri)
    try:
        data = read_capped(path, MAX_FILE_BYTES)
    except OSError:
        return ""
    if len(data) > MAX_FILE_BYTES:
        return "x" * (MAX_FILE_BYTES + 1)  # analysed as too large (E0107), like the file
    return data.decode("utf-8", "replace")


def refresh(ls: CastellServer, uri: str) -> None:
    """Analyse the document now and publish (a request about a document not analysed yet)."""
    store(ls, uri, analyze(uri_path(uri), document_text(ls, uri)))


def schedule(ls: CastellServer, uri: str) -> None:
    """Analyse the document's current text in the background; publish unless it changed."""
    ls.generations[uri] += 1
    wanted = ls.generations[uri]
    text = document_text(ls, uri)

    def current() -> bool:
        return ls.generations.get(uri) == wanted

    def work() -> Analysis | None:
        if not current():
            return None  # a newer text is queued behind this one
        try:
            return analyze(uri_path(uri), text, cancelled=lambda: not current())
        except Cancelled:
            return None

    def done(future: asyncio.Future[Analysis | None]) -> None:
        analysis = future.result() if not future.cancelled() else None
        if analysis is not None and current():
            store(ls, uri, analysis)

    future = asyncio.get_running_loop().run_in_executor(ls.validator, work)
    future.add_done_callback(done)


def store(ls: CastellServer, uri: str, analysis: Analysis) -> None:
    """Keep the analysis for requests and publish its diagnostics."""
    previous = ls.analyses.get(uri)
    if analysis.definitions is None and previous is not None:
        # Keep what the last good text defined, for navigation while typing.
        analysis.definitions, analysis.kinds = previous.definitions, previous.kinds
    if not analysis.kinds and previous is not None:
        analysis.kinds = previous.kinds
    if analysis.rules is None and previous is not None:
        analysis.rules = previous.rules
    ls.analyses[uri] = analysis
    publish(ls, uri, analysis)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CastellServer, params: lsp.DidOpenTextDocumentParams) -> None:
    schedule(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CastellServer, params: lsp.DidChangeTextDocumentParams) -> None:
    schedule(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CastellServer, params: lsp.DidSaveTextDocumentParams) -> None:
    schedule(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CastellServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.generations.pop(uri, None)  # an analysis still running is dropped
    for other in ls.elsewhere.pop(uri, set()) | {uri}:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(other, []))


# ---- hover and definitions --------------------------------------------------------------------


def _analysis(ls: CastellServer, uri: str) -> Analysis:
    if uri not in ls.analyses:
        refresh(ls, uri)
    return ls.analyses[uri]


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: CastellServer, params: lsp.HoverParams) -> lsp.Hover | None:
    analysis = _analysis(ls, params.text_document.uri)
    line, column = from_position(analysis, params.position)
    word = word_at(analysis.text, line, column)
    if word is None:
        return None
    text = hover_text(analysis, line, column, word.bare, word.quoted)
    if text is None:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: CastellServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    analysis = _analysis(ls, params.text_document.uri)
    line, column = from_position(analysis, params.position)
    word = word_at(analysis.text, line, column)
    if word is None:
        return None
    directive = directive_at(analysis, line)
    if word.quoted and directive is not None:
        target = target_file(analysis, directive, word.bare)
        if target is None:
            return None
        return [lsp.Location(target.as_uri(), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))]
    wanted: tuple[str, ...] = ()
    if analysis.tree is not None:
        path = entry_path(analysis.tree, line, column)
        wanted = ref_kinds(resolve(analysis.kinds, [entry_key(e) for e in path])[1])
    found = [
        location(analysis, entry.label_span or entry.span)
        for kind, entry in definitions_named(analysis, word.bare)
        if not wanted or kind in wanted
    ]
    return found or None


# ---- completion -------------------------------------------------------------------------------


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" "]))
def completion(ls: CastellServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    analysis = _analysis(ls, params.text_document.uri)
    line, column = from_position(analysis, params.position)
    items = [_lsp_item(c) for c in completions(analysis, line, column)]
    return lsp.CompletionList(is_incomplete=False, items=items)


#: How each sort of completion (`assist.Completion.sort`) is shown by an LSP client.
_SORTS = {
    "keyword": lsp.CompletionItemKind.Keyword,
    "kind": lsp.CompletionItemKind.Class,
    "field": lsp.CompletionItemKind.Field,
    "value": lsp.CompletionItemKind.EnumMember,
    "name": lsp.CompletionItemKind.Reference,
}


def _lsp_item(found: Completion) -> lsp.CompletionItem:
    item = lsp.CompletionItem(label=found.label, kind=_SORTS[found.sort])
    if found.detail or found.sort == "field":
        item.detail = found.detail
    if found.documentation:
        item.documentation = lsp.MarkupContent(lsp.MarkupKind.Markdown, found.documentation)
    return item


# ---- symbols and formatting -------------------------------------------------------------------


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(ls: CastellServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    analysis = _analysis(ls, params.text_document.uri)
    if analysis.tree is None:
        return []
    lines = analysis.text.splitlines()
    out = []
    for item in analysis.tree.items:
        if isinstance(item, s.Entry):
            out.append(_entry_symbol(item, lines, top=True))
        elif isinstance(item, s.Override):
            name = f"override {item.kind}" + (f" {item.label}" if item.label else "")
            selection = item.label_span or item.kind_span
            out.append(_symbol(name, lsp.SymbolKind.Event, item.span, selection, lines))
        elif isinstance(item, s.Remove):
            names = ", ".join(label for label, _ in item.labels)
            name = f"remove {item.kind} {names}".rstrip()
            out.append(_symbol(name, lsp.SymbolKind.Event, item.span, item.kind_span, lines))
        else:
            what = "extends" if isinstance(item, s.Extends) else "include"
            target = item.target if isinstance(item, s.Extends) else item.path
            name = f'{what} "{target}"'
            out.append(_symbol(name, lsp.SymbolKind.File, item.span, item.span, lines))
    return out


def _symbol(
    name: str, kind: lsp.SymbolKind, span: Span, selection: Span, lines: list[str]
) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(
        name=name,
        kind=kind,
        range=to_range(span, lines),
        selection_range=to_range(selection, lines),
    )


def _entry_symbol(entry: s.Entry, lines: list[str], top: bool) -> lsp.DocumentSymbol:
    name = entry.key + (f" {entry.label}" if entry.label else "")
    if top:
        kind = lsp.SymbolKind.Class if entry.label else lsp.SymbolKind.Module
    else:
        kind = lsp.SymbolKind.Field
    symbol = _symbol(name, kind, entry.span, entry.label_span or entry.key_span, lines)
    if isinstance(entry.value, s.Block) and entry.value.entries:
        symbol.children = [_entry_symbol(e, lines, top=False) for e in entry.value.entries]
    return symbol


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: CastellServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    source = document_text(ls, params.text_document.uri)
    if len(source) > MAX_FILE_BYTES:
        return []  # too large to be a rule file (E0107 is shown)
    result = format_text(source, str(uri_path(params.text_document.uri)))
    if result.text is None or result.text == source:
        return []  # a syntax error is already shown as a diagnostic
    lines = source.splitlines()
    end = lsp.Position(len(lines), 0)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), result.text)]


def main() -> None:
    """Serve over stdio until the client exits, every message read within bounds
    (`framing.py`)."""
    from .framing import serve_stdio

    serve_stdio(server)
