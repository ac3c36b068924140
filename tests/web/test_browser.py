"""The pages in a real browser (Chromium through Playwright) against a real `castell serve`:
whole games played by clicking, two players, a spectator, reloads, refusals, a server restart
and the replay viewer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Server

STATUS = "[data-testid=status]"
LEGAL = "[data-testid=legal-actions] button"


def version(page: Any) -> str | None:
    return page.locator(STATUS).get_attribute("data-version")


def wait_turn(page: Any, after: str | None = None) -> str:
    """Wait until it is this page's turn or the game is over (and the state is newer than
    `after`); returns the turn marker: 'yours' or 'over'."""
    page.wait_for_function(
        """(after) => {
            const s = document.querySelector('[data-testid=status]');
            return s && s.dataset.version && s.dataset.version !== after
                && (s.dataset.turn === 'yours' || s.dataset.turn === 'over');
        }""",
        arg=after,
    )
    return page.locator(STATUS).get_attribute("data-turn")


def click_and_wait(page: Any, selector: str) -> str:
    before = version(page)
    page.locator(selector).first.click()
    return wait_turn(page, before)


def server_log_length(server: Server, match: dict) -> int:
    return server.get(f"/api/matches/{match['id']}")["actions"]


def open_seat(context: Any, server: Server, match: dict, seat: int = 0) -> Any:
    page = context.new_page()
    page.goto(server.base + match["seats"][seat]["url"])
    return page


def test_a_whole_castell_game_by_clicking(context: Any, server: Server, screenshot: Any) -> None:
    match = server.create(rules="castell", players=["you", "random"], seed=3)
    page = open_seat(context, server, match)
    turn = wait_turn(page)
    # Move by clicking a region, recruit by picking castellers, train on the wheel.
    turn = click_and_wait(page, "[data-testid=board] [data-region][data-action^='move ']")
    page.locator("[data-testid=board] [data-testid^=recruit-]").first.click()
    turn = click_and_wait(page, "[data-testid=board] [data-action^='recruit ']")
    if page.locator("[data-testid=board] [data-sector][data-action^='train ']").count():
        turn = click_and_wait(page, "[data-testid=board] [data-sector][data-action^='train ']")
    screenshot(page, "castell-board")
    while turn != "over":  # then end each turn from the legal-action list
        turn = click_and_wait(page, f"{LEGAL}[data-action=end]")
    assert "Game over" in page.locator(STATUS).inner_text()
    assert server.get(f"/api/matches/{match['id']}")["over"]


def test_a_whole_calico_game_by_clicking(context: Any, server: Server, screenshot: Any) -> None:
    match = server.create(rules="calico", players=["you", "random"], seed=5)
    page = open_seat(context, server, match)
    board = page.locator("[data-testid=board]")
    turn = wait_turn(page)
    shot = False
    while turn != "over":
        first = page.locator(LEGAL).first.get_attribute("data-action")
        if first.startswith("goals "):
            turn = click_and_wait(page, LEGAL)
        elif first.startswith("place "):
            board.locator("[data-patch].clickable").first.click()  # a hand patch
            turn = click_and_wait(page, "[data-testid=board] [data-target=yes]")  # a hex
        else:
            turn = click_and_wait(page, "[data-testid=board] [data-action^='take ']")  # market
            if not shot and len(page.locator("[data-testid=log] li").all()) > 30:
                screenshot(page, "calico-board")
                shot = True
    assert "Game over" in page.locator(STATUS).inner_text()


def test_two_players_and_a_spectator(browser: Any, server: Server) -> None:
    match = server.create(rules="castell", players=["you", "you"], seed=11)
    contexts = [browser.new_context() for _ in range(3)]
    try:
        pages = [open_seat(contexts[i], server, match, i) for i in range(2)]
        watcher = contexts[2].new_page()
        watcher.goto(server.base + match["watch_url"])
        watcher.wait_for_selector(f"{STATUS}[data-version]")
        assert "Watching" in watcher.locator(STATUS).inner_text()
        for _ in range(3):
            mover = next(p for p in pages if p.locator(f"{STATUS}[data-turn=yours]").count())
            other = pages[1 - pages.index(mover)]
            assert other.locator(LEGAL).count() == 0
            before = version(other)
            mover.locator(f"{LEGAL}[data-action=end]").click()
            wait_turn(other, before)
        watcher.wait_for_function(
            "() => document.querySelectorAll('[data-testid=log] li').length >= 3"
        )
        assert watcher.locator(LEGAL).count() == 0
        assert (
            "Here: seat 0, seat 1; 1 watching"
            in watcher.locator("[data-testid=presence]").inner_text()
        )
    finally:
        for made in contexts:
            made.close()


def test_a_reload_resumes_and_a_refusal_is_explained(context: Any, server: Server) -> None:
    match = server.create(rules="castell", players=["you", "random"], seed=3)
    page = open_seat(context, server, match)
    wait_turn(page)
    page.fill("[data-testid=action-input]", "recruit 3")
    page.press("[data-testid=action-input]", "Enter")
    page.wait_for_selector("[data-testid=message]:has-text('Refused')")
    assert "place your pawn first" in page.locator("[data-testid=message]").inner_text()
    click_and_wait(page, f"{LEGAL}[data-action='move Girona']")
    log = page.locator("[data-testid=log]").inner_text()
    page.reload()
    wait_turn(page)
    assert page.locator("[data-testid=log]").inner_text() == log
    assert page.locator(f"{LEGAL}[data-action='recruit 6']").count() == 1


def test_a_server_restart_resumes_the_match(context: Any, tmp_path: Path) -> None:
    first = Server(tmp_path / "server.db").start()
    try:
        match = first.create(rules="calico", players=["you", "random"], seed=2)
        page = open_seat(context, first, match)
        wait_turn(page)
        click_and_wait(page, LEGAL)  # choose goals
        log = page.locator("[data-testid=log]").inner_text()
    finally:
        first.stop()
    page.wait_for_selector(f"{STATUS}:has-text('reconnecting')")
    again = Server(tmp_path / "server.db", first.port).start()
    try:
        page.wait_for_function(
            "() => document.querySelector('[data-testid=status]').dataset.turn === 'yours'"
            " && !document.querySelector('[data-testid=status]').textContent.includes('lost')"
        )
        assert page.locator("[data-testid=log]").inner_text() == log
        page.locator("[data-testid=board] [data-patch].clickable").first.click()
        click_and_wait(page, "[data-testid=board] [data-target=yes]")  # and play on
        assert server_log_length(again, match) == len(log.splitlines()) + 1
    finally:
        again.stop()


def test_the_replay_viewer_steps_through_a_finished_game(
    context: Any, server: Server, tmp_path: Path
) -> None:
    match = server.create(rules="calico", players=["random", "random"], seed=8)
    page = context.new_page()
    page.wait_for_timeout(100)
    for _ in range(100):
        if server.get(f"/api/matches/{match['id']}")["over"]:
            break
        page.wait_for_timeout(100)
    page.goto(f"{server.base}/replay/{match['id']}")
    page.wait_for_selector(f"{STATUS}:has-text('Step 0')")
    page.click("[data-testid=forward]")
    page.click("[data-testid=forward]")
    assert "Step 2 of" in page.locator(STATUS).inner_text()
    page.click("[data-testid=back]")
    assert "Step 1 of" in page.locator(STATUS).inner_text()
    page.click("[data-testid=last]")
    assert "Game over" in page.locator(STATUS).inner_text()
    # The log follows the step shown: the last action is marked and scrolled into view.
    current = page.locator("[data-testid=log] li[aria-current=step]")
    assert current.count() == 1 and current.is_visible()
    log_box, line_box = page.locator("[data-testid=log]").bounding_box(), current.bounding_box()
    assert log_box["y"] <= line_box["y"] <= log_box["y"] + log_box["height"]
    assert page.locator("[data-testid=first] svg.icon").count() == 1  # an SVG icon, no glyph
    # An uploaded save replays the same; an altered one is refused with the reason.
    record = server.get(f"/api/matches/{match['id']}/save")
    path = tmp_path / "save.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server.base}/replay")
    page.set_input_files("[data-testid=upload]", str(path))
    page.wait_for_selector(f"{STATUS}:has-text('Step 0')")
    record["state_hash"] = "sha256:0"
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps(record))
    page.set_input_files("[data-testid=upload]", str(altered))
    page.wait_for_selector("[data-testid=message]:has-text('Cannot replay')")


def test_every_play_command_has_a_control_and_its_answer_is_drawn(
    context: Any, server: Server
) -> None:
    """The command bar is the registry's (one button per play command without a control of
    its own; hint, undo and Check have theirs), and each answer is drawn: help with its topics,
    the log, the legal actions, the board's scores, Check's verdict, quit's way back."""
    from castell_dsl.contract import COMMANDS

    match = server.create(rules="castell", players=["you", "random"], seed=3)
    page = open_seat(context, server, match)
    wait_turn(page)
    answer = page.locator("[data-testid=answer]")
    bar = [b.get_attribute("data-command") for b in page.locator("[data-command]").all()]
    own = {"hint", "undo", "check"}
    assert bar == [n for n in COMMANDS.names() if n not in own]
    for name in own:
        assert page.locator(f"[data-testid={name}]").count() == 1
    page.click("[data-testid=command-help]")
    page.wait_for_selector("[data-testid=answer] dt:has-text('check ACTION')")
    assert "FILE" not in page.locator("[data-testid=answer]").inner_text()  # no path here
    page.click("[data-testid=answer] [data-topic=rules]")
    page.wait_for_selector("[data-testid=answer] h2:has-text('Rules')")
    click_and_wait(page, f"{LEGAL}[data-action='move Girona']")
    page.click("[data-testid=command-log]")
    page.wait_for_selector("[data-testid=answer] li:has-text('move Girona')")
    page.click("[data-testid=command-actions]")
    page.wait_for_selector("[data-testid=answer] button[data-action='recruit 6']")
    page.click("[data-testid=command-board]")
    page.wait_for_selector("[data-testid=answer] [data-testid=score-table]")
    page.fill("[data-testid=action-input]", "recruit 99")
    page.click("[data-testid=check]")
    page.wait_for_selector("[data-testid=message]:has-text('Not allowed')")
    assert "recruit 99" not in answer.inner_text() and server_log_length(server, match) >= 2
    page.click("[data-testid=command-save]")
    page.wait_for_selector("[data-testid=message]:has-text('save-unavailable')")
    page.click("[data-testid=command-quit]")
    page.wait_for_selector("[data-testid=rejoin]")
    assert "You left the table" in page.locator(STATUS).inner_text()
