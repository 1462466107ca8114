"""The fixtures whose expectations the reference wrote, checked by a second search that owes the kit nothing.

Thirteen shipped fixtures carry expectations computed by the reference solutions (`abkit fixtures generate` and
`expect`): the eight generated trees, four tic-tac-toe positions and `nilsson-depth-2-unmerged`. `abkit fixtures
verify` checks them against the same reference, which proves nothing about the reference. Here every expected field
they hold (value, action, visited order, evaluated leaves, pruned subtrees, node and leaf counts, windows) is
recomputed by deliberately plain searches written in this file from AIMA's pseudocode: the YAML is read with
``yaml.safe_load`` and the compact form expanded by the naming rule of fixtures/README.md; the board is a 9-character
string with its own rules below. Nothing here imports the kit's reference, solutions/, trace or loader.

The plain searches are themselves held against fixtures written by hand from the textbooks (AIMA Fig. 5.2, the
GeeksforGeeks tree, the rule-split trees) and against the published tic-tac-toe counts of
../shared/docs/oracles.md, so a fault in them shows up there too.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

#: the fixtures whose expectations came from the reference (by their ``source:``): the ones this file exists for
FROM_THE_REFERENCE = [
    "public/uniform-b2-d3-best-s1", "public/uniform-b2-d3-worst-s1",
    "hidden/uniform-b3-d4-best", "hidden/uniform-b3-d4-worst",
    "hidden/random-b2-d5-cs188-1", "hidden/random-b2-d5-cs188-2",
    "hidden/random-b3-d3-min-1", "hidden/random-b3-d3-min-2",
    "public/ttt-x-wins-now", "public/ttt-o-blocks", "public/ttt-o-wins", "hidden/ttt-corner-opening",
    "hidden/nilsson-depth-2-unmerged",
]
#: fixtures written by hand from their sources: they check the plain tree searches below
BY_HAND = [
    "public/aima-fig-5-2", "public/compact-aima", "public/aima-reordered", "public/gfg-alpha-beta",
    "public/min-root", "public/negative-fractional", "public/root-ties", "public/rule-split-min",
    "public/rule-split-min-cs188", "public/unbalanced", "public/deep-cutoff", "public/terminal-root",
    "hidden/rule-split-max", "hidden/rule-split-max-cs188", "hidden/min-root-ties", "hidden/aima-variant",
]


def read(name: str) -> dict:
    return yaml.safe_load((FIXTURES / f"{name}.yaml").read_text(encoding="utf-8"))


# ---- a game tree, read plainly -------------------------------------------------------------------------------

def child_name(parent: str, position: int, at_root: bool) -> str:
    """fixtures/README.md's compact naming: the root's children B, C, D, ...; below, parent + position, with a dot
    first after a name that ends in a digit (B1, B1.1)."""
    if at_root:
        assert position <= 25, "more than 25 root children is not written in these fixtures"
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[position]
    return f"{parent}.{position}" if parent[-1].isdigit() else f"{parent}{position}"


def expand(name: str, node, children: dict, leaves: dict, at_root: bool) -> None:
    """Record ``node`` (a number, a list or a mapping of named children) under ``name``."""
    if isinstance(node, (int, float)):
        leaves[name] = node
        return
    if isinstance(node, list):
        named = [(child_name(name, i + 1, at_root), kid) for i, kid in enumerate(node)]
    else:
        named = [(str(key), kid) for key, kid in node.items()]
    children[name] = [kid_name for kid_name, _ in named]
    for kid_name, kid in named:
        expand(kid_name, kid, children, leaves, False)


def plain_tree(data: dict) -> tuple[str, dict, dict, str]:
    """(root name, children per inner node, utility per leaf, who moves at the root)."""
    tree = data["tree"]
    children: dict[str, list[str]] = {}
    leaves: dict[str, float] = {}
    if isinstance(tree, dict):
        ((root, node),) = tree.items()
        root = str(root)
    else:
        root, node = data.get("root_name", "A"), tree
    expand(root, node, children, leaves, True)
    return root, children, leaves, data.get("root", "max")


class TreeSearch:
    """MINIMAX and ALPHA-BETA on a tree of names, recording what the fixtures expect."""

    def __init__(self, root, children, leaves, root_player, prune_on_equality):
        self.root, self.children, self.leaves = root, children, leaves
        self.maximizing_root = root_player == "max"
        self.equality = prune_on_equality
        self.visited: list[str] = []
        self.evaluated: list[str] = []
        self.windows: dict[str, list[float]] = {}

    def minimax(self, node, maximizing):
        self.visited.append(node)
        if node in self.leaves:
            return self.leaves[node]
        values = [self.minimax(kid, not maximizing) for kid in self.children[node]]
        return max(values) if maximizing else min(values)

    def alphabeta(self, node, maximizing, alpha, beta):
        self.visited.append(node)
        if node in self.leaves:
            self.evaluated.append(node)
            value = self.leaves[node]
        else:
            value = self.inner(node, maximizing, alpha, beta)
        self.windows[node] = [alpha, beta, value]
        return value

    def inner(self, node, maximizing, alpha, beta):
        v = -math.inf if maximizing else math.inf
        for kid in self.children[node]:
            got = self.alphabeta(kid, not maximizing, alpha, beta)
            if maximizing:
                v = max(v, got)
                if v > beta or (self.equality and v == beta):
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, got)
                if v < alpha or (self.equality and v == alpha):
                    return v
                beta = min(beta, v)
        return v

    def decide(self, algorithm):
        """(value, action) at the root: the first child whose value is the best (ties to the first)."""
        self.visited.append(self.root)
        if self.root in self.leaves:  # a finished game: its utility, no action (UTILITY need not be called)
            self.windows[self.root] = [-math.inf, math.inf, self.leaves[self.root]]
            return self.leaves[self.root], None
        best, action, alpha, beta = None, None, -math.inf, math.inf
        for kid in self.children[self.root]:
            if algorithm == "minimax":
                got = self.minimax(kid, not self.maximizing_root)
            else:
                got = self.alphabeta(kid, not self.maximizing_root, alpha, beta)
            if best is None or (got > best if self.maximizing_root else got < best):
                best, action = got, kid
                alpha, beta = (best, beta) if self.maximizing_root else (alpha, best)
        self.windows[self.root] = [-math.inf, math.inf, best]
        return best, action

    def pruned(self):
        """The children of visited inner nodes that were never visited, in tree order."""
        seen, out = set(self.visited), []

        def walk(node):
            for kid in self.children.get(node, []):
                if node in seen and kid not in seen:
                    out.append(kid)
                elif kid in seen:
                    walk(kid)

        walk(self.root)
        return out


def tree_answers(data: dict) -> dict:
    """Every field a tree fixture's ``minimax`` and ``alphabeta`` blocks can hold, by the plain searches."""
    root, children, leaves, player = plain_tree(data)
    rule = data.get("prune_on_equality", True)
    plain = TreeSearch(root, children, leaves, player, rule)
    value, action = plain.decide("minimax")
    answers = {"minimax": {"value": value, "action": action, "nodes": len(plain.visited)}}
    search = TreeSearch(root, children, leaves, player, rule)
    value, action = search.decide("alphabeta")
    answers["alphabeta"] = {"value": value, "action": action, "visited": search.visited,
                            "evaluated": search.evaluated, "pruned": search.pruned(),
                            "nodes": len(search.visited), "windows": search.windows}
    return answers


