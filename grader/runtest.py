"""What runs one test: the game a request names, and the student's (or the reference's) search run on it.

The student's process runs a request's test here (:mod:`abkit.grader.serve`); the grader runs the same code on the
reference solutions and the mistakes (:mod:`abkit.grader.testplan`, :mod:`abkit.grader.judgement`), so that both
are run alike. A request carries only the game: a tree (:func:`abkit.wire.tree_to_data`), or the name of a board
game, from which EVAL is built here; never an expected answer.
"""

from __future__ import annotations

import json
from types import ModuleType

from abkit.algorithms import Algorithm
from abkit.game import Budgeted
from abkit.play import MOVE_BUDGET  # one move of a played game, searched without tracing: check's budget too
from abkit.tictactoe import SymmetryMerged, TicTacToe, nilsson_eval
from abkit.trace import Trace, _plain, counted_search, traced_call, traced_search
from abkit.tree import Tree, TreeGame
from abkit.wire import tree_from_data

#: the functions a submission is expected to define (contract §1)
CONTRACT = ("minimax_decision", "alpha_beta_search", "max_value", "min_value", "alpha_beta_cutoff_search",
            "cutoff_test", "expectiminimax_decision", "expectiminimax", "chance_value", "ordered_actions",
            "iterative_deepening_search", "actions_in_order")
#: board games a request may name, and the evaluation function each is searched with to a depth limit
BOARD_GAMES = {"tictactoe": TicTacToe, "tictactoe-symmetric": SymmetryMerged}
#: the most states a traced search of a board game may generate: a search that does not prune is stopped well
#: within a test's time limit, even traced under coverage (tic-tac-toe after a corner opening: alpha-beta 2,338
#: under the AIMA rule; from the empty board 18,297, so that position is not graded; minimax 549,946)
GAME_BUDGET = 10_000


def game_from_request(request: dict):
    """The game a request names: its ``tree``, or a board game by name (``game``)."""
    if "tree" in request:
        return TreeGame(tree_from_data(request["tree"]))
    return BOARD_GAMES[request["game"]]()


#: the requests every student's process of a batch is sent alike (the shared tests'), read once by the fork server
#: before it forks any child (:func:`know`): their bytes -> the request as data (one object for tests whose requests
#: are the same bytes); and, by the request's id, the request itself and its tree's fields, each mapping as a tuple
#: of its items (nothing a test does can change them). A child reads such a request without parsing it
#: (:class:`abkit.wire.Channel`'s ``known``) and builds each test's game from those fields (:func:`_game_for`).
#: Empty in a child started afresh: every request is parsed and built there.
_KNOWN: dict[bytes, dict] = {}
_KNOWN_TREES: dict[int, tuple] = {}


def know(bodies: list[bytes]) -> None:
    """Remember ``bodies`` (requests, as the grader encodes them) and the trees they name (:data:`_KNOWN`)."""
    for body in bodies:
        request = _KNOWN.setdefault(body, json.loads(body))
        if "tree" in request:
            fields = vars(tree_from_data(request["tree"])).items()  # (a tree's other fields: text and tuples)
            frozen = tuple((name, type(value) is dict, tuple(value.items()) if type(value) is dict else value)
                           for name, value in fields)
            _KNOWN_TREES.setdefault(id(request), (request, frozen))


def _game_for(request: dict):
    """The game ``request`` names, new: for a known request, built from its tree's kept fields, each mapping a new
    dict (equal to :func:`game_from_request`'s, without parsing), else :func:`game_from_request`."""
    known = _KNOWN_TREES.get(id(request))
    if known is None or known[0] is not request:
        return game_from_request(request)
    return TreeGame(Tree(**{name: dict(value) if mapping else value for name, mapping, value in known[1]}))


def search_params(request: dict, game) -> dict:
    """The extra arguments of a depth-limited search: ``depth`` from the request, EVAL built here
    (the tree's heuristic values, or Nilsson's e(p) on tic-tac-toe)."""
    if request.get("depth") is None:
        return {}
    return {"depth": request["depth"], "eval_fn": game.evaluate if isinstance(game, TreeGame) else nilsson_eval}


def run_test(module: ModuleType, request: dict, game: TreeGame) -> Trace:
    """The trace of one test request (``op`` ``search`` or ``call``) on ``module``, searching ``game``.

    A search's value is the module's MAX-VALUE/MIN-VALUE called on the root right after it, in this same
    run (:func:`abkit.trace.root_value`); a direct call's value is what that call returned.
    A board game is searched with a budget of :data:`GAME_BUDGET` states, and only its counts are kept
    (``counts`` in the request): a whole game's states are too many to send.
    """
    if request["op"] == "search":
        searched = game if isinstance(game, TreeGame) else Budgeted(game, GAME_BUDGET)
        search = counted_search if request.get("counts") else traced_search
        return search(module, searched, request["state"], request["algorithm"], **search_params(request, game))
    return traced_call(module, game, request["state"], request["algorithm"], request["function"],
                       tuple(request.get("window", [])))


def answer(module: ModuleType, request: dict) -> dict:
    """What an ``order`` request, or one move of a ``games`` request, asks of the student's code, as plain data
    (``answer``).

    ``order``: ``ordered_actions(game, node, EVAL)`` for each of the request's ``nodes``.
    otherwise: the exercise's search chooses one move of a played game, within :data:`MOVE_BUDGET` states.
    Exceptions propagate to the caller.
    """
    game = game_from_request(request)
    if request["op"] == "order":
        eval_fn = search_params({"depth": 0}, game)["eval_fn"]
        return {"answer": {node: _plain_list(module.ordered_actions(game, node, eval_fn)) for node in request["nodes"]}}
    entry = getattr(module, Algorithm(request["algorithm"]).entry)
    return {"answer": _plain(entry(Budgeted(game, MOVE_BUDGET), request["state"]))}


def _plain_list(value: object) -> object:
    """A list or tuple as a list of plain values (JSON); anything else as text."""
    return [_plain(x) for x in value] if isinstance(value, (list, tuple)) else _plain(value)
