"""The paper exercises on the topics beyond the plain search (issue 33): the written forms of alpha-beta (Pearl's
fail-hard, GeeksforGeeks' update-then-test), the Knuth–Moore count, weighted features, quiescence, the horizon
effect with a delaying move and one TD update. Every number an answer key states is worked out here by hand (in the
comments) or by a search written here from the pseudocode, never taken from the code that prints it."""

from __future__ import annotations

import math

import pytest

from abkit.handouts.content import build_document, exercise_tree, number
from abkit.tree import Tree

from test_handout_text import printed


@pytest.fixture(scope="module", params=["en", "ko"])
def key(request) -> tuple[str, str]:
    return request.param, "\n".join(printed(build_document(request.param, "answer_key")))


def answer(text: str, exercise: str, lang: str) -> str:
    """The part of an answer key that answers ``exercise`` (up to the next exercise's heading)."""
    heading = {"en": "Exercise {n}:", "ko": "연습 문제 {n}:"}[lang]
    start = text.index(heading.format(n=number(exercise)))
    end = text.find(heading.format(n=number(exercise) + 1), start)
    return text[start:end if end > 0 else None]


def pearl(tree: Tree, node: str, alpha: float, beta: float, out: dict[str, float]) -> float:
    """Pearl's V(J; α, β) as the notes print it (steps 2-4, 2'-4'), recording what every node returns."""
    if tree.is_leaf(node):
        out[node] = tree.utilities[node]
        return out[node]
    maximizing = tree.players()[node] == "MAX"
    for child in tree.children[node]:
        if maximizing:
            alpha = max(alpha, pearl(tree, child, alpha, beta, out))
            if alpha >= beta:
                out[node] = beta
                return beta
        else:
            beta = min(beta, pearl(tree, child, alpha, beta, out))
            if beta <= alpha:
                out[node] = alpha
                return alpha
    out[node] = alpha if maximizing else beta
    return out[node]


def aima(tree: Tree, node: str, alpha: float, beta: float, out: dict[str, float]) -> float:
    """AIMA's MAX-VALUE / MIN-VALUE (fail-soft, cut on equality), recording what every node returns."""
    if tree.is_leaf(node):
        out[node] = tree.utilities[node]
        return out[node]
    maximizing = tree.players()[node] == "MAX"
    v = -math.inf if maximizing else math.inf
    for child in tree.children[node]:
        if maximizing:
            v = max(v, aima(tree, child, alpha, beta, out))
            if v >= beta:
                break
            alpha = max(alpha, v)
        else:
            v = min(v, aima(tree, child, alpha, beta, out))
            if v <= alpha:
                break
            beta = min(beta, v)
    out[node] = v
    return v


def test_the_forms_key_on_the_handouts_tree_is_the_one_worked_by_hand(key):
    """The handout's tree: A (MAX): B (MIN): B1 = 1, B2 (MAX): −3, 5; C (MIN): C1 = −3, C2 (MAX), C3 (MAX).
    By hand: B1 gives B β = 1; B2 reaches 5 ≥ 1 and is cut (AIMA returns 5, Pearl β = 1); C1 = −3 ≤ α = 1 cuts C
    (AIMA −3, Pearl α = 1). GeeksforGeeks raises α to 5 at B2 before it tests (α = 5, β = 1), lowers β to −3 at C
    (α = 1, β = −3). The root is 1 in all three forms."""
    lang, text = key
    tree = exercise_tree("forms")
    assert [tree.utilities[n] for n in ("B1", "B2.1", "B2.2", "C1")] == [1, -3, 5, -3]
    part = answer(text, "forms", lang)
    said = {"en": ("B2 (1 instead of 5), C (1 instead of −3)", "B2 (α = 5, β = 1), C (α = 1, β = −3)", "root 1"),
            "ko": ("B2(5 대신 1), C(−3 대신 1)", "B2(α = 5, β = 1), C(α = 1, β = −3)", "같은 값 1을")}[lang]
    assert all(s in part for s in said), part


@pytest.mark.parametrize("student", ["kim-01", "lee-02", "park-03", "choi-04"])
def test_every_variants_forms_key_names_exactly_the_nodes_where_pearl_differs(student):
    """On each student's tree, the nodes the key says Pearl's form answers differently are those where a fail-hard
    search written here returns another value than a fail-soft one; both give the root the same value."""
    tree = exercise_tree("forms", student)
    soft, hard = {}, {}
    assert aima(tree, tree.root, -math.inf, math.inf, soft) == pearl(tree, tree.root, -math.inf, math.inf, hard)
    differ = [n for n in soft if not tree.is_leaf(n) and soft[n] != hard[n]]
    assert differ  # the exercise has something to find: it cuts, and never on equality
    text = "\n".join(printed(build_document("en", "variant_key", student)))
    part = answer(text, "forms", "en")
    for node in differ:
        assert f"{node} ({_num(hard[node])} instead of {_num(soft[node])})" in part, (node, part)
    assert part.count("instead of") == len(differ)


