"""`castell lsp`, driven as an editor drives it: a real client talking JSON-RPC over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from castell_dsl.runtime.loading import rule_path

ROOT = Path(__file__).resolve().parents[2]
#: The installed base rule file (a checkout's `rules/castell/` with an editable install; inside
#: the installed package otherwise): the file the server resolves `extends "castell"` to.
BASE = rule_path().find_rules("castell").resolve()

pytestmark = pytest.mark.asyncio


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "castell_dsl", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def open_document(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "castell", 1, text))
    )
    await diagnostics_for(client, uri)
    return uri


async def diagnostics_for(client: LanguageClient, uri: str) -> None:
    """Wait until the server publishes diagnostics for `uri` (other files' may come first)."""
    client.diagnostics.pop(uri, None)
    while uri not in client.diagnostics:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def position_of(text: str, needle: str, offset: int = 1) -> lsp.Position:
    before = text[: text.index(needle) + offset]
    return lsp.Position(before.count("\n"), len(before.rsplit("\n", 1)[-1]))


async def test_an_error_is_published_with_its_code_position_and_hint(client, tmp_path):
    text = 'extends "castell"\n\noverride game { rounds 0 }\n'
    uri = await open_document(client, tmp_path / "v.castell", text)
    (diag,) = client.diagnostics[uri]
    assert diag.code == "E0211"
    assert diag.severity == lsp.DiagnosticSeverity.Error
    assert diag.range.start == lsp.Position(2, 23)
    assert "rounds" in diag.message


async def test_errors_a_variant_causes_in_its_base_point_there(client, tmp_path):
    text = 'extends "castell"\nremove region Girona\n'
    uri = await open_document(client, tmp_path / "v.castell", text)
    mine = client.diagnostics[uri]
    assert mine and all(d.range.start.line == 0 for d in mine)  # shown on the `extends` line
    related = [r.location for d in mine for r in d.related_information or ()]
    assert related and {loc.uri for loc in related} == {BASE.as_uri()}
    assert any(d.code == "E0220" for d in mine)
    assert client.diagnostics.get(BASE.as_uri())  # and published for the base file itself


async def test_a_syntax_error_while_typing_is_located(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", 'extends "castell"\n')
    assert list(client.diagnostics[uri]) == []
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument('extends "castell"\noverride game {\n')],
        )
    )
    await diagnostics_for(client, uri)
    (diag,) = client.diagnostics[uri]
    assert diag.code == "E0111" and diag.range.start == lsp.Position(1, 14)


VARIANT = (
    'extends "castell"\n\noverride setup {\n'
    "  refill_order [Girona, Barcelona, Lleida, Tarragona, Terrassa, Valls, Vilafranca]\n}\n"
)


async def test_hover_shows_what_a_region_is(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", VARIANT)
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, "Barcelona"))
    )
    assert result is not None
    assert isinstance(result.contents, lsp.MarkupContent)
    assert "region Barcelona" in result.contents.value
    assert 'adjacent: ["Girona", "Terrassa", "Vilafranca"]' in result.contents.value


async def test_hover_documents_a_field_and_a_kind(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", VARIANT)
    field = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, "refill_order"))
    )
    assert field is not None and isinstance(field.contents, lsp.MarkupContent)
    assert "**refill_order**: a list of" in field.contents.value
    kind = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, "setup {"))
    )
    assert kind is not None and isinstance(kind.contents, lsp.MarkupContent)
    assert kind.contents.value.startswith("**setup**") and "`team`" in kind.contents.value


async def test_go_to_definition_jumps_into_the_base_file(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", VARIANT)
    result = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, "Barcelona"))
    )
    assert isinstance(result, list)
    (found,) = result
    assert found.uri == BASE.as_uri()
    line = BASE.read_text(encoding="utf-8").splitlines()[found.range.start.line]
    assert line.startswith("region Barcelona")
    base = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, '"castell"'))
    )
    assert isinstance(base, list) and base[0].uri == BASE.as_uri()


async def test_completion_offers_kinds_at_top_level_and_the_fields_of_a_block(client, tmp_path):
    text = 'extends "castell"\n\noverride skill balance {\n  \n}\n'
    uri = await open_document(client, tmp_path / "v.castell", text)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(3, 2))
    )
    assert isinstance(result, lsp.CompletionList)
    assert {"title", "max_rank", "relaxes"} <= {item.label for item in result.items}
    top = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 0))
    )
    assert isinstance(top, lsp.CompletionList)
    assert {"override", "region", "performance"} <= {item.label for item in top.items}


async def test_completion_of_a_reference_lists_the_defined_names(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", VARIANT)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), position_of(VARIANT, "[", 1))
    )
    assert isinstance(result, lsp.CompletionList)
    assert {"Barcelona", "Girona", "Vilafranca"} <= {item.label for item in result.items}


async def test_document_symbols_list_the_definitions(client, tmp_path):
    uri = await open_document(client, tmp_path / "v.castell", VARIANT)
    result = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert result is not None
    assert [s.name for s in result] == ['extends "castell"', "override setup"]


async def test_formatting_uses_castell_fmt(client, tmp_path):
    text = 'extends   "castell"\noverride game {rounds 8}\n'
    uri = await open_document(client, tmp_path / "v.castell", text)
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert edits is not None
    (edit,) = edits
    assert edit.new_text == 'extends "castell"\noverride game { rounds 8 }\n'


GENEROUS = (
    'extends "castell"\n\noverride prize trophy { points 7 }\n'
    "override game { first_player first_seat }\n"
)


async def test_hover_on_an_overridden_definition_shows_its_effective_value_and_both_lines(
    client, tmp_path
):
    """Hovering `trophy` in a variant that overrides it: the value the rules use (7 points),
    the base line that defines it and the variant's line that overrides it."""
    path = tmp_path / "v.castell"
    uri = await open_document(client, path, GENEROUS)
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position_of(GENEROUS, "trophy"))
    )
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    text = result.contents.value
    assert "**prize trophy** (as overridden)" in text
    assert "points: 7" in text and "points: 5" not in text
    base_line = next(
        n for n, line in enumerate(BASE.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("prize trophy")
    )  # fmt: skip
    assert "defined at `" in text and f"castell.castell:{base_line}`" in text
    assert f"overridden at `{path}:3`: `override prize trophy {{ points 7 }}`" in text


async def test_hover_on_an_override_of_a_singleton_shows_what_it_leaves(client, tmp_path):
    path = tmp_path / "v.castell"
    text = GENEROUS.replace("{ first_player first_seat }", "{\n  first_player first_seat\n}")
    uri = await open_document(client, path, text)
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position_of(text, "game {"))
    )
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    value = result.contents.value
    assert value.startswith("**game castell** (as overridden)")
    assert '"first_player": "first_seat"' in value and '"title": "Castell"' in value
    assert f"overridden at `{path}:4`" in value
