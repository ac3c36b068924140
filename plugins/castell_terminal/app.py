"""Playing in a terminal: the table, numbered legal actions, and a prompt.

At the prompt a player types the number of a listed action, or any action in the engine's
notation (`move Girona`, `tower 6,6,6/5,5/4/3` …), or a command: `help`, `hint`, `undo`,
`board`, `log`, `save [FILE]`, `quit` (which saves). Bots' moves are printed as they happen,
the game's own events as the game tells them (`GameLogic.narrate`), and the final scores as a
table by category. Input may be piped
(`castell play --players you,random --seed 3 < moves.txt`): the listed moves are played and
the game is saved when the input ends.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from castell_dsl.contract import ActionError, UndoError
from castell_dsl.runtime.saves import SaveError
from castell_dsl.runtime.session import Session
from castell_terminal.visible import ShowTextOnly

HELP = """\
Type the number of an action, or an action in full{examples}
Commands:
  hint        advice for your move
  undo        take back your actions of this turn (or your last turn)
  board       show the table again          log     the actions so far
  save [FILE] save the game                 quit    save and stop
  help        this text"""


#: The engine's own events; every other event is the game's, told by its `narrate`.
ENGINE_EVENTS = frozenset({"start", "round", "turn", "action", "end"})


class TerminalApp:
    def __init__(
        self, session: Session, stdin: TextIO | None = None, console: Console | None = None
    ):
        self.session = session
        self.stdin = stdin or sys.stdin
        self.console = console or Console(highlight=False)
        self.console.push_render_hook(ShowTextOnly())  # text from files is shown, not obeyed
        self.interactive = self.stdin.isatty()
        session.observers.append(self.on_event)

    # ---- events from the game -----------------------------------------------------------------
    def on_event(self, game: Any, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "action" and not self.session.is_human(event["player"]):
            self.console.print(
                f"  {self.session.describe_seat(event['player'])}: {event['action']}"
            )
        elif kind == "round":
            self.console.rule(f"Round {event['round']} of {game.rounds}")
        elif kind not in ENGINE_EVENTS:
            for renderable in game.logic.narrate(game, event):
                self.console.print(renderable)

    # ---- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        session = self.session
        game = session.game
        seats = ", ".join(session.describe_seat(p) for p in range(game.players))
        self.console.print(
            f"[bold]{game.rules.game.title}[/bold] — {seats}; seed {game.seed}. Type help for help."
        )
        shown_turn = None
        while (player := session.play_bots()) is not None:
            marker = (len(session.turn_starts), player)
            if marker != shown_turn:
                self.show(player)
                shown_turn = marker
            self.list_actions()
            line = self.read(player)
            if line is None:
                return self.save_and_stop("End of input")
            if not self.handle(line, player):
                return self.save_and_stop("Quit")
        self.final()
        return 0

    def save_and_stop(self, why: str) -> int:
        """Save where the session saves, else wherever it can; say where. 0 when the game
        was saved somewhere, 1 when it could not be saved at all (and where it tried)."""
        outcome = self.session.save_somewhere()
        if outcome.path is None:
            self.console.print(f"[red]{why}: {outcome.describe()}[/red]", markup=True)
            return 1
        if outcome.failures:
            self.console.print(
                f"[yellow]Could not save where asked: {'; '.join(outcome.failures)}[/yellow]"
            )
        if why == "Quit":
            path = outcome.path
            self.console.print(f"Saved to {path}; continue with: castell play --load {path}")
            return 0
        self.console.print(f"{why}: game saved to {outcome.path}")
        self.console.print(f"Continue with: castell play --load {outcome.path}")
        return 0

    def read(self, player: int) -> str | None:
        prompt = f"{self.session.describe_seat(player)}> "
        if self.interactive:
            try:
                return self.console.input(prompt)
            except EOFError:
                return None
        self.console.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        self.console.print(line.rstrip("\n"))
        return line

    def handle(self, line: str, player: int) -> bool:
        """Act on one input line; False to stop."""
        session = self.session
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        actions = session.game.legal_actions()
        if text.isdigit():
            index = int(text)
            if not 1 <= index <= len(actions):
                self.console.print(f"[red]No action {index}: choose 1 to {len(actions)}.[/red]")
                return True
            text = actions[index - 1].text
        elif word == "help":
            lines = session.game.logic.notation()
            examples = ", for example:\n" + "\n".join(f"  {x}" for x in lines) if lines else "."
            self.console.print(HELP.format(examples=examples), markup=False)
            return True
        elif word == "hint":
            for hint in session.game.logic.hints(session.game, player) or [
                "No hints for this game."
            ]:
                self.console.print(f"  {hint}")
            return True
        elif word == "board":
            self.show(player)
            return True
        elif word == "log":
            for i, entry in enumerate(session.game.log, 1):
                self.console.print(f"{i:4d}  {entry}")
            return True
        elif word == "undo":
            try:
                count = session.undo()
            except UndoError as exc:
                self.console.print(f"[red]{exc}[/red]")
                return True
            self.console.print(f"Took back {count} action(s).")
            self.show(session.game.current_player)
            return True
        elif word == "save":
            try:
                path = session.save(rest.strip() or None)
            except SaveError as exc:  # the game goes on; the player can try elsewhere
                self.console.print(f"Not saved: {exc}", style="red", markup=False)
                return True
            self.console.print(f"Saved to {path}")
            return True
        elif word == "quit":
            return False
        try:
            action = session.apply(text)
        except ActionError as exc:
            self.console.print(f"[red]Not allowed: {exc.rejection.message}[/red] ({exc.code})")
            return True
        self.console.print(f"  {session.describe_seat(player)}: {action.text}")
        return True

    def show(self, player: int | None) -> None:
        game = self.session.game
        when = f"Round {game.round} of {game.rounds}" if game.round else "Setup"
        seat = f" — {self.session.describe_seat(player)}" if player is not None else ""
        self.console.rule(when + seat)
        for renderable in game.logic.render(game, player):
            self.console.print(renderable)

    def list_actions(self) -> None:
        actions = self.session.game.legal_actions()
        pending = self.session.game.view()["pending_grant"]
        if pending:
            self.console.print(f"You gained a {pending} action: take it now.")
        self.console.print(
            "  ".join(f"[cyan]{i}[/cyan] {a.text}" for i, a in enumerate(actions, 1))
        )

    def final(self) -> None:
        game = self.session.game
        result = game.result()
        table = Table(title="Final scores", title_justify="left")
        table.add_column("seat")
        categories = list(result["players"][0]["categories"])
        for name in categories:
            table.add_column(name.replace("_", " "), justify="right")
        table.add_column("total", justify="right")
        for p in result["players"]:
            won = " ★" if p["seat"] in result["winners"] else ""
            table.add_row(
                self.session.describe_seat(p["seat"]) + won,
                *[str(p["categories"][c]) for c in categories],
                str(p["total"]),
            )
        self.console.print(table)
        winners = " and ".join(self.session.describe_seat(w) for w in result["winners"])
        self.console.print(f"Winner: {winners}")
        for key, value in result.get("report", {}).items():
            self.console.print(f"{key}: {value}")


def run(session: Session) -> int:
    return TerminalApp(session).run()
