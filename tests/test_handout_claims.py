"""What the handouts state about games is true (issue 33): worked out from the kit's games or quoted as the source's
estimate with its source, never a figure carried over uncorrected."""

from __future__ import annotations

import functools

import pytest

from abkit.handouts.content import build_document
from abkit.tictactoe import LINES

from test_handout_text import printed


@functools.lru_cache(maxsize=None)
def value(board: str) -> int:
    """Tic-tac-toe's minimax value for X of ``board``, by a plain search written here (independent of the kit)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return 1 if board[a] == "X" else -1
    empty = [i for i, cell in enumerate(board) if cell == "."]
    if not empty:
        return 0
    mark = "X" if board.count("X") == board.count("O") else "O"
    values = [value(board[:i] + mark + board[i + 1:]) for i in empty]
    return max(values) if mark == "X" else min(values)


@pytest.fixture(scope="module", params=["en", "ko"])
def notes(request) -> tuple[str, str]:
    return request.param, "\n".join(printed(build_document(request.param, "handout")))


def test_every_first_move_is_worth_a_draw_and_the_notes_say_so(notes):
    """Under a complete search no first move is better than another: the centre is e(p)'s choice, not the best move."""
    lang, text = notes
    assert {value("." * i + "X" + "." * (8 - i)) for i in range(9)} == {0}
    said = {"en": ("a complete search values every first move alike, at 0",
                   "a complete search would value all 9 first moves alike, at 0"),
            "ko": ("완전 탐색으로 보면 첫 수의 값은 모두 0으로 같습니다", "첫 수 9가지의 값이 모두 0으로 같습니다")}[lang]
    assert all(sentence in text for sentence in said)
    assert "best first move" not in text and "최선의 첫 수" not in text


def test_the_time_to_build_chess_s_game_graph_is_worked_out_not_copied(notes):
    """10^40 nodes at one per third of a nanosecond: 3.3 × 10^30 s, 1.06 × 10^21 centuries (Nilsson prints 10^22);
    the universe, 13.8 billion years, is 1.4 × 10^8 centuries old."""
    lang, text = notes
    seconds = 10 ** 40 / 3e9
    assert 1e21 < seconds / (100 * 365.25 * 86400) < 2e21
    if lang == "en":
        assert ("about 3 × 10^{30} seconds, that is about 10^{21} centuries (Nilsson writes 10^{22}), while the "
                "universe is about 10^{8} centuries old") in text
        assert "Nilsson estimates the complete game graph of chess at about 10^{40} nodes" in text
    else:
        assert "약 3 × 10^{30}초, 곧 약 10^{21}세기가 걸리는데(Nilsson의 글에는 10^{22}세기)" in text


def test_a_program_s_name_takes_the_particle_of_how_it_is_read():
    text = "\n".join(printed(build_document("ko", "handout")))
    assert "CHINOOK**은" not in text and "CHINOOK은" not in text and "치누크**(CHINOOK)는" in text


@pytest.mark.parametrize("edition,student", [("student_sheet", "kim-01"), ("answer_key", ""), ("variant_key", "kim-01")])
def test_sheets_and_keys_cite_sections_as_the_lecture_notes(edition, student):
    """A student's sheet and the keys hold no numbered sections of the notes: every section they cite is named as
    the notes' ("Section 12 of the lecture notes", "강의 노트 12절"); the notes themselves cite their own plainly."""
    import re

    english = "\n".join(printed(build_document("en", edition, student)))
    korean = "\n".join(printed(build_document("ko", edition, student)))
    cited = re.findall(r"Sections? \d+(?: of the lecture notes)?", english)
    assert cited and all(c.endswith(" of the lecture notes") for c in cited)
    cited = re.findall(r"(?:강의 노트 )?\d+절", korean)
    assert cited and all(c.startswith("강의 노트 ") for c in cited)
    notes = "\n".join(printed(build_document("en", "handout")))
    assert "of the lecture notes" not in notes


def test_one_word_per_concept_on_the_pages(notes):
    """The figures' notes write α and β as the page does, and a Korean page says 수 순서 for move ordering (행동 is
    AIMA's ACTIONS only) and gives every term's meaning in Korean."""
    lang, text = notes
    assert "alpha =" not in text and "beta =" not in text
    if lang == "ko":
        assert "행동 순서" not in text and "수 순서" in text
        glossary = build_document("ko", "handout").sections[-1]
        rows = [row for b in glossary.blocks if b.get("glossary") for row in b["rows"]]
        meanings = [row[3] for row in rows if row[3]]
        assert len(meanings) >= 14 and all(any("가" <= ch <= "힣" for ch in m) for m in meanings)
        assert not any("(" in row[0] for row in rows)  # the English column holds the term alone


def evaluated_by_alpha_beta(children: list[list[float]]) -> int:
    """Leaves alpha-beta (AIMA rule: cut when v ≤ α) evaluates on a two-ply tree, MAX at the root, written here."""
    alpha, count = -float("inf"), 0
    for leaves in children:
        v = float("inf")
        for leaf in leaves:
            count += 1
            v = min(v, leaf)
            if v <= alpha:
                break
        alpha = max(alpha, v)
    return count


@pytest.mark.parametrize("student", ["", "kim-01", "lee-02", "park-03"])
def test_the_reordering_key_states_exactly_the_orders_that_are_right(student):
    """Every ordering of Exercise 5's tree (root moves and each MIN node's leaves) tried: the ones that evaluate the
    fewest leaves are exactly those the key's condition names, and the key names the right move and value."""
    import itertools

    from abkit.handouts.exercises import exercise_tree

    tree = exercise_tree("ex3", student)
    mins = {child: [tree.utilities[leaf] for leaf in tree.children[child]] for child in tree.children[tree.root]}
    root_value = max(min(leaves) for leaves in mins.values())
    best = next(child for child, leaves in mins.items() if min(leaves) == root_value)
    tried = [(moves, orders, evaluated_by_alpha_beta([list(o) for o in orders]))
             for moves in itertools.permutations(mins)
             for orders in itertools.product(*(itertools.permutations(mins[m]) for m in moves))]
    fewest = min(count for _, _, count in tried)
    assert fewest == len(mins[best]) + len(mins) - 1  # the best move's leaves, then one under each other MIN node
    for moves, orders, count in tried:
        said = moves[0] == best and all(order[0] <= root_value for order in orders[1:])
        assert (count == fewest) == said, (moves, orders)
    edition = "variant_key" if student else "answer_key"
    key = "\n".join(printed(build_document("en", edition, student)))
    assert (f"any with which alpha-beta evaluates {fewest} leaves. Two things decide it: the root's best move, {best} "
            f"(worth {root_value:g}), is searched first") in key


def test_the_depth_limit_exercise_is_not_called_the_horizon_effect():
    """Exercise 7 shows an EVAL that is wrong at the depth limit, not a delaying move pushing a loss past it: its
    title does not claim the horizon effect, and its answer says how the two relate."""
    from abkit.handouts.words import words

    for lang, effect in (("en", "horizon effect"), ("ko", "수평선 효과")):
        assert effect not in words(lang)["horizon_ex.title"]
        key = "\n".join(printed(build_document(lang, "answer_key")))
        assert ("delaying moves that push a loss past the limit" if lang == "en" else "시간을 끄는 수로") in key
