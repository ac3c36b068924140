"""Playing in a terminal: the table, every seat's running score, numbered legal actions and a
prompt.

At the prompt a player types the number of a listed action, or any action in the engine's
notation (`move Girona`, `tower 6,6,6/5,5/4/3` …), or a play command: `help [TOPIC]`, `hint`,
`undo`, `board`, `actions`, `log`, `check ACTION`, `save [FILE]`, `quit` (which saves). The
commands are the contract's (`castell_dsl.contract.COMMANDS`, the one dispatcher every
front-end uses): this app reads `NAME ARGUMENT` and draws the structured answer with rich.
What the other seats did since your last turn is shown next to the prompt; the game's own
events as the game tells them (`GameLogic.narrate`); the final scores as a table by category.

The layout follows the console's size: on 80 columns the game draws its compact table (the
mechanics' renderables lay themselves out for the width they get) and `board` shows the full
table, through a pager on a terminal. On a terminal the prompt has line editing, history and
completion of the legal actions (prompt_toolkit); piped input
(`castell play --players you,random --seed 3 < moves.txt`) is read line by line, echoed, and
the game is saved when the input ends.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from castell_dsl.contract import COMMANDS, ActionError, ByWidth, CommandResult, PlaySession
from castell_dsl.contract.commands import save_and_stop
from castell_terminal.pager import page
from castell_terminal.visible import ShowTextOnly

HELP = "Type the number of an action, or an action in full{examples}\nCommands:\n{commands}"

#: The engine's own events; every other event is the game's, told by its `narrate`.
ENGINE_EVENTS = frozenset({"start", "round", "turn", "action", "end"})
#: From this width on, every turn shows the whole table and the scores as a table.
FULL_WIDTH = 120


class TerminalApp:
    def __init__(
        self, session: PlaySession, stdin: TextIO | None = None, console: Console | None = None
    ):
        self.session = session
        self.stdin = stdin or sys.stdin
        self.console = console or Console(highlight=False)
        self.console.push_render_hook(ShowTextOnly())  # text from files is shown, not obeyed
        self.interactive = self.stdin.isatty()
        #: Actions of seats other than the one about to play, not yet shown: (seat, text).
        self.recent: list[tuple[int, str]] = []
        self._prompt: Any = None  # a prompt_toolkit session, made on first use
        session.observers.append(self.on_event)

    # ---- events from the game -----------------------------------------------------------------
    def on_event(self, game: Any, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "action":
            if not self.session.is_human(event["player"]) or len(self.session.humans) > 1:
                self.recent.append((event["player"], event["action"]))
        elif kind not in ENGINE_EVENTS:
            narrated = game.logic.narrate(game, event)
            if narrated:
                self.flush_recent(None)  # what led up to it comes first
            for renderable in narrated:
                self.console.print(renderable)

    def flush_recent(self, player: int | None) -> None:
        """Print the other seats' actions not yet shown, a line per turn of a seat."""
        if not self.recent:
            return
        turns: list[tuple[int, list[str]]] = []
        for seat, text in self.recent:
            if seat == player:
                continue
            if turns and turns[-1][0] == seat:
                turns[-1][1].append(text)
            else:
                turns.append((seat, [text]))
        self.recent = []
        for seat, texts in turns:
            # a tower rebuilt several times in a turn: only the last one stands (C-5.6)
            towers = [i for i, t in enumerate(texts) if t.split(" ", 1)[0] == "tower"]
            texts = [t for i, t in enumerate(texts) if i not in towers[:-1]]
            line = Text("  ")
            line.append(self.session.describe_seat(seat), style="bold")
            line.append(": " + " · ".join(texts))
            if self.console.width < FULL_WIDTH:  # a line a seat on a small screen (`log`: all)
                line.truncate(self.console.width - 1, overflow="ellipsis")
            self.console.print(line)

    # ---- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        session = self.session
        game = session.game
        seats = ", ".join(session.describe_seat(p) for p in range(game.players))
        self.console.print(
            f"[bold]{game.rules.game.title}[/bold] — {seats}; seed {game.seed}. "
            "Type help for help, help rules for the rules."
        )
        shown_turn = None
        while (player := session.play_bots()) is not None:
            marker = (len(session.turn_starts), player)
            if marker != shown_turn:
                self.show(player)
                shown_turn = marker
            self.flush_recent(player)
            self.list_actions()
            line = self.read(player)
            if line is None:
                return self.stopped(save_and_stop(session, "end of input"), "End of input")
            stop = self.handle(line, player)
            if stop is not None:
                return stop
        self.flush_recent(None)
        self.final()
        return 0

    def stopped(self, answer: CommandResult, why: str) -> int:
        """Say where `quit` or the end of input saved the game (a file of this game's own,
        else wherever it could). 0 when the game was saved somewhere, 1 when nowhere."""
        message = answer.message
        if message["type"] == "error":
            self.console.print(f"{why}: {message['message']}", style="red", markup=False)
            return 1
        if message.get("failed"):
            self.console.print(
                f"Could not save where asked: {'; '.join(message['failed'])}",
                style="yellow",
                markup=False,
            )
        path = message["path"]
        if why == "Quit":
            self.console.print(f"Saved to {path}", markup=False, soft_wrap=True)
        else:
            self.console.print(f"{why}: game saved to {path}", markup=False, soft_wrap=True)
        self.console.print(
            f"Continue with: castell play --load {path}", markup=False, soft_wrap=True
        )
        return 0

    def read(self, player: int) -> str | None:
        prompt = f"{self.session.describe_seat(player)}> "
        if self.interactive:
            try:
                return self._read_tty(prompt)
            except (EOFError, KeyboardInterrupt):
                return None
        self.console.print(prompt, end="", markup=False)
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        self.console.print(line.rstrip("\n"), markup=False)
        return line

    def _read_tty(self, prompt: str) -> str:
        """A line from the keyboard: prompt_toolkit (editing, history, completion of the legal
        actions) when it can run here, else rich's plain input."""
        if self._prompt is None:
            try:
                from .prompt import make_prompt_session

                self._prompt = make_prompt_session(self.completion_words)
            except Exception:  # not a usable terminal for prompt_toolkit: plain input
                self._prompt = False
        if self._prompt:
            return str(self._prompt.prompt(prompt))
        return self.console.input(prompt)

    def completion_words(self) -> list[str]:
        """What completion offers: the legal actions' texts and the commands."""
        game = self.session.game
        actions = [] if game.is_over() else [a.text for a in game.legal_actions()]
        page = self.session.help_page()
        topics = [f"help {name}" for name in page.names()] if page is not None else []
        return [*actions, *COMMANDS.names(), *topics]

    def handle(self, line: str, player: int) -> int | None:
        """Act on one input line: a number, a command or an action. An exit code to stop
        with (after `quit`), else None."""
        session = self.session
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        command = COMMANDS.get(word.lower())
        if command is not None:
            given = rest.strip()
            arguments = {command.arguments[0].name: given} if command.arguments and given else {}
            return self.show_answer(session.command(command.name, arguments, player), player)
        actions = session.game.legal_actions()
        if text.isascii() and text.isdigit() and len(text) <= 9:
            index = int(text)
            if not 1 <= index <= len(actions):
                self.console.print(f"[red]No action {index}: choose 1 to {len(actions)}.[/red]")
                return None
            text = actions[index - 1].text
        try:
            action = session.apply(text)
        except ActionError as exc:
            self.console.print(
                f"Not allowed: {exc.rejection.message} ({exc.code})", style="red", markup=False
            )
            return None
        self.console.print(f"  {session.describe_seat(player)}: {action.text}", markup=False)
        return None

    def show_answer(self, answer: CommandResult, player: int) -> int | None:
        """Draw a command's answer (a protocol message) for this terminal; an exit code when
        the command ends the session."""
        message = answer.message
        kind = message["type"]
        if answer.stop:
            return self.stopped(answer, "Quit")
        if kind == "error":
            prefix = "Not saved: " if message["code"] == "save-failed" else ""
            self.console.print(prefix + message["message"], style="red", markup=False)
        elif kind == "help":
            self.help(message)
        elif kind == "hint":
            for hint in message["lines"] or ["No hints for this game."]:
                self.console.print(f"  {hint}", markup=False)
        elif kind == "undone":
            self.recent = []
            self.console.print(f"Took back {message['actions']} action(s).")
            self.show(self.session.game.current_player)
        elif kind == "board":
            self.board(player)
        elif kind == "actions":
            self.list_actions(everything=True)
        elif kind == "log":
            for i, entry in enumerate(message["entries"], 1):
                seat = entry["seat"]
                who = self.session.describe_seat(seat) if seat is not None else "?"
                self.console.print(f"{i:4d}  {who}: {entry['action']}", markup=False)
        elif kind == "checked":
            if message["ok"]:
                self.console.print(f"{message['action']}: allowed now", markup=False)
            else:
                self.console.print(
                    f"Not allowed: {message['message']} ({message['code']})",
                    style="red",
                    markup=False,
                )
        elif kind == "saved":
            self.console.print(f"Saved to {message['path']}", markup=False, soft_wrap=True)
        else:  # a command added to the registry that this app draws no way of its own
            self.console.print(str(message), markup=False)
        return None

    # ---- help ---------------------------------------------------------------------------------
    def help(self, message: dict[str, Any]) -> None:
        """`help`: the commands, the notation and the topics; `help TOPIC`: that section of
        the game's players' page (`help rules`: the rules summary), through the pager when
        it is longer than the screen."""
        if message["topic"] is None:
            lines = message["notation"]
            examples = ", for example:\n" + "\n".join(f"  {x}" for x in lines) if lines else "."
            commands = "\n".join(f"  {c['usage']:<14} {c['help']}" for c in message["commands"])
            self.console.print(HELP.format(examples=examples, commands=commands), markup=False)
            if message["topics"]:
                topics = ", ".join(message["topics"])
                self.console.print(f"Topics (help TOPIC): {topics}", markup=False)
            return
        from rich.markdown import Markdown

        body = Markdown(f"## {message['heading']}\n\n{message['text']}")
        if self.interactive and message["text"].count("\n") + 2 > self.console.height:
            page(self.console, [body])
        else:
            self.console.print(body)

    # ---- drawing ------------------------------------------------------------------------------
    def show(self, player: int | None) -> None:
        """The turn's view: one header, the game's table for this console's width, the
        running scores."""
        game = self.session.game
        when = f"Round {game.round} of {game.rounds}" if game.round else "Setup"
        seat = f" — {self.session.describe_seat(player)} to play" if player is not None else ""
        self.console.rule(when + seat)
        for renderable in game.logic.render(game, player):
            self.console.print(renderable)
        if self.console.width < FULL_WIDTH:
            self.console.print(self.scores_line(), markup=False)
        else:
            self.console.print(self.scores_table())

    def scores_line(self) -> str:
        """Every seat's running score by category on as few lines as a small screen allows:
        the categories named once, then `P0 12 (3+2+0+4+3)` per seat, the one to play marked."""
        scores = self.session.game.scores()
        if not scores:
            return ""
        names = "+".join(name.split("_", 1)[0] for name in scores[0]["categories"])
        current = self.session.game.current_player
        seats = "  ".join(
            f"P{s['seat']}{'◀' if s['seat'] == current else ''} {s['total']} "
            f"({'+'.join(str(v) for v in s['categories'].values())})"
            for s in scores
        )
        return f"score now: total ({names}; `board` names them in full)\n{seats}"

    def board(self, player: int) -> None:
        """The whole table (the game's full view, `ByWidth.wide`), laid out for this console's
        width: through the pager on a terminal (`pager.page`: never raw escape codes),
        printed in place otherwise."""
        game = self.session.game
        when = f"Round {game.round} of {game.rounds}" if game.round else "Setup"
        drawn: list[Any] = [Rule(f"{when} — the whole table")]
        for renderable in game.logic.render(game, player):
            drawn.extend(renderable.wide() if isinstance(renderable, ByWidth) else [renderable])
        drawn.append(self.scores_table(short=False))
        if self.interactive:
            page(self.console, drawn)
        else:
            for renderable in drawn:
                self.console.print(renderable)

    def scores_table(
        self, short: bool = True, title: str = "Scores now", winners: tuple[int, ...] = ()
    ) -> Table:
        """Every seat's score by the rule set's categories (`Game.scores()`), and the total;
        winners starred. `short`: no title and no box (the header says "score now")."""
        from rich import box

        scores = self.session.game.scores()
        table = Table(
            title=None if short else title,
            title_justify="left",
            box=None if short else box.HEAVY_HEAD,
            padding=(0, 1),
            pad_edge=not short,
            header_style="bold dim" if short else "bold",
        )
        table.add_column("score now" if short else "seat", no_wrap=True)
        categories = list(scores[0]["categories"]) if scores else []
        firsts = [name.split("_", 1)[0] for name in categories]
        for name, first in zip(categories, firsts, strict=True):
            # compact: the first word when no other category shares it (`board`: in full)
            shown = first if short and firsts.count(first) == 1 else name.replace("_", " ")
            table.add_column(shown, justify="right")
        table.add_column("total", justify="right", style="bold")
        current = self.session.game.current_player
        for s in scores:
            mark = " ★" if s["seat"] in winners else " ◀" if s["seat"] == current else ""
            table.add_row(
                self.session.describe_seat(s["seat"]) + mark,
                *[str(s["categories"][c]) for c in categories],
                str(s["total"]),
            )
        return table

    def list_actions(self, everything: bool = False) -> None:
        """The legal actions, numbered, grouped by kind (the kind written once per group), on
        as few lines as they need. A list longer than a quarter of the screen (Calico's 24
        orders of design goals) is shortened: each kind with many actions becomes its count
        and an example, so the table stays on the screen; `actions` numbers them all."""
        actions = self.session.game.legal_actions()
        pending = self.session.game.view()["pending_grant"]
        if pending:
            self.console.print(f"You gained a {pending} action: take it now.")
        line = numbered(actions, range(len(actions)))
        if not everything and self._lines(line) > max(4, self.console.height // 4):
            line = Text()
            kinds: dict[str, list[int]] = {}
            for i, action in enumerate(actions):
                kinds.setdefault(action.kind, []).append(i)
            for kind, indexes in kinds.items():
                if line:
                    line.append("  ")
                if len(indexes) <= 3:
                    line.append_text(numbered(actions, indexes))
                    continue
                line.append(f"{kind}: ", style="bold")
                example = actions[indexes[0]].text
                line.append(f"{len(indexes)} choices, e.g. {example}")
            line.append("  (`actions` numbers them all; Tab completes)", style="dim")
        self.console.print(line)

    def _lines(self, text: Text) -> int:
        """How many lines `text` takes on this console."""
        return len(text.wrap(self.console, self.console.width))

    def final(self) -> None:
        """The end: the final scores by category, then in words who won and what decided
        (a tie-break, a shared win), and the game's own verdict (`GameLogic.outcome`: a
        scenario passed or not). A game alone at the table names no winner."""
        from castell_dsl.contract.standings import decided_by, describe

        game = self.session.game
        result = game.result()
        self.show(None)
        alone = game.players == 1
        winners = () if alone else tuple(result["winners"])
        self.console.print(self.scores_table(short=False, title="Final scores", winners=winners))
        if alone:
            self.console.print(f"Final score: {result['players'][0]['total']}", markup=False)
        else:
            names = " and ".join(self.session.describe_seat(w) for w in winners)
            self.console.print(f"Winner{'s' if len(winners) > 1 else ''}: {names}", markup=False)
            top = max(p["total"] for p in result["players"])
            why = describe(decided_by(game), top, self.session.describe_seat)
            if why:
                self.console.print(why, markup=False)
        report = result.get("report") or {}
        words = game.logic.outcome(report) if report else []
        for line in words or report_lines(report):
            self.console.print(line, markup=False)


def numbered(actions: list[Any], indexes: Any) -> Text:
    """The actions at `indexes`, numbered from 1 by their place in `actions`, on one line: the
    kind (or a longer common head, `place pink/dots:`) written once per run of actions."""
    line = Text()
    label: str | None = None
    own: str | None
    texts = [a.text for a in actions]
    heads = [t.rsplit(" ", 1)[0] if " " in t else t for t in texts]
    chosen = list(indexes)
    for n, i in enumerate(chosen):
        action, text = actions[i], texts[i]
        run = [heads[j] for j in chosen[n : n + 3]]
        if (label == heads[i] and " " in text) or (len(run) == 3 and len(set(run)) == 1):
            own, rest = heads[i], text[len(heads[i]) + 1 :]  # `place pink/dots: 1 3,2`
        else:
            first, _, rest = text.partition(" ")
            own = first if rest and (label == first or action.kind == first) else None
            if own is None:
                rest = text
        if line:
            line.append("  ")
        if own != label or own is None:
            label = own
            if own is not None:
                line.append(f"{own}: ", style="bold")
        line.append(str(i + 1), style="cyan")
        line.append(f" {rest}")
    return line


def report_lines(report: Any, prefix: str = "", limit: int = 40) -> list[str]:
    """A game's extra results (`GameLogic.report`, e.g. scenario objectives met) as
    `path: value` lines, whatever the game: the terminal names no game's report."""
    lines: list[str] = []

    def walk(value: Any, path: str) -> None:
        if len(lines) >= limit:
            return
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            for i, inner in enumerate(value):
                walk(inner, f"{path}[{i}]")
        else:
            lines.append(f"  {path}: {value}")

    walk(report, prefix)
    return ["Report:", *lines] if lines else []


def run(session: PlaySession) -> int:
    return TerminalApp(session).run()
