"""Whole tic-tac-toe games played by a student's search: against a seeded random player, and against itself.

``abkit check`` plays in its own process; ``abkit grade`` plays them twice: in the
student's sandboxed process, which sends each move its search chooses as soon as
it has it (:func:`playing`), and in the grader, which takes those moves in turn
and alone decides the games. Either way the caller passes ``choose(state) ->
action`` and this module plays the other side, applies every move with its own
game, and judges the games. The student's alpha-beta must never lose to the
random player (as X and as O) and must draw against itself: tic-tac-toe is a draw
under perfect play, so a loss or a win in self-play means a wrong search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from abkit.game import MAX
from abkit.i18n import Message
from abkit.tictactoe import EMPTY, TicTacToe, winner

if TYPE_CHECKING:
    from typing import Any, Callable, Generator

#: the games: the student as X and as O against the random player, then against itself
SIDES = ("X", "O", "self")
#: the played games of ``abkit check`` and of grading, one test: the random player's seed, the position they start
#: from (X has taken a corner: the games stay small, and self-play from there still catches a root that keeps the
#: first or the worst move), and the most states one move may generate (after a corner opening O's reply takes
#: alpha-beta 2,338 states under the AIMA rule and 15,993 under CS188's)
PLAY_SEED, PLAY_OPENING, MOVE_BUDGET = 0, "X........", 20_000


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
    games = playing(seed, sides, start)
    try:
        state = next(games)
        while True:
            state = games.send(choose(state))
    except StopIteration as done:
        return done.value


def playing(seed: int, sides: tuple[str, ...] = SIDES, start: str = EMPTY) -> Generator[str, Any, list[Played]]:
    """:func:`play_games` as a generator, for a caller that cannot be called back: it yields each position whose
    move the student's search must choose (once per position), is sent that move, and returns the games."""
    answers: dict[str, Any] = {}
    games = []
    for side in sides:
        games.append((yield from _play(answers, random.Random(f"{seed}/{side}"), side, start)))
    return games


def _play(answers: dict, rng: random.Random, side: str, state: str) -> Generator[str, Any, Played]:
    game = TicTacToe()
    moves: list = []
    while not game.terminal_test(state):
        mark = "X" if game.to_move(state) == MAX else "O"
        if side in (mark, "self"):
            if state not in answers:
                answers[state] = yield state
            action = answers[state]
            if isinstance(action, bool) or not isinstance(action, int) or action not in game.actions(state):  # 4.0 too
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