# ---- tic-tac-toe, written out plainly ------------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def board_winner(board: str):
    for a, b, c in LINES:
        if board[a] in "XO" and board[a] == board[b] == board[c]:
            return board[a]
    return None


def x_to_move(board: str) -> bool:
    return board.count("X") == board.count("O")


def moves(board: str) -> list[int]:
    """Empty squares in row-major order; none once someone has won."""
    return [] if board_winner(board) else [i for i, cell in enumerate(board) if cell == "."]


def play(board: str, square: int) -> str:
    return board[:square] + ("X" if x_to_move(board) else "O") + board[square + 1:]


def terminal(board: str) -> bool:
    return board_winner(board) is not None or "." not in board


def utility(board: str) -> int:
    return {"X": 1, "O": -1, None: 0}[board_winner(board)]


def open_lines(board: str) -> float:
    """Nilsson's e(p): lines without an O minus lines without an X; +inf / -inf for a win by X / O."""
    win = board_winner(board)
    if win:
        return math.inf if win == "X" else -math.inf
    return (sum(all(board[i] != "O" for i in line) for line in LINES)
            - sum(all(board[i] != "X" for i in line) for line in LINES))


class BoardSearch:
    """Minimax, alpha-beta and depth-limited alpha-beta on boards; counts states searched and leaves valued."""

    def __init__(self, prune_on_equality: bool):
        self.equality = prune_on_equality
        self.nodes = 0
        self.leaves = 0
        self.visited = []  # every board searched, in order

    def value(self, board, alpha, beta, depth, prune):
        """A state's value; ``depth`` None = to the end, ``prune`` False = plain minimax."""
        self.nodes += 1
        self.visited.append(board)
        if terminal(board) or depth == 0:
            self.leaves += 1
            return utility(board) if depth is None else open_lines(board)
        maximizing = x_to_move(board)
        v = -math.inf if maximizing else math.inf
        for square in moves(board):
            got = self.value(play(board, square), alpha, beta, None if depth is None else depth - 1, prune)
            v = max(v, got) if maximizing else min(v, got)
            if prune and maximizing:
                if v > beta or (self.equality and v == beta):
                    return v
                alpha = max(alpha, v)
            elif prune:
                if v < alpha or (self.equality and v == alpha):
                    return v
                beta = min(beta, v)
        return v

    def decide(self, board, depth, prune):
        """(value, square) at the root, ties to the first square; the root is counted as a searched state."""
        self.nodes += 1
        self.visited.append(board)
        maximizing, alpha, beta = x_to_move(board), -math.inf, math.inf
        best, action = None, None
        for square in moves(board):
            got = self.value(play(board, square), alpha, beta, None if depth is None else depth - 1, prune)
            if best is None or (got > best if maximizing else got < best):
                best, action = got, square
                alpha, beta = (best, beta) if maximizing else (alpha, best)
        return best, action