def _num(x: float) -> str:
    return f"{x:g}".replace("-", "−")


def test_the_knuth_moore_key(key):
    """By hand: 2^4 = 16 and 2^2 + 2^2 − 1 = 7; 3^3 = 27 and 3^2 + 3 − 1 = 11; 3^5 = 243 and 3^3 + 3^2 − 1 = 35;
    5^4 = 625 and 5^2 + 5^2 − 1 = 49. With minimax's 10^4 leaves (b = 10, d = 4): depth 6 takes
    10^3 + 10^3 − 1 = 1,999, depth 7 takes 10^4 + 10^3 − 1 = 10,999 > 10,000, depth 8 takes 19,999."""
    lang, text = key
    part = answer(text, "knuth_moore", lang)
    for b, d, leaves, best in [(2, 4, 16, 7), (3, 3, 27, 11), (3, 5, 243, 35), (5, 4, 625, 49)]:
        assert f"{b}\n{d}\n{leaves}\n{best}\n" in part, part  # a row of the table, cell by cell
    for figure in ("10,000", "1,999", "10,999", "19,999"):
        assert figure in part
    assert {"en": "finishes depth 6", "ko": "깊이 6까지 마칩니다"}[lang] in part


def test_the_weighted_features_key(key):
    """By hand. Weights pawn 1, knight 3, bishop 3, mobility 0.05: B = 1 + 0.05·2 = 1.1, C = 3 − 3 + 0.05·8 = 0.4,
    D = −1 + 0.05·22 = 0.1, so B. Mobility 0.2: B = 1 + 0.4 = 1.4, C = 1.6, D = −1 + 4.4 = 3.4, so D."""
    lang, text = key
    part = answer(text, "weights", lang)
    assert "B = 1.1, C = 0.4, D = 0.1" in part and "B = 1.4, C = 1.6, D = 3.4" in part
    assert {"en": "MAX chooses B.", "ko": "MAX는 B를 고릅니다"}[lang] in part
    assert {"en": "MAX chooses D.", "ko": "MAX는 D를 고릅니다"}[lang] in part
    assert "1·(−1) + 0.2·22 = 3.4" in part  # D's row, second weights, written out


def test_the_td_key(key):
    """By hand: f_t = 1·2 + 0.5·4 = 4, f_t+1 = 1·3 + 0.5·0 = 3, error −1; w1 = 1 + 0.1·(−1)·2 = 0.8,
    w2 = 0.5 + 0.1·(−1)·4 = 0.1. With W: B = 1 + 3 = 4, C = 2 + 0.5 = 2.5 (B); with W′: B = 0.8 + 0.6 = 1.4,
    C = 1.6 + 0.1 = 1.7 (C)."""
    lang, text = key
    part = answer(text, "td", lang)
    for said in ("= 4", "= 3", "−1", "1 + 0.1·(−1)·2 = 0.8", "0.5 + 0.1·(−1)·4 = 0.1", "B = 4, C = 2.5",
                 "B = 1.4, C = 1.7"):
        assert said in part, (said, part)
    assert {"en": "MAX chooses C.", "ko": "MAX는 C를 고릅니다"}[lang] in part


def test_the_quiescence_key(key):
    """By hand on the tree of the depth-limit exercise: below B1, max(2, 1) = 2, so B = min(2, EVAL(B2) = 5) = 2;
    C = min(EVAL(C1) = 4, EVAL(C2) = 3) = 3, so C with 3; the complete search also plays C (with 5)."""
    lang, text = key
    part = answer(text, "quiescence", lang)
    assert "B = 2, C = 3" in part and "B1a = 2, B1b = 1" in part
    assert {"en": "MAX chooses C, value 3", "ko": "MAX는 C를 고르며 값은 3"}[lang] in part


def test_the_delaying_move_key(key):
    """By hand (fixtures/public/horizon-delay.yaml): to depth 2, B = min(−9, −8) = −9 and C = min(−1, 0) = −1, so the
    check C; to the end B = min(max(−9, −10), max(−9, −11)) = −9, C = min(max(−10, −12), max(−10, −11)) = −10, so B.
    The delay costs −9 − (−10) = 1."""
    lang, text = key
    part = answer(text, "horizon_delay", lang)
    assert "B = −9, C = −1" in part and "B = −9, C = −10" in part
    assert {"en": "C is a delaying move", "ko": "C는 시간을 끄는 수"}[lang] in part
    assert {"en": "costs 1 more", "ko": "1만큼 더 잃습니다"}[lang] in part


