"""`GameLogic`: what a game's mechanics implements so the engine can run it.

The engine owns the flow (rounds, steps, turns, per-turn limits, granted actions, chance,
scoring, the log); a `GameLogic` owns the meaning: the initial state of its part of the game,
its automatic steps, and for each action kind — through that kind's `ActionHandler`
(`handlers.py`) — how it is written, the options a player has, whether a given action is
allowed and why not, and what it does.

A logic sees the game through `GameContext`, the small part of the engine's `Game` a mechanics
may read and write — its own data under `state["g"]`, the seeded generator, the event emitter,
the round — never the engine's flow internals. That keeps a game testable on its own and the
engine free to change how it runs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from .actions import Action, ActionSyntaxError, Rejection
from .handlers import ActionHandler
from .items import Item
from .rng import Rng

if TYPE_CHECKING:
    from ..language.ruleset import Record, RuleSet
    from .bots import PlayableGame


class GameContext(Protocol):
    """What a mechanics may read and write of a game in progress.

    `state` is plain JSON data: the engine's keys (`round`, `turn`, …) are read-only for a
    mechanics; its own data lives under `state["g"]`. Randomness comes only from `rng`, whose
    state is in `state` too, so a game replays exactly.
    """

    rules: RuleSet
    logic: GameLogic
    players: int
    seed: int
    state: dict[str, Any]
    rng: Rng

    @property
    def granted(self) -> bool:
        """True while the engine lists, checks or applies an action granted by an earlier one
        (a free special action): read from the turn, not a flag the engine toggles."""
        ...

    @property
    def round(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def observed(self) -> bool:
        """True when someone listens to events: a mechanics skips building them otherwise."""
        ...

    @property
    def variants(self) -> tuple[str, ...]:
        """The names of the variants the rule set was loaded with (the rule set's `variants`)."""
        ...

    def own(self, key: str, index: int | None = None) -> Any:
        """`state["g"][key]` (or its item `index`), this game's own to change in place: a
        mechanics that declares `GameLogic.copy_on_write` keys takes every value it changes
        in place through `own` (assigning a new value to the key itself needs no `own`).
        With `index`, only the value's list and that item are copied, if shared: take an
        item this way to change inside it, the whole value to assign its items."""
        ...

    def emit(self, event: dict[str, Any]) -> None: ...
    def score_of(self, player: int) -> int: ...
    def is_over(self) -> bool: ...


#: An automatic step (`step refill` in a rule file calls `steps["refill"](game)`).
Step = Callable[[GameContext], None]


class GameLogic(ABC):
    """The interface between the generic engine and one game's mechanics."""

    rules: RuleSet
    #: Automatic steps by name.
    steps: Mapping[str, Step]
    #: Keys of the mechanics' state (`state["g"]`) whose values no action or step changes in
    #: place once the game has started (a step may still replace one whole): the copies a
    #: search makes of a position (`Game.copier`) share them instead of copying them.
    shared_state: tuple[str, ...] = ()
    #: Keys of the mechanics' state whose values the copies a search makes of a position
    #: (`Game.copier`) share until one of them changes its value: the mechanics then takes
    #: the value through `GameContext.own(key)`, which gives that copy a copy of its own
    #: first. A turn changes few of them, so a copy costs a few dicts instead of the whole
    #: state. The contract: every change in place of such a value goes through `own`
    #: (`tests/speed/test_copy_on_write.py` plays whole games holding Castell to it).
    copy_on_write: tuple[str, ...] = ()

    @abstractmethod
    def initial_state(self, game: GameContext) -> dict[str, Any]:
        """The mechanics' part of a new game's state (JSON data), before any step runs."""

    #: The handler of each action kind (`handlers.py`): `parse`, `options`, `count_options`,
    #: `nth_option`, `count_candidates`, `candidate`, `check` and `apply` below route each
    #: question to the handler of its kind, so a game declares handlers and writes no
    #: dispatch. (A logic may instead override those methods itself, as a test's toy does.)
    handlers: Mapping[str, ActionHandler] = MappingProxyType({})

    def options(self, game: GameContext, player: int, kind: str, spec: Record) -> list[Action]:
        """The actions of `kind` the player may take now: a finite, useful list.

        For open-ended actions (any legal tower) this is a selection (e.g. the solver's best
        towers); `check` accepts every legal action, listed or not. `spec` is the action's entry
        in the turn block (its limit and parameters). `game.granted` tells whether this action
        was granted by an earlier one (e.g. a free special action). [] for a kind without a
        handler.
        """
        handler = self.handlers.get(kind)
        return [] if handler is None else handler.options(game, player, spec)

    def count_options(self, game: GameContext, player: int, kind: str, spec: Record) -> int:
        """How many actions `options` would list now, without listing them.

        With `nth_option` this is the counted form of the legal actions that lets
        `Game.sample_legal` draw one uniformly while building only the one it draws: a random
        playout lists far more actions than it takes. Both must agree exactly with `options`
        (the same actions in the same order): a handler that counts (`ActionHandler.count`)
        builds its `nth` too; a logic with no handler that counts is sampled from its listing.
        """
        handler = self.handlers.get(kind)
        if handler is None:  # a logic that lists its actions itself
            return len(self.options(game, player, kind, spec))
        return handler.count(game, player, spec)

    def nth_option(
        self, game: GameContext, player: int, kind: str, spec: Record, index: int
    ) -> Action:
        """`options(game, player, kind, spec)[index]`, built alone (see `count_options`)."""
        handler = self.handlers.get(kind)
        if handler is None:
            return self.options(game, player, kind, spec)[index]
        return handler.nth(game, player, spec, index)

    def count_candidates(self, game: GameContext, player: int, kind: str, spec: Record) -> int:
        """How many *candidates* `candidate` answers for now: a bound on the options that is
        cheap to know when counting them exactly is not.

        Some options cost a search to confirm (is there a tower that completes this tile?),
        and a random draw needs only the one it picks. So `Game.sample_legal` draws a
        candidate uniformly and draws again when it is not an action (rejection sampling):
        each legal action is then exactly equally likely, and only the candidates drawn are
        confirmed. By default every option is a candidate (`ActionHandler.candidates` is its
        `count`), which is one draw, as from the listing."""
        handler = self.handlers.get(kind)
        if handler is None:
            return self.count_options(game, player, kind, spec)
        return handler.candidates(game, player, spec)

    def candidate(
        self, game: GameContext, player: int, kind: str, spec: Record, index: int
    ) -> Action | None:
        """Candidate `index` (see `count_candidates`): an action, or None when this candidate
        is not one now. The actions among the candidates, in index order, must be exactly
        `options(game, player, kind, spec)`, each once (`tests/speed/test_sampling.py` checks
        every position of seeded games)."""
        handler = self.handlers.get(kind)
        if handler is None:
            return self.nth_option(game, player, kind, spec, index)
        return handler.candidate(game, player, spec, index)

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        """None if the player may take `action` now; otherwise why not."""
        handler = self.handlers.get(action.kind)
        if handler is None:
            return Rejection(
                "unknown-action", f"'{action.kind}' is not a {self.rules.game.title} action"
            )
        return handler.check(game, player, action, spec)

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        """Carry out a checked action. Return the kind of an action it grants at once, if any."""
        handler = self.handlers.get(action.kind)
        return None if handler is None else handler.apply(game, player, action, spec)

    def parse(self, kind: str, text: str) -> Action:
        """Read the arguments of an action of `kind` (text after the first word).

        Raise `ActionSyntaxError` with a message saying what was expected (see
        `ActionHandler.parse`; `Game.parse` turns it into the `ActionError` callers catch).
        """
        handler = self.handlers.get(kind)
        if handler is None:
            raise ActionSyntaxError(f"unknown action '{kind}'")
        return handler.parse(text.strip())

    @abstractmethod
    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        """The values scoring expressions read for one player (the mechanics' `facts`)."""

    def view(self, game: GameContext) -> dict[str, Any]:
        """What every player can see, with names rather than indices, for front-ends."""
        return {}

    def tracked_view(self, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
        """`view(game)` for a reader that follows one game position after position (the RL
        observations, `castell_dsl/rl/tracking.py`) and keeps `memo` for it: the same data,
        but a part whose inputs did not change since the previous call may be the very object
        returned then (memoised in `memo`, keyed by those inputs), so the reader skips it by
        identity instead of comparing or flattening it. The reader never changes what it gets.
        The default memoises nothing; a mechanics whose view is large overrides it (Calico's
        quilts, Castell's regions and teams: their `encoding.py`), and `tests/rl/
        test_tracking.py` checks that it always equals `view`."""
        return self.view(game)

    def tracked_parts(
        self, game: GameContext, memo: dict[Any, Any]
    ) -> list[tuple[str, Hashable, Callable[[], Any]]] | None:
        """`view(game)` in parts, for the same reader as `tracked_view` (which keeps `memo`):
        only the parts that changed since the previous call with `memo` (every part when
        `memo` is empty), each as `(path, key, build)`:

        - `path`: where the part sits in the view, in the flattened notation of docs/rl.md
          (`market`, `seats[1].hand`, `seats[1].cells[7]`; a positional list's length is the
          part `seats[1].cells#`), each path given by one part only;
        - `key`: a hashable that settles what `build()` returns at that path (equal keys,
          equal parts), so that the reader may reuse what it made of it; or None;
        - `build()`: the part, built by the same functions as `view`.

        Together the parts are exactly `view(game)`: every feature of its flattening in one
        part. None (the default): no parts; the reader follows `tracked_view` instead. Castell
        and Calico give parts (their `encoding.py`); `tests/rl/test_tracking.py` checks them
        against `view`."""
        return None

    def report(self, game: GameContext) -> dict[str, Any]:
        """Extra facts for a finished game's result (e.g. which scenario objectives were met).

        Included in `Game.result()` under "report" when not empty.
        """
        return {}

    def outcome(self, report: dict[str, Any]) -> list[str]:
        """A finished game's `report` in words, sentences for people, which front-ends show
        beside the scores and the winners (Calico: whether each player passed the scenario,
        and which objectives were missed). [] when the report says nothing more."""
        return []

    def legend(self) -> dict[str, Any]:
        """What the rule set's pieces are, for front-ends that draw them (the web sends it once
        per page, not with every position): Castell's local performance tiles, Calico's
        design goals. It depends on the rule set only, never on the position."""
        return {}

    # ---- rule coverage (`castell analyze`; see `contract/items.py`) -----------------------------
    def items(self) -> Sequence[Item]:
        """The rule set's items (tiles, skills, goals…) in a fixed order; none by default."""
        return ()

    def item_marks(self, game: GameContext, player: int) -> Iterable[tuple[int, int]]:
        """`(item index, OPEN | TAKEN | COMPLETED bits)` for the items that concern `player`
        now; read at the end of each of the player's turns and when the game is over. It
        must be cheap (a few lookups per item) and must not change the game."""
        return ()

    def shared_item_marks(self, game: GameContext) -> Iterable[tuple[int, int]]:
        """Marks that hold for every player (what was dealt or offered to the whole table),
        read once, when the game is over: a mechanics reports them here once rather than in
        every player's `item_marks`."""
        return ()

    def action_items(self, game: GameContext, player: int, action: Action) -> Iterable[int]:
        """The indices of the items `action` takes, read just before it is applied."""
        return ()

    def item_action_kinds(self) -> frozenset[str] | None:
        """The action kinds `action_items` can name items for (the analysis asks only about
        these, so a turn of other actions costs nothing); None, the default: every kind."""
        return None

    def item_lints(self) -> Iterable[tuple[int, str]]:
        """`(item index, reason)` for items proved unusable without playing."""
        return ()

    def heuristic(self, game: GameContext, player: int) -> float:
        """How good the position is for `player`, for bots that look one move ahead.

        The default is the player's score if the game ended now (the rule file's scoring);
        a mechanics may add positional terms. Bots compare it between players.
        """
        return float(game.score_of(player))

    def heuristics(self, game: GameContext) -> list[float]:
        """`heuristic` for every player, in seat order (a search evaluates them all in each
        position; a mechanics may share the work between players)."""
        return [self.heuristic(game, p) for p in range(game.players)]

    def notation(self) -> list[str]:
        """Example actions in this game's notation, one per line, for a player's `help`."""
        return []

    def hints(self, game: PlayableGame, player: int) -> list[str]:
        """Advice for a human player (`hint` in `castell play`): lines of text.

        `game` is the game the front-end plays, so a mechanics may try moves on its clones
        (`clone`, `legal_actions`, `apply`) as well as read it as a `GameContext`.
        """
        return []

    def render(self, game: GameContext, viewer: int | None) -> list[Any]:
        """Renderables (rich) showing the table to `viewer`, for the terminal front-end.

        The default shows `view()` as text; a mechanics draws its own board.
        """
        import json

        return [json.dumps(self.view(game), indent=1)]

    def narrate(self, game: GameContext, event: dict[str, Any]) -> list[Any]:
        """How one of this game's own events reads for a person (renderables; [] for none).

        The engine's events (`start`, `round`, `turn`, `action`, `end`) are the front-ends'
        business; a mechanics' events (a festival's results, a tile performed) are told here,
        so a front-end never needs to know any game's event types.
        """
        return []
