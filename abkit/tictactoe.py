"""Tic-tac-toe on the game protocol: X is MAX and moves first.

A state is a 9-character string read row by row, with ``X``, ``O`` and ``.``
for an empty square: immutable and hashable. An action is the index (0-8) of an
empty square; ACTIONS lists them in row-major order. UTILITY is +1 when X has
three in a row, -1 when O has, 0 for a full board without a line.

>>> game = TicTacToe()
>>> game.actions("XO.......")[:3], game.to_move("XO......."), game.result("XO.......", 2)
([2, 3, 4], 'MAX', 'XOX......')
"""

from __future__ import annotations

import math

from .game import MAX, MIN, IllegalMoveError
from .i18n import Message

EMPTY = "." * 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8),   # columns
         (0, 4, 8), (2, 4, 6))              # diagonals


def winner(board: str) -> str | None:
    """``"X"`` or ``"O"`` if that player has three in a line, else ``None``.

    Searches ask this of the same boards over and over: answers for boards (strings) are remembered,
    at most :data:`REMEMBERED` of them (every 9-square board of X, O and ``.`` fits).
    """
    if type(board) is str:
        known = _WINNERS.get(board, _UNKNOWN)
        if known is not _UNKNOWN:
            return known
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            found = board[a]
            break
    else:
        found = None
    if type(board) is str and len(_WINNERS) < REMEMBERED:
        _WINNERS[board] = found
    return found


REMEMBERED = 3 ** 9
_WINNERS: dict[str, str | None] = {}
_UNKNOWN = object()
#: the empty squares of a board without a winner, and the successors of legal moves, remembered the same way
_ACTIONS: dict[str, tuple[int, ...]] = {}
_SUCCESSORS: dict[tuple[str, int], str] = {}
#: TERMINAL-TEST of boards, remembered the same way (searches ask it of every state they reach, twice when the
#: root is valued after the search), and each winner's utility
_TERMINAL: dict[str, bool] = {}
_SCORES = {"X": 1, "O": -1, None: 0}


class BoardError(ValueError):
    """Text that is not a tic-tac-toe position; ``message`` says why, in any language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def parse_board(text: str) -> str:
    """A board from text such as ``"X.O/.X./..O"`` or three lines; spaces and ``-`` mean empty.

    >>> parse_board("X O|   |  X")
    'X.O.....X'
    """
    cells = [c for c in text.replace("-", ".").replace(" ", ".").upper() if c in "XO."]
    if len(cells) != 9:
        raise BoardError(Message("board.squares", text=repr(text), count=len(cells)))
    board = "".join(cells)
    x, o = board.count("X"), board.count("O")
    if not (x == o or x == o + 1):
        raise BoardError(Message("board.unreachable", text=repr(text)))
    return board


class TicTacToe:
    """The game protocol for tic-tac-toe (contract §1)."""

    initial = EMPTY

    def actions(self, state: str) -> list[int]:
        if type(state) is str:
            known = _ACTIONS.get(state)
            if known is not None:
                return list(known)  # a new list each time: the caller may change it
        if winner(state):
            found = []
        else:
            found = [i for i, cell in enumerate(state) if cell == "."]
        if type(state) is str and len(_ACTIONS) < REMEMBERED:
            _ACTIONS[state] = tuple(found)
        return found

    def result(self, state: str, action: int) -> str:
        plain = type(state) is str and type(action) is int and type(self).to_move is TicTacToe.to_move
        if plain:
            known = _SUCCESSORS.get((state, action))
            if known is not None:
                return known
        if not isinstance(action, int) or not 0 <= action < 9 or state[action] != "." or winner(state):
            raise IllegalMoveError(state, action)
        mark = "X" if self.to_move(state) == MAX else "O"
        successor = state[:action] + mark + state[action + 1:]
        if plain and len(_SUCCESSORS) < 9 * REMEMBERED:
            _SUCCESSORS[state, action] = successor  # only legal moves: an illegal one raises every time
        return successor

    def terminal_test(self, state: str) -> bool:
        if type(state) is str:
            known = _TERMINAL.get(state)
            if known is not None:
                return known
        found = winner(state) is not None or "." not in state
        if type(state) is str and len(_TERMINAL) < REMEMBERED:
            _TERMINAL[state] = found
        return found

    def utility(self, state: str) -> int:
        return _SCORES[winner(state)]

    def to_move(self, state: str) -> str:
        return MAX if state.count("X") == state.count("O") else MIN

    @staticmethod
    def display(state: str) -> str:
        """The board as three lines."""
        return "\n".join(state[i:i + 3] for i in (0, 3, 6))


def nilsson_eval(state: str) -> float:
    """Nilsson's e(p): lines still open for MAX (X) minus lines still open for MIN (O).

    A line is open for a player when the other has no mark on it. A win is +inf
    for X and -inf for O. On the empty board every line is open for both: 0.

    >>> nilsson_eval("....X...."), nilsson_eval("O...X...."), nilsson_eval("XXX.OO...")
    (4, 1, inf)
    """
    win = winner(state)
    if win:
        return math.inf if win == "X" else -math.inf
    open_for_x = sum(1 for line in LINES if all(state[i] != "O" for i in line))
    open_for_o = sum(1 for line in LINES if all(state[i] != "X" for i in line))
    return open_for_x - open_for_o


#: the 8 symmetries of the square, as index maps: the rotations and reflections
SYMMETRIES = tuple(
    tuple(perm) for perm in (
        (0, 1, 2, 3, 4, 5, 6, 7, 8), (6, 3, 0, 7, 4, 1, 8, 5, 2), (8, 7, 6, 5, 4, 3, 2, 1, 0),
        (2, 5, 8, 1, 4, 7, 0, 3, 6), (2, 1, 0, 5, 4, 3, 8, 7, 6), (6, 7, 8, 3, 4, 5, 0, 1, 2),
        (0, 3, 6, 1, 4, 7, 2, 5, 8), (8, 5, 2, 7, 4, 1, 6, 3, 0),
    ))


def canonical(state: str) -> str:
    """The smallest of the 8 boards symmetric to ``state``: equal for symmetric positions."""
    return min("".join(state[i] for i in perm) for perm in SYMMETRIES)


class SymmetryMerged(TicTacToe):
    """Tic-tac-toe where ACTIONS keeps one action per class of symmetric successors.

    Nilsson's depth-2 analysis merges symmetric positions: from the empty board
    X then has three moves (a corner, an edge, the centre). The action kept is
    the first in row-major order.
    """

    def actions(self, state: str) -> list[int]:
        seen, kept = set(), []
        for action in super().actions(state):
            key = canonical(super().result(state, action))
            if key not in seen:
                seen.add(key)
                kept.append(action)
        return kept


def play(game: TicTacToe, players: dict, state: str = EMPTY, limit: int = 9) -> list[str]:
    """Play a game from ``state``: ``players`` maps "MAX"/"MIN" to ``f(game, state) -> action``.

    Returns the states of the game, first to last. A player that returns an
    illegal action raises :class:`IllegalMoveError`.
    """
    states = [state]
    while not game.terminal_test(state) and len(states) <= limit:
        state = game.result(state, players[game.to_move(state)](game, state))
        states.append(state)
    return states
