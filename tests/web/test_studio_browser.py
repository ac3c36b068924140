"""The designer's studio in a real browser (Chromium through Playwright) against a real
`castell serve`: the whole loop of issue 29 — open the studio, type a misspelt region and see
the diagnostic at its line, fix it, see the diff, run a small analysis and see its report,
start a match of the variant and play a turn, reload and find the variant kept — then a
stranger's hostile texts, the read-only link, and axe-core on the page.

With CASTELL_UPDATE_SCREENSHOTS=1 each step's screenshot is written to
docs/images/studio-*.png (docs/studio.md shows them).
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from .conftest import SCREENSHOTS, Server
from .test_browser import click_and_wait, wait_turn
from .test_pages import AXE, axe_counts

EDITOR = "[data-testid=editor]"
DIAGNOSTIC = "[data-testid=diagnostics] [data-testid=diagnostic]"
MISSPELT = (
    "override setup { refill_order [Girona, Barcelona, Lleida, Tarragona, Terassa, Valls, "
    "Vilafranca] }"
)


def shot(page: Any, name: str) -> None:
    if os.environ.get("CASTELL_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate(  # the editor from its first column, as a person would look at it
            """() => { const e = document.querySelector('[data-testid=editor]');
                if (e) { e.scrollLeft = 0; e.dispatchEvent(new Event('scroll')); } }"""
        )
        page.screenshot(path=str(SCREENSHOTS / f"studio-{name}.png"), full_page=True)


def checked(page: Any, ok: str) -> None:
    """Wait until the page's last check is of the editor's current text and says `ok`."""
    page.wait_for_function(
        """(ok) => {
            const s = document.querySelector('[data-testid=check-state]');
            return s && s.dataset.ok === ok && !s.textContent.includes('checking');
        }""",
        arg=ok,
    )


def open_studio(context: Any, server: Server, path: str = "/studio") -> Any:
    page = context.new_page()
    page.goto(server.base + path)
    page.wait_for_function("() => document.querySelector('[data-testid=editor]').value.length > 0")
    return page


def test_from_the_bundled_castell_to_a_played_and_analysed_variant(
    context: Any, server: Server
) -> None:
    page = open_studio(context, server)
    checked(page, "yes")
    assert 'extends "castell"' in page.locator(EDITOR).input_value()
    shot(page, "1-open")

    # Type a misspelt region at the end of the text: the diagnostic is at that line.
    editor = page.locator(EDITOR)
    editor.click()
    page.keyboard.press("Control+End")
    lines_before = editor.input_value().count("\n")
    page.keyboard.type(MISSPELT)
    checked(page, "no")
    diagnostic = page.locator(DIAGNOSTIC).first
    assert diagnostic.get_attribute("data-code") == "E0220"
    assert diagnostic.get_attribute("data-line") == str(lines_before + 1)
    assert "Terassa" in diagnostic.inner_text() and "Terrassa" in diagnostic.inner_text()
    gutter = page.locator(f"#gutter [data-line='{lines_before + 1}']")
    assert gutter.get_attribute("class") == "line-error"
    shot(page, "2-diagnostic")

    # Fix it by retyping the word; the problem goes and the diff shows the change at its line.
    editor.evaluate(
        "(e) => { const i = e.value.indexOf('Terassa'); e.focus(); e.setSelectionRange(i, i + 7); }"
    )
    page.keyboard.type("Terrassa")
    checked(page, "yes")
    assert page.locator(DIAGNOSTIC).count() == 0
    changes = page.locator("[data-testid=diff] [data-testid=change]")
    assert changes.count() >= 1
    assert "refill_order" in changes.first.inner_text()
    assert changes.first.get_attribute("data-line") == str(lines_before + 1)
    shot(page, "3-diff")

    # Save it, then a small analysis: progress, then the report inline.
    page.locator("[data-testid=name]").fill("reversed-refill")
    page.locator("[data-testid=save]").click()
    page.wait_for_function("() => location.hash.startsWith('#v=')")
    variant = re.search(r"#v=([\w-]+)", page.url).group(1)
    page.locator("[data-testid=games]").fill("4")
    page.locator("[data-testid=analyze]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=report]').dataset.url !== undefined",
        timeout=120_000,
    )
    report = page.frame_locator("[data-testid=report]")
    report.locator("h1").first.wait_for()
    title = report.locator("h1").first.inner_text()
    assert "variant" in title and "castell" in title  # the variant against its base
    assert page.locator("[data-testid=progress]").get_attribute("value") == "4"
    shot(page, "4-analysis")

    # Play it: one click, the normal play page, a turn played.
    page.locator("[data-testid=play-players]").select_option("2")
    page.locator("[data-testid=opponents]").select_option("random")
    page.locator("[data-testid=play]").click()
    page.wait_for_url(re.compile(r"/play/"))
    match_id = re.search(r"/play/([\w-]+)", page.url).group(1)
    assert wait_turn(page) == "yours"
    click_and_wait(page, "[data-testid=board] [data-region][data-action^='move ']")
    assert server.get(f"/api/matches/{match_id}")["actions"] >= 1
    assert server.get(f"/api/matches/{match_id}")["game"] == "Castell"
    shot(page, "5-play")

    # Back in the studio, a reload finds the variant kept, with its history.
    page.goto(f"{server.base}/studio#v={variant}")
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=editor]').value.includes('Terrassa')"
    )
    assert page.locator("[data-testid=name]").input_value() == "reversed-refill"
    assert "version 1" in page.locator("[data-testid=mode]").inner_text()
    checked(page, "yes")
    shot(page, "6-kept")

    # The read-only link opens the same text for anyone; saving there makes a copy.
    other = context.browser.new_context()
    try:
        stranger = open_studio(other, server, f"/studio/v/{variant}")
        assert "Terrassa" in stranger.locator(EDITOR).input_value()
        assert "read-only" in stranger.locator("[data-testid=mode]").inner_text()
        stranger.locator("[data-testid=save]").click()
        stranger.wait_for_function("() => location.hash.startsWith('#v=')")
        assert variant not in stranger.url
    finally:
        other.close()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('include "/etc/passwd"\n', "E0271"),
        ('extends "../../../etc/passwd"\n', "E0271"),
        ('extends "castell"\n' + "[" * 5000, "E0106"),
        ("x" * 70_000, "E0107"),
    ],
    ids=["include", "extends-path", "deep", "huge"],
)
def test_hostile_texts_get_diagnostics_and_nothing_more(
    context: Any, server: Server, text: str, code: str
) -> None:
    page = open_studio(context, server)
    checked(page, "yes")
    page.locator(EDITOR).fill(text)
    checked(page, "no")
    found = page.locator(DIAGNOSTIC).first
    assert found.get_attribute("data-code") == code
    assert "root:" not in page.locator("[data-testid=diagnostics]").inner_text()
    if code == "E0271" and text.startswith("include"):
        shot(page, "7-hostile")


def test_axe_finds_no_serious_or_critical_violation_in_the_studio(
    browser: Any, server: Server
) -> None:
    if not AXE.exists():
        message = f"axe-core is not installed at {AXE} (npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    for width, height in ((390, 844), (1366, 768)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = open_studio(context, server)
            checked(page, "yes")
            page.locator(EDITOR).fill('extends "castell"\noverride game { rounds x }\n')
            checked(page, "no")
            counts = axe_counts(page)
            assert counts["critical"] == 0 and counts["serious"] == 0, counts["rules"]
        finally:
            context.close()


def test_completion_and_hover_in_the_editor(context: Any, server: Server) -> None:
    page = open_studio(context, server)
    checked(page, "yes")
    editor = page.locator(EDITOR)
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("override game { ro")
    page.keyboard.press("Control+Space")
    option = page.locator("[data-testid=completions] [data-testid=completion]").first
    option.wait_for()
    assert option.get_attribute("data-label") == "rounds"
    page.keyboard.press("Enter")
    page.keyboard.type(" 12 }")
    checked(page, "yes")
    assert "override game { rounds 12 }" in editor.input_value()
    change = page.locator("[data-testid=diff] [data-testid=change]").first
    assert change.inner_text().endswith("game.rounds: 10 → 12")
    # Ctrl+I on `rounds`: the language server's hover text.
    editor.evaluate(
        "(e) => { const i = e.value.indexOf('rounds 12') + 2; e.focus(); "
        "e.setSelectionRange(i, i); }"
    )
    page.keyboard.press("Control+i")
    tooltip = page.locator("[data-testid=hover]")
    tooltip.wait_for()
    assert tooltip.inner_text().startswith("rounds: a whole number")


def test_download_and_upload_a_castell_file(context: Any, server: Server, tmp_path: Any) -> None:
    page = open_studio(context, server)
    checked(page, "yes")
    page.locator(EDITOR).fill('extends "castell"\n\noverride game { title "Downloaded" }\n')
    checked(page, "yes")
    page.locator("[data-testid=name]").fill("to download")
    with page.expect_download() as download:
        page.locator("[data-testid=download]").click()
    assert download.value.suggested_filename == "to-download.castell"
    saved = tmp_path / "saved.castell"
    download.value.save_as(saved)
    assert 'title "Downloaded"' in saved.read_text()
    # Upload it again, changed, into a fresh studio.
    saved.write_text(saved.read_text().replace("Downloaded", "Uploaded"))
    page.goto(server.base + "/studio")
    page.wait_for_function("() => document.querySelector('[data-testid=editor]').value.length")
    page.locator("[data-testid=upload]").set_input_files(str(saved))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=editor]').value.includes('Uploaded')"
    )
    checked(page, "yes")
    assert (
        page.locator("[data-testid=diff] [data-testid=change]")
        .first.inner_text()
        .endswith("Castell → Uploaded")
    )
    assert page.locator("[data-testid=name]").input_value() == "saved"


def test_play_with_friends_gives_invite_links(context: Any, server: Server) -> None:
    page = open_studio(context, server)
    checked(page, "yes")
    page.locator(EDITOR).fill('extends "castell"\n\noverride game { title "With friends" }\n')
    checked(page, "yes")
    page.locator("[data-testid=play-players]").select_option("3")
    page.locator("[data-testid=opponents]").select_option("empty")
    page.locator("[data-testid=play]").click()
    links = page.locator("[data-testid=invites] a")
    links.first.wait_for()
    assert links.count() == 3  # one per seat, the creator's first
    friend = context.new_page()
    friend.goto(server.base + links.nth(1).get_attribute("href"))
    friend.wait_for_function(
        "() => document.querySelector('[data-testid=status]')?.dataset.version !== undefined"
    )
    assert "With friends" in friend.title() or "With friends" in friend.locator("h1").inner_text()
