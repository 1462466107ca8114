"""Whole tic-tac-toe games played by a student's search: against a seeded random player, and against itself.

``abkit check`` plays in its own process, ``abkit grade`` asks the student's
sandboxed process for each move: either way the caller passes ``choose(state)
-> action`` and this module plays the other side, applies every move with its
own game, and judges the games. The student's alpha-beta must never lose to the
random player (as X and as O) and must draw against itself: tic-tac-toe is a draw
under perfect play, so a loss or a win in self-play means a wrong search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from abkit.game import MAX
from abkit.i18n import Message
from abkit.tictactoe import EMPTY, TicTacToe, winner

#: the games: the student as X and as O against the random player, then against itself
SIDES = ("X", "O", "self")


@dataclass
class Played:
    """One game.

    side: ``"X"`` or ``"O"`` (the student's mark against the random player) or ``"self"``.
    moves: the squares played, in order; final: the last board.
    problem: why the game fails the test (``None``: it passes).
    """

    side: str
    moves: list
    final: str
    problem: Message | None = None


def play_games(choose: Callable[[str], Any], seed: int, sides: tuple[str, ...] = SIDES,
               start: str = EMPTY) -> list[Played]:
    """Play one game per side from ``start``; ``choose`` is asked once per position (its answers are reused).

    An exception from ``choose`` propagates to the caller.
    """
    answers: dict[str, Any] = {}

    def student(state: str) -> Any:
        if state not in answers:
            answers[state] = choose(state)
        return answers[state]

    return [_play(student, random.Random(f"{seed}/{side}"), side, start) for side in sides]


def _play(student: Callable[[str], Any], rng: random.Random, side: str, state: str) -> Played:
    game = TicTacToe()
    moves: list = []
    while not game.terminal_test(state):
        mark = "X" if game.to_move(state) == MAX else "O"
        if side in (mark, "self"):
            action = student(state)
            if isinstance(action, bool) or action not in game.actions(state):
                return Played(side, moves, state, Message("play.illegal", action=repr(action), board=board_text(state)))
        else:
            action = rng.choice(game.actions(state))
        moves.append(action)
        state = game.result(state, action)
    return Played(side, moves, state, _verdict(side, state, moves))


def _verdict(side: str, final: str, moves: list) -> Message | None:
    won = winner(final)
    shown = " ".join(map(str, moves))
    if side == "self" and won is not None:
        return Message("play.self_not_draw", mark=won, moves=shown, board=board_text(final))
    if side != "self" and won not in (None, side):
        return Message("play.lost", side=side, moves=shown, board=board_text(final))
    return None


def board_text(state: str) -> str:
    """The board in one line, rows split by slashes: ``XO./.X./..O``."""
    return "/".join(state[i:i + 3] for i in (0, 3, 6))


def problems(games: list[Played]) -> list[Message]:
    """What is wrong with the games, one message per failed game (empty: the test passes)."""
    return [g.problem for g in games if g.problem is not None]
