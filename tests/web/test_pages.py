"""The pages as a player sees them, in Chromium: phones and desktops alike (390x844, 768x1024,
1366x768: no sideways scrolling, the board at least 90% of a phone's width, controls at least
40 px tall, region cards and quilts that do not overlap), players' names and "(you)" on one's
own seat only, a log naming seat and colour, the tab's title and a sound on one's turn, the
scores by category and the result panel, keyboard-only turns of both games, axe-core's
accessibility rules, and icons drawn as SVG.

Screenshots of both games mid-game and at the end, at phone and desktop sizes, are written to
docs/images/ with CASTELL_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCREENSHOTS, Server
from .test_browser import wait_turn

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("CASTELL_AXE", ROOT / "node_modules" / "axe-core" / "axe.min.js"))
VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1366, 768)}
STATUS = "[data-testid=status]"
LEGAL = "[data-testid=legal-actions] button"


def page_at(browser: Any, size: str) -> Any:
    width, height = VIEWPORTS[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(20_000)
    return context.new_page()


def wait_ready(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=status]');"
        " return s && s.dataset.version && document.querySelector('#board-svg').children.length }"
    )


def visit(page: Any, server: Server, name: str, path: str) -> None:
    """Open one of the pages and wait until it has drawn what it shows."""
    page.goto(server.base + path)
    if name == "lobby":
        page.wait_for_selector("[data-testid=seat]")
    elif name == "replay":
        page.wait_for_selector(f"{STATUS}:has-text('Step 0')")
    else:
        wait_ready(page)


def shoot(page: Any, name: str) -> None:
    if os.environ.get("CASTELL_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def layout_problems(page: Any) -> list[str]:
    """What breaks the layout: sideways scrolling, a control under 40 px, overlapping parts."""
    return page.evaluate(
        """() => {
        const problems = [];
        const doc = document.documentElement;
        const what = (n) => n.outerHTML.slice(0, 70);
        if (doc.scrollWidth > doc.clientWidth + 1) {
          problems.push(`scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
        }
        const controls = document.querySelectorAll(
          'button, select, input:not([type=checkbox]):not([type=range]), nav a');
        for (const c of controls) {
          const r = c.getBoundingClientRect();
          if (!r.width || c.closest('[hidden]')) continue;
          if (r.height < 40) problems.push(`control under 40 px: ${what(c)} (${r.height})`);
          if (r.right > doc.clientWidth + 1) problems.push(`control off the screen: ${what(c)}`);
        }
        const boxes = (selector) => [...document.querySelectorAll(selector)]
          .map((n) => [n, n.getBoundingClientRect()]);
        const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
          && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        const pieces = [...boxes('#board-svg [data-region] > rect'),
          ...boxes('#board-svg [data-goal-choice]'), ...boxes('#board-svg [data-hex] > polygon')];
        for (let i = 0; i < pieces.length; i++) for (let j = i + 1; j < pieces.length; j++) {
          const [a, ra] = pieces[i], [b, rb] = pieces[j];
          if (a.parentNode.dataset.hex && b.parentNode.dataset.hex) continue;  // hexes tile
          if (overlap(ra, rb)) {
            problems.push(`overlap: ${what(a.parentNode)} and ${what(b.parentNode)}`);
          }
        }
        return problems;
    }"""
    )


def finished(server: Server, match: dict) -> None:
    for _ in range(600):
        if server.get(f"/api/matches/{match['id']}")["over"]:
            return
        import time

        time.sleep(0.1)
    raise AssertionError("the match did not end")


def every_page(server: Server, replayed: str) -> dict[str, str]:
    """The lobby, a seat's page of each game, the watch page and the replay of a finished
    game of `replayed`, by name."""
    castell = server.create(rules="castell", players=["you", "greedy"], seed=3, names=["Anna"])
    calico = server.create(rules="calico", players=["you", "greedy"], seed=5, names=["Anna"])
    done = server.create(rules=replayed, players=["random", "random"], seed=8)
    finished(server, done)
    return {
        "lobby": "/",
        "play-castell": castell["seats"][0]["url"],
        "play-calico": calico["seats"][0]["url"],
        "watch": castell["watch_url"],
        "replay": f"/replay/{done['id']}",
    }


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_page_fits_phones_and_desktops(browser: Any, server: Server, size: str) -> None:
    pages = every_page(server, "calico")
    page = page_at(browser, size)
    try:
        for name, path in pages.items():
            visit(page, server, name, path)
            assert layout_problems(page) == [], (name, size)
            if name.startswith("play-") and size == "phone":
                board = page.locator("#board-svg").bounding_box()
                assert board["width"] >= 0.9 * VIEWPORTS["phone"][0], board
    finally:
        page.context.close()


def test_names_you_on_ones_own_seat_the_log_and_the_tab_title(browser: Any, server: Server) -> None:
    match = server.create(rules="castell", players=["you", "you"], seed=11, names=["Anna"])
    anna, bob = page_at(browser, "desktop"), page_at(browser, "phone")
    try:
        bob.goto(server.base + match["seats"][1]["url"])
        bob.wait_for_selector("[data-testid=name-form]:visible")
        bob.fill("[data-testid=name-input]", "Bob")
        bob.click("[data-testid=name-save]")
        bob.wait_for_selector("[data-testid=name-form]", state="hidden")
        anna.goto(server.base + match["seats"][0]["url"])
        wait_ready(anna)
        assert anna.locator("[data-testid=name-form]").is_hidden()
        for page in (anna, bob):
            wait_ready(page)
        annas_turn = anna.locator(f"{STATUS}[data-turn=yours]").count()
        mover, other = (anna, bob) if annas_turn else (bob, anna)
        mover_name, other_name = ("Anna", "Bob") if mover is anna else ("Bob", "Anna")
        assert mover.locator(STATUS).inner_text().startswith(f"Your turn, {mover_name} (you)")
        assert other.locator(STATUS).inner_text().startswith(f"Waiting for {mover_name} ")
        assert "(you)" not in other.locator(STATUS).inner_text()
        assert mover.title().startswith("Your turn")
        assert not other.title().startswith("Your turn")
        other.check("[data-testid=sound]")
        before = other.locator(STATUS).get_attribute("data-version")
        mover.locator(f"{LEGAL}[data-action=end]").click()
        wait_turn(other, before)
        assert other.title().startswith("Your turn")
        assert other.locator("[data-testid=sound]").get_attribute("data-played") == "1"
        line = other.locator("[data-testid=log] li").last
        assert line.inner_text().startswith(mover_name) and line.inner_text().endswith("end")
        colour = "red" if mover is anna else "blue"
        assert line.locator(".swatch").get_attribute("aria-label") == colour
        table = other.locator("[data-testid=score-table]").inner_text()
        assert f"{other_name} (you)" in table and "best tower" in table
    finally:
        anna.context.close()
        bob.context.close()


def test_spectators_see_no_controls_and_hints_follow_the_position(
    browser: Any, server: Server
) -> None:
    match = server.create(rules="castell", players=["you", "random"], seed=3)
    page, watcher = page_at(browser, "desktop"), page_at(browser, "phone")
    try:
        watcher.goto(server.base + match["watch_url"])
        wait_ready(watcher)
        assert watcher.locator("[data-testid=player-controls]").is_hidden()
        assert watcher.locator("[data-testid=action-input]").is_hidden()
        page.goto(server.base + match["seats"][0]["url"])
        wait_turn(page)
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=hints] li")
        assert "Next:" in page.locator("[data-testid=hints]").inner_text()
        before = page.locator(STATUS).get_attribute("data-version")
        page.locator(f"{LEGAL}[data-action^='move ']").first.click()
        wait_turn(page, before)
        assert page.locator("[data-testid=hints] li").count() == 0  # the old hint is gone
    finally:
        page.context.close()
        watcher.context.close()


def test_a_granted_special_action_is_explained_in_the_status(browser: Any, server: Server) -> None:
    """C-4.6: training a Special tile grants a special action; the status says why `end` is
    not offered until it is taken."""
    match = server.create(rules="castell", players=["you", "random"], seed=3)
    page = page_at(browser, "desktop")
    try:
        page.goto(server.base + match["seats"][0]["url"])
        turn = wait_turn(page)
        for _ in range(40):
            assert turn != "over"
            train = page.locator(f"{LEGAL}[data-action='train special']")
            before = page.locator(STATUS).get_attribute("data-version")
            if train.count():
                train.click()
                wait_turn(page, before)
                status = page.locator(STATUS).inner_text()
                assert "You gained a special action" in status, status
                assert page.locator(f"{LEGAL}[data-action=end]").count() == 0
                return
            moves = page.locator(f"{LEGAL}[data-action^='move ']")
            texts = [moves.nth(i).inner_text() for i in range(moves.count())]
            region = next((moves.nth(i) for i, x in enumerate(texts) if "Girona" in x), None)
            (region or page.locator(f"{LEGAL}[data-action=end]")).click()
            turn = wait_turn(page, before)
        raise AssertionError("no Special tile to train in 40 decisions")
    finally:
        page.context.close()


def keyboard_to(page: Any, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches `selector` (keyboard alone)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_turn_of_each_game_by_keyboard_alone(browser: Any, server: Server) -> None:
    """C-4.1: move on the board, then end; K-3: pick a hand patch, a hex, a market patch."""
    page = page_at(browser, "desktop")
    try:
        castell = server.create(rules="castell", players=["you", "random"], seed=3)
        page.goto(server.base + castell["seats"][0]["url"])
        turn = wait_turn(page)
        before = page.locator(STATUS).get_attribute("data-version")
        keyboard_to(page, "#board-svg [data-region][data-action^='move ']")
        page.keyboard.press("Enter")
        wait_turn(page, before)
        before = page.locator(STATUS).get_attribute("data-version")
        keyboard_to(page, f"{LEGAL}[data-action=end]")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => document.querySelector('[data-testid=status]').dataset.version !== v",
            arg=before,
        )
        log = page.locator("[data-testid=log]").inner_text()
        assert re.search(r"move \w+", log) and "end" in log

        calico = server.create(rules="calico", players=["you", "random"], seed=5)
        page.goto(server.base + calico["seats"][0]["url"])
        turn = wait_turn(page)
        placeholder = page.locator("[data-testid=action-input]").get_attribute("placeholder")
        assert placeholder.startswith("an action, e.g. goals "), placeholder  # Calico's notation
        for step in ("goals", "hand", "hex", "market"):
            before = page.locator(STATUS).get_attribute("data-version")
            if step == "goals":
                keyboard_to(page, f"{LEGAL}[data-action^='goals ']")
            elif step == "hand":
                keyboard_to(page, "#board-svg [data-patch].clickable")
                page.keyboard.press("Enter")
                continue
            elif step == "hex":
                keyboard_to(page, "#board-svg [data-target=yes]")
            else:
                keyboard_to(page, "#board-svg [data-action^='take ']")
            page.keyboard.press("Enter")
            turn = wait_turn(page, before)
        assert turn == "yours"
        log = page.locator("[data-testid=log]").inner_text()
        assert "place " in log and "take " in log
    finally:
        page.context.close()


def axe_counts(page: Any) -> dict[str, int]:
    page.evaluate(AXE.read_text())
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))"
    )
    counts = {"critical": 0, "serious": 0, "moderate": 0, "minor": 0}
    for violation in found:
        counts[violation["impact"] or "minor"] += 1
    counts["rules"] = found  # type: ignore[assignment]
    return counts


def test_axe_finds_no_serious_or_critical_violation(browser: Any, server: Server) -> None:
    if not AXE.exists():
        message = f"axe-core is not installed at {AXE} (npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    pages = every_page(server, "castell")
    report = {}
    for size in ("phone", "desktop"):
        page = page_at(browser, size)
        try:
            for name, path in pages.items():
                visit(page, server, name, path)
                report[f"{name}@{size}"] = axe_counts(page)
        finally:
            page.context.close()
    if os.environ.get("CASTELL_AXE_REPORT"):
        Path(os.environ["CASTELL_AXE_REPORT"]).write_text(json.dumps(report, indent=1))
    for where, counts in report.items():
        assert counts["critical"] == 0 and counts["serious"] == 0, (where, counts["rules"])


def test_icons_are_svg_not_font_glyphs() -> None:
    """Symbols such as ⏮ ★ ● ◀ render as empty boxes where a font lacks them: the pages and
    the games' renderers draw icons as SVG."""
    symbols = re.compile(
        "[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff]"
    )
    files = [
        *sorted((ROOT / "plugins" / "castell_web" / "static").glob("*.*")),
        *sorted(ROOT.glob("plugins/*/web/*.js")),
    ]
    assert files
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            assert not symbols.search(line), f"{path.name}:{number}: {line.strip()}"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_both_games_mid_game_and_at_the_end(browser: Any, server: Server, size: str) -> None:
    """Both games played to the end by clicking, with a screenshot mid-game and of the result
    panel (winners, what decided, categories per seat, a link to the replay)."""
    page = page_at(browser, size)
    try:
        for rules in ("castell", "calico"):
            match = server.create(rules=rules, players=["you", "greedy"], seed=7, names=["Anna"])
            page.goto(server.base + match["seats"][0]["url"])
            turn = wait_turn(page)
            decisions = 0
            while turn != "over":
                decisions += 1
                if decisions == 12:
                    shoot(page, f"{rules}-{size}-mid-game")
                before = page.locator(STATUS).get_attribute("data-version")
                buttons = page.locator(LEGAL)
                if rules == "castell":  # move, recruit, build the best tower, end
                    kind = {1: "move ", 2: "recruit "}.get(decisions % 3, "tower ")
                    options = page.locator(f"{LEGAL}[data-action^='{kind}']")
                    end = page.locator(f"{LEGAL}[data-action=end]")
                    target = options.last if options.count() else end
                else:
                    target = buttons.first
                target.click()
                turn = wait_turn(page, before)
            panel = page.locator("[data-testid=result]")
            panel.wait_for()
            text = panel.inner_text()
            assert "Winner" in text and "Anna (you)" in text
            assert page.locator("[data-testid=result] [data-testid=score-table]").count() == 1
            assert page.locator("[data-testid=replay-link]").get_attribute("href") == (
                f"/replay/{match['id']}"
            )
            shoot(page, f"{rules}-{size}-end")
    finally:
        page.context.close()
