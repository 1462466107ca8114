"""The game protocol every search in the kit is written against (contract §1).

The method names are the textbook's: ACTIONS, RESULT, TERMINAL-TEST, UTILITY and
PLAYER (here ``to_move``). Utilities are always from MAX's point of view.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .i18n import t

if TYPE_CHECKING:
    from typing import Hashable, Protocol

    State = Hashable
    Action = Hashable
else:  # at run time the names are documentation: every annotation is a string, nothing checks a protocol
    State = Action = object
    Protocol = object

MAX = "MAX"
MIN = "MIN"
CHANCE = "CHANCE"   # the dice: a node whose value is the expectation over its outcomes
PLAYERS = (MAX, MIN)


def other(player: str) -> str:
    """The opponent of ``player``.

    >>> other(MAX)
    'MIN'
    """
    return MIN if player == MAX else MAX


class IllegalMoveError(ValueError):
    """RESULT was asked for an action that ACTIONS did not offer in that state."""

    def __init__(self, state: State, action: Action) -> None:
        super().__init__(f"{action!r} is not a legal action in state {state!r}")
        self.state = state
        self.action = action


#: the game's own error messages as they end a traceback, and their message keys (the same words in
#: every language's catalogue): a student's traceback is shown in the reader's language. Patterns, compiled (by
#: :mod:`re`'s own cache) when a traceback is shown, not at every start
GAME_ERRORS = (
    (r"(?P<action>.+) is not a legal action in state (?P<state>.+)", "game.error.illegal"),
    (r"UTILITY is defined only on terminal states, not on (?P<state>.+)", "game.error.utility"),
    (r"the fixture gives no heuristic value for (?P<state>.+)", "game.error.heuristic"),
)


def error_line(line: str, lang: str) -> str:
    """The last line of a traceback (``ValueError: ...``) in ``lang`` when it is one of the game's own errors.

    >>> error_line("ValueError: UTILITY is defined only on terminal states, not on 'B'", "ko")
    "ValueError: UTILITY는 단말 상태에만 정의됩니다('B' 상태는 단말 상태가 아닙니다)."
    """
    kind, sep, text = line.partition(": ")
    for pattern, key in GAME_ERRORS:
        match = re.fullmatch(pattern, text)
        if sep and match:
            return kind + sep + t(key, lang, **match.groupdict())
    return line


class Game(Protocol):
    """A two-player, zero-sum game of perfect information."""

    def actions(self, state: State) -> list[Action]:
        """ACTIONS(s): the legal actions in ``state``, in the order a search tries them."""

    def result(self, state: State, action: Action) -> State:
        """RESULT(s, a): the state reached by playing ``action`` in ``state``."""

    def terminal_test(self, state: State) -> bool:
        """TERMINAL-TEST(s): true when the game is over in ``state``."""

    def utility(self, state: State) -> float:
        """UTILITY(s): the value of terminal ``state`` for MAX."""

    def to_move(self, state: State) -> str:
        """PLAYER(s): ``"MAX"`` or ``"MIN"`` (``"CHANCE"`` in games of chance), whoever moves in ``state``."""


class SearchTooLong(RuntimeError):
    """A search generated more states than its budget allows (a search that does not prune, or never ends)."""


class Budgeted:
    """``game`` with a budget: RESULT raises :class:`SearchTooLong` once it has been called ``limit`` times.

    Everything else is passed through, so a search sees the same game. It
    bounds what an untrusted search can cost on a big game (tic-tac-toe from
    the empty board: alpha-beta generates 18,297 states, minimax 549,946).
    """

    def __init__(self, game: Game, limit: int) -> None:
        self.game, self.limit, self.used = game, limit, 0
        for name in ("actions", "terminal_test", "utility", "to_move"):  # the hot ones, without __getattr__
            if hasattr(game, name):
                setattr(self, name, getattr(game, name))

    def result(self, state: State, action: Action) -> State:
        self.used = used = self.used + 1
        if used > self.limit:
            raise SearchTooLong(f"more than {self.limit} states generated")
        return self.game.result(state, action)

    def __getattr__(self, name: str):
        return getattr(self.game, name)