def board_answers(data: dict) -> dict:
    board = "".join(c for c in data["position"] if c in "XO.")
    rule = data.get("prune_on_equality", True)
    answers = {}
    for name, depth, prune in (("minimax", None, False), ("alphabeta", None, True),
                               ("cutoff", data.get("depth"), True)):
        if name not in data["expected"]:
            continue  # the full game from an early position costs seconds: only what the fixture expects
        search = BoardSearch(rule)
        value, action = search.decide(board, depth, prune)
        answers[name] = {"value": value, "action": action, "nodes": search.nodes, "leaves": search.leaves,
                         "visited": search.visited}
    return answers


def answers_for(data: dict) -> dict:
    return board_answers(data) if data.get("game") == "tictactoe" else tree_answers(data)


# ---- the tests -----------------------------------------------------------------------------------------------

def test_the_list_is_every_fixture_whose_expectations_the_reference_wrote():
    # a new generated fixture (source: "abkit fixtures generate ...") or one with counts "from the reference" must be
    # added to FROM_THE_REFERENCE, or it would go unchecked
    found = sorted(f"{path.parent.name}/{path.stem}" for path in FIXTURES.glob("*/*.yaml")
                   if (source := str(read(f"{path.parent.name}/{path.stem}").get("source", "")))
                   .startswith("abkit fixtures generate") or "from the reference" in source)
    assert found == sorted(FROM_THE_REFERENCE)


@pytest.mark.parametrize("name", FROM_THE_REFERENCE + BY_HAND)
def test_every_expected_field_agrees_with_a_plain_search(name):
    data = read(name)
    expected = data["expected"]
    answers = answers_for(data)
    checked = 0
    for block, fields in expected.items():
        assert block in answers, f"{name}: no plain search for the {block} block"
        for field, want in fields.items():
            assert field in answers[block], f"{name}: {block}.{field} is not checked here"
            assert answers[block][field] == want, f"{name}: {block}.{field}"
            checked += 1
    assert checked >= 3  # value, action and at least one count


def test_plain_tree_search_on_figure_5_2_and_its_equality_split():
    # AIMA Fig. 5.2 (oracles.md): value 3 to B; B1 B2 B3 C1 D1 D2 D3 evaluated, C2 and C3 pruned, either rule
    for rule in (True, False):
        answers = tree_answers({"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "prune_on_equality": rule})
        ab = answers["alphabeta"]
        assert (ab["value"], ab["action"], answers["minimax"]["nodes"]) == (3, "B", 13)
        assert ab["evaluated"] == ["B1", "B2", "B3", "C1", "D1", "D2", "D3"] and ab["pruned"] == ["C2", "C3"]
    # [[3, 5], [3, 1]]: C1 = 3 meets alpha = 3: AIMA cuts C2, CS188 evaluates it (C = 1 then)
    aima = tree_answers({"tree": [[3, 5], [3, 1]], "prune_on_equality": True})["alphabeta"]
    cs188 = tree_answers({"tree": [[3, 5], [3, 1]], "prune_on_equality": False})["alphabeta"]
    assert aima["pruned"] == ["C2"] and aima["windows"]["C"] == [3, math.inf, 3]
    assert cs188["pruned"] == [] and cs188["windows"]["C"] == [3, math.inf, 1] and cs188["windows"]["C2"] == [3, 3, 1]


def test_plain_board_search_meets_the_published_alphabeta_counts():
    # oracles.md: alpha-beta from the empty board, AIMA rule: 18,297 nodes, 7,330 leaves, value 0 at square 0
    search = BoardSearch(prune_on_equality=True)
    assert search.decide("." * 9, None, True) == (0, 0)
    assert (search.nodes, search.leaves) == (18_297, 7_330)


@pytest.mark.slow
def test_plain_board_search_meets_the_published_full_game_tree():
    # oracles.md: plain minimax from the empty board visits 549,946 states and values 255,168 finished games; 0 at 0
    search = BoardSearch(prune_on_equality=True)
    assert search.decide("." * 9, None, False) == (0, 0)
    assert (search.nodes, search.leaves) == (549_946, 255_168)


def test_nilssons_open_lines():
    # fixtures' seed 001: the empty board is 0; X in the centre 8 - 4 = 4; O in a corner besides: 5 - 4 = 1;
    # a finished line is +inf for X
    assert [open_lines("." * 9), open_lines("....X...."), open_lines("O...X...."), open_lines("XXX.OO...")] \
        == [0, 4, 1, math.inf]