def leaves_in_order(tree: Tree, first: str) -> list[str]:
    """The leaves AIMA's alpha-beta evaluates when the root's move ``first`` is searched first (the rest in order)."""
    evaluated: list[str] = []

    def search(node: str, alpha: float, beta: float) -> float:
        if tree.is_leaf(node):
            evaluated.append(node)
            return tree.utilities[node]
        maximizing = tree.players()[node] == "MAX"
        children = list(tree.children[node])
        if node == tree.root:
            children = [first] + [c for c in children if c != first]
        v = -math.inf if maximizing else math.inf
        for child in children:
            value = search(child, alpha, beta)
            v = max(v, value) if maximizing else min(v, value)
            if (maximizing and v >= beta) or (not maximizing and v <= alpha):
                return v
            alpha, beta = (max(alpha, v), beta) if maximizing else (alpha, min(beta, v))
        return v

    search(tree.root, -math.inf, math.inf)
    return evaluated


def test_the_deepening_key_on_the_handouts_tree_is_the_one_worked_by_hand(key):
    """The handout's tree: EVAL B = 5, C = 8, D = 5, so C first. C = min(10, 12) = 10; B1 = 7 ≤ 10 cuts B; D1 = 20,
    then D2 = 2 ≤ 10 cuts D: 5 leaves (C1, C2, B1, D1, D2), B2 never generated. In the tree's own order nothing
    is cut: B = min(7, 2) = 2, C = min(10, 12) = 10, D's two leaves (20 > 10, then 2): 6."""
    lang, text = key
    tree = exercise_tree("deepening")
    assert [tree.heuristics[m] for m in ("B", "C", "D")] == [5, 8, 5]
    assert [tree.utilities[n] for n in ("B1", "B2", "C1", "C2", "D1", "D2")] == [7, 2, 10, 12, 20, 2]
    part = answer(text, "deepening", lang)
    said = {"en": ("the best move is C", "order C, B, D and evaluates 5 leaves (C1, C2, B1, D1, D2)",
                   "cuts off B2", "would evaluate 6", "makes 8 evaluations"),
            "ko": ("가장 좋은 수는 C입니다", "C, B, D 순서로 탐색하고 단말 5개(C1, C2, B1, D1, D2)", "B2를 가지치기",
                   "6개를 평가합니다", "모두 8번 평가합니다")}[lang]
    assert all(s in part for s in said), part


@pytest.mark.parametrize("student", ["kim-01", "lee-02", "park-03"])
def test_every_variants_deepening_key_counts_the_leaves_of_both_orders(student):
    """On each student's tree the key's counts are those of a search written here: the depth-1 best move (by EVAL)
    first, against the tree's own order, and the first order saves leaves."""
    tree = exercise_tree("deepening", student)
    moves = tree.children[tree.root]
    best = max(moves, key=lambda m: tree.heuristics[m])
    reordered, plain = leaves_in_order(tree, best), leaves_in_order(tree, moves[0])
    assert best != moves[0] and len(reordered) < len(plain)
    part = answer("\n".join(printed(build_document("en", "variant_key", student))), "deepening", "en")
    assert f"evaluates {len(reordered)} leaves ({', '.join(reordered)})" in part
    assert f"would evaluate {len(plain)}." in part and f"makes {len(moves) + len(reordered)} evaluations" in part


def test_numbers_that_no_longer_fit_the_words_stop_the_build_in_a_sentence(abkit, tmp_path):
    """An instructor who gives the TD exercise a negative rate makes the key's "every weight falls" false: the build
    says which claim no longer holds and what to do, with exit status 2 and no traceback."""
    from helpers import course_under

    with course_under("aima", tmp_path / "course") as course:
        outline = course / "handouts" / "outline.yaml"
        text = outline.read_text(encoding="utf-8")
        assert "rate: 0.1," in text
        outline.write_text(text.replace("rate: 0.1,", "rate: -0.1,"), encoding="utf-8")
        run = abkit("handouts", "build", "--lang", "en", "--out", tmp_path / "out", "--format", "html",
                    "--course", course)
    assert run.status == 2 and "Traceback" not in run.err
    assert "every weight falls" in run.err and "handouts/outline.yaml" in run.err
