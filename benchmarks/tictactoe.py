"""A hand-written tic-tac-toe in the style of OpenSpiel's Python games: the engine's yardstick.

OpenSpiel's games written in Python (`open_spiel/python/games/`) are a `State` class with
`current_player`, `legal_actions`, `apply_action`, `is_terminal` and `returns`, the board a
small numpy array of marks, a line found by comparing rows, columns and diagonals. This module
is written from that description, not from OpenSpiel's code, and plays random games the way
OpenSpiel's examples do: `state.apply_action(random.choice(state.legal_actions()))` until the
state is terminal. Comparing the engine's actions per second with this loop's says what the
engine's generality costs against a game written by hand for one framework.

The framework's layer is mimicked by `SpielState` (public `legal_actions`/`apply_action` that
keep the history and call the game's `_legal_actions`/`_apply_action`, in Python where
OpenSpiel has C++). Two boards are timed: `State` uses numpy as OpenSpiel's Python games do,
checking each line for all crosses or all noughts (the faithful baseline, when numpy is
installed: `pip install numpy`), and `ListState` a plain list with a fixed table of lines,
about as fast as a hand-written Python game gets, so that both figures are on the table.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
except ImportError:  # numpy is optional: the list board is timed alone then
    np = None

ROWS = COLS = 3
CELLS = ROWS * COLS
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
TERMINAL = -4  # OpenSpiel's `PlayerId.TERMINAL`


def coord(action: int) -> tuple[int, int]:
    """The (row, column) of a cell number."""
    return action // COLS, action % COLS


class SpielState:
    """The framework's half of a state, as OpenSpiel's `pyspiel.State` presents it to a Python
    game: the public methods keep the history and call the game's `_legal_actions` and
    `_apply_action` (OpenSpiel does this in C++; here it is Python, a little cheaper)."""

    def __init__(self) -> None:
        self._history: list[int] = []

    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def _legal_actions(self, player: int) -> list[int]:
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return self._legal_actions(self.current_player())

    def apply_action(self, action: int) -> None:
        self._apply_action(action)
        self._history.append(action)

    def history(self) -> list[int]:
        return list(self._history)


class TicTacToe(SpielState):
    """What both boards share: whose turn it is, the end of the game and its returns."""

    def __init__(self) -> None:
        super().__init__()
        self._cur_player = 0
        self._player0_score = 0.0
        self._is_terminal = False

    def current_player(self) -> int:
        return TERMINAL if self._is_terminal else self._cur_player

    def _end_move(self, won: bool, full: bool) -> None:
        """After the mover's mark: the mover wins, the board is full, or the turn passes."""
        if won:
            self._is_terminal = True
            self._player0_score = 1.0 if self._cur_player == 0 else -1.0
        elif full:
            self._is_terminal = True
        else:
            self._cur_player = 1 - self._cur_player

    def is_terminal(self) -> bool:
        return self._is_terminal

    def returns(self) -> list[float]:
        return [self._player0_score, -self._player0_score]


class State(TicTacToe):
    """A tic-tac-toe position, OpenSpiel style: a numpy board of ".", "x", "o"."""

    def __init__(self) -> None:
        if np is None:
            raise RuntimeError("numpy is needed for the OpenSpiel-style board")
        super().__init__()
        self.board: Any = np.full((ROWS, COLS), ".")

    def _legal_actions(self, player: int) -> list[int]:
        """The empty cells, in order."""
        return [a for a in range(CELLS) if self.board[coord(a)] == "."]

    def _apply_action(self, action: int) -> None:
        self.board[coord(action)] = "x" if self._cur_player == 0 else "o"
        won = line_exists(self.board)
        self._end_move(won, not won and bool(all(self.board.ravel() != ".")))


def line_value(line: Any) -> str | None:
    """The mark filling a line of three, if one does: all crosses, or all noughts."""
    if all(line == "x") or all(line == "o"):
        return str(line[0])
    return None


def line_exists(board: Any) -> bool:
    """Whether any row, column or diagonal is one player's."""
    return bool(
        line_value(board[0])
        or line_value(board[1])
        or line_value(board[2])
        or line_value(board[:, 0])
        or line_value(board[:, 1])
        or line_value(board[:, 2])
        or line_value(board.diagonal())
        or line_value(np.fliplr(board).diagonal())
    )


class ListState(TicTacToe):
    """The same game on a plain list of nine marks: no numpy."""

    def __init__(self) -> None:
        super().__init__()
        self.board = ["."] * CELLS

    def _legal_actions(self, player: int) -> list[int]:
        board = self.board
        return [a for a in range(CELLS) if board[a] == "."]

    def _apply_action(self, action: int) -> None:
        board = self.board
        mark = "x" if self._cur_player == 0 else "o"
        board[action] = mark
        won = any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)
        self._end_move(won, not won and "." not in board)


def play(seed: int, state_class: type = State) -> int:
    """One random game, as OpenSpiel's examples play it; the number of actions taken."""
    rng = random.Random(seed)
    state = state_class()
    actions = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        actions += 1
    state.returns()
    return actions


def openspiel_game() -> Any:
    """OpenSpiel's own Python tic-tac-toe (`python_tic_tac_toe`, `open_spiel/python/games/`)
    through pyspiel, or None when OpenSpiel is not installed (`pip install open_spiel`; the
    test extras have it). Play it with `play(seed, game.new_initial_state)`."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)
    except ImportError:
        return None
    return pyspiel.load_game("python_tic_tac_toe")
