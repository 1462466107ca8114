"""The fixture loader: the contract's format, the extensions, and every way a file can be wrong."""

from __future__ import annotations

import pytest

from abkit import fixture as fixture_module
from abkit.fixture import FixtureError, load_fixture, parse_fixture
from abkit.game import MIN

AIMA = """\
id: aima
root: max
tree:
  A:
    B: {B1: 3, B2: 12, B3: 8}
    C: {C1: 2, C2: 4, C3: 6}
    D: {D1: 14, D2: 5, D3: 2}
"""


def test_contract_example_loads():
    fx = parse_fixture(AIMA + "expected:\n  minimax: {value: 3, action: B, nodes: 13}\n")
    assert fx.tree.root == "A"
    assert fx.tree.children["A"] == ("B", "C", "D")
    assert fx.tree.utilities["D3"] == 2
    assert fx.prune_on_equality is True
    assert fx.expected == {"minimax": {"value": 3, "action": "B", "nodes": 13}}
    assert fx.lines["expected.minimax.value"] == 9


def test_missing_root_means_max_and_min_is_read():
    assert parse_fixture("tree: [1, 2]").tree.root_player == "MAX"
    assert parse_fixture("root: MIN\ntree: [1, 2]").tree.root_player == MIN


def test_compact_form_generates_textbook_names():
    fx = parse_fixture("tree: [[3, [1, 2]], 4]")
    assert fx.tree.children == {"A": ("B", "C"), "B": ("B1", "B2"), "B2": ("B2.1", "B2.2")}
    assert fx.tree.utilities == {"B1": 3, "B2.1": 1, "B2.2": 2, "C": 4}


def test_mixed_form_names_a_list_after_its_parent():
    fx = parse_fixture("root_name: R\ntree:\n  R:\n    X: [1, 2]\n    Y: 3\n")
    assert fx.tree.children == {"R": ("X", "Y"), "X": ("X1", "X2")}


def test_terminal_root_notes_tags_heuristics_and_texts():
    fx = parse_fixture("title: Plain\ntree: 5\n")
    assert fx.tree.utilities == {"A": 5} and fx.title == {"en": "Plain", "ko": "Plain"}
    fx = parse_fixture(
        "tree: {A: {B: 1, C: 2}}\nnotes: {B: {en: left, ko: 왼쪽}}\ntags: [ties]\nheuristics: {A: 1.5}\n"
        "description: {en: d, ko: 설명}\nsource: s\n")
    assert fx.notes == {"B": {"en": "left", "ko": "왼쪽"}}
    assert fx.tags == ["ties"] and fx.tree.heuristics == {"A": 1.5} and fx.description["ko"] == "설명"


def test_weighted_features_are_checked_against_the_tree():
    fx = parse_fixture("tree: [[1.5, 2]]\nheuristics: {B: 1.5}\nweights: {pawn: 1, mobility: 0.1}\n"
                       "features: {B: {pawn: 1, mobility: 5}, B1: {pawn: 2, mobility: -5}, B2: {pawn: 2}}\n")
    assert fx.weights == {"pawn": 1, "mobility": 0.1}
    assert fx.features["B1"] == {"pawn": 2, "mobility": -5}


def test_yaml_number_forms_are_read_as_yaml_reads_them():
    fx = parse_fixture("tree: [012, 0x1F, 1_000, +5, -0, -2.5, 0, 1.0e+3]")
    assert list(fx.tree.utilities.values()) == [10, 31, 1000, 5, 0, -2.5, 0, 1000.0]


def test_the_id_defaults_to_the_file_name(write):
    assert load_fixture(write("tree: [1]", "my-tree.yaml")).id == "my-tree"


BAD = [
    # (text, line, the words the message must contain)
    ("", 1, "empty"),
    ("- 1\n- 2\n", 1, "mapping of keys"),
    ("tree: [1, 2\n", 2, "not valid YAML"),
    ("tree: [1]\n---\ntree: [2]\n", 2, "one YAML document"),
    ("tree: [1]\nroots: max\n", 2, "unknown key 'roots'"),
    ("id: x\n", 1, "no 'tree:'"),
    ("root: maxi\ntree: [1]\n", 1, "must be max or min"),
    ("tree:\n  A:\n    B: 1\n    B: 2\n", 4, "'B' appears twice"),
    ("tree:\n  A:\n    B: {X: 1}\n    C: {X: 2}\n", 4, "'X' is used twice (first on line 3)"),
    ("tree:\n  A:\n    1: 3\n    B: 2\n", 3, 'quote it: "1"'),
    ("tree:\n  A:\n    yes: 3\n", 3, "reads as true or false in YAML"),
    ("tree:\n  A:\n    null: 3\n", 3, "reads as nothing (null) in YAML"),
    ("tree:\n  A:\n    B: three\n", 3, "must be a number (a leaf)"),
    ("tree:\n  A:\n    B: true\n", 3, "must be a number (a leaf)"),
    ("tree:\n  A:\n    B: .nan\n", 3, "finite number"),
    ("tree:\n  A:\n    B: {}\n", 3, "'B' has no children"),
    ("tree: []\n", 1, "'A' has no children"),
    ("tree: {A: 1, B: 2}\n", 1, "exactly one root"),
    ("tree:\n  A:\n    B: &x {C: 1}\n    D: *x\n", 4, "aliases (*x) are not allowed"),
    ("tree: [1, 2]\nexpected:\n  minimax: {value: 1, action: Z}\n", 3, "'Z' is not a child of the root"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    visited: [A, Q]\n", 4, "'Q' is not a node of this tree"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    nodes: -1\n", 4, "whole number"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    nodes: 2.5\n", 4, "whole number"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    value: x\n", 4, "expected a number"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    visits: [A]\n", 4, "unknown expected field 'visits'"),
    ("tree: [1, 2]\nexpected:\n  negamax: {}\n", 3, "unknown algorithm 'negamax'"),
    ("tree: [1, 2]\nexpected:\n  minimax: 3\n", 3, "'expected.minimax:' must be a mapping"),
    ("tree: [1, 2]\nexpected: [1]\n", 2, "'expected:' must be a mapping"),
    ("tree: [1, 2]\nnotes: {Q: hi}\n", 2, "'Q' is not a node"),
    ("tree: [1, 2]\nnotes: [1]\n", 2, "'notes:' must be a mapping"),
    ("tree: [1, 2]\nheuristics: [1]\n", 2, "'heuristics:' must be a mapping"),
    ("tree: [1, 2]\ntitle: {fr: x}\n", 2, "'en:' and 'ko:'"),
    ("tree: [1, 2]\ntitle: [x]\n", 2, "expected text"),
    ("tree: [1, 2]\nid: 3\n", 2, "expected text"),
    ("tree: [1, 2]\nprune_on_equality: maybe\n", 2, "true or false"),
    ("tree: [1, 2]\ntags: x\n", 2, "expected a list"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    pruned: B\n", 4, "expected a list"),
    ("tree: [1, !!binary aGk=]\n", 1, "must be a number (a leaf)"),
    ("tree: [1, 2]\nexpected:\n  alphabeta:\n    visited: [!!timestamp 2001-12-14]\n", 4, "YAML tag"),
    ("tree:\n  A:\n    ? [B]\n    : 1\n", 3, "plain name"),
    ("tree:\n  A:\n    '': 1\n", 3, "not a usable node name"),
    ("tree: 'x'\n", 1, "must be a number (a leaf)"),
    ("tree: [1, 1e3]\n", 1, "reads '1e3' as text"),
    ("tree: [1]\nexpected:\n  alphabeta:\n    windows: {B: [1, 2]}\n", 4, "[alpha, beta, value]"),
    ("tree: [1]\nexpected:\n  alphabeta:\n    windows: {B: [3, 2, 1]}\n", 4, "alpha <= beta"),
    ("tree: [1]\nexpected:\n  alphabeta:\n    windows: {B: [1, 2, .inf]}\n", 4, "finite number"),
    ("tree: [1]\nexpected:\n  alphabeta:\n    windows: [1]\n", 4, "'windows:' must be a mapping"),
    ("tree: [1]\nexpected:\n  minimax: {value: 2e1}\n", 3, "reads '2e1' as text"),
    ("tree: [1, 2]\nweights: {pawn: 1}\n", 2, "go together"),
    ("tree: [1, 2]\nweights: [1]\nfeatures: {B: {pawn: 1}}\n", 2, "'weights:' must be a mapping"),
    ("tree: [1, 2]\nweights: {pawn: 1}\nfeatures: {B: {rook: 1}}\n", 3, "'rook' has no weight"),
    ("tree: [1, 2]\nweights: {pawn: 1}\nfeatures: {Q: {pawn: 1}}\n", 3, "'Q' is not a node"),
    ("tree: [1, 2]\nweights: {pawn: 3}\nfeatures: {B: {pawn: 1}}\n", 3, "give 3 (the sum of weight"),
    ("tree: [[1, 2]]\nweights: {pawn: 3}\nfeatures: {B: {pawn: 1}}\n", 3, "gives 'B' no value"),
    ("game: tictactoe\nposition: '.........'\nweights: {pawn: 3}\nfeatures: {}\n", 3, "belongs to a tree"),
]


@pytest.mark.parametrize("text,line,words", BAD, ids=[w for _, _, w in BAD])
def test_malformed_fixture_names_path_line_and_problem(write, text, line, words):
    path = write(text)
    with pytest.raises(FixtureError) as caught:
        load_fixture(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert words in str(caught.value)
    assert caught.value.render("ko") != caught.value.render("en")


def test_deep_nesting_is_refused_not_a_crash(write):
    # The C composer overflows the C stack on input like this; the loader must refuse it.
    path = write("tree: " + "[" * 100_000 + "1" + "]" * 100_000)
    with pytest.raises(FixtureError, match="nested more than 500 levels"):
        load_fixture(path)


def test_huge_file_not_utf8_and_missing_file(write, tmp_path, monkeypatch):
    monkeypatch.setattr(fixture_module, "MAX_BYTES", 10)
    with pytest.raises(FixtureError, match="limited to 10 bytes"):
        load_fixture(write("tree: [1, 2, 3]"))
    monkeypatch.undo()
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"title: caf\xe9\ntree: [1]\n")
    with pytest.raises(FixtureError, match="not UTF-8") as caught:
        load_fixture(bad)
    assert caught.value.line == 1
    with pytest.raises(FixtureError, match="cannot read"):
        load_fixture(tmp_path / "nope.yaml")


def test_many_leaves_load(write):
    text = "tree: " + str([[[i, -i] for i in range(50)] for _ in range(50)])
    fx = load_fixture(write(text))
    assert len(fx.tree.utilities) == 5000 and len(fx.tree) == 1 + 50 + 2500 + 5000


@pytest.mark.parametrize("text,line,words", BAD[2:12], ids=[w for _, _, w in BAD[2:12]])
def test_pure_python_yaml_parser_gives_the_same_answers(monkeypatch, write, text, line, words):
    # Where PyYAML has no libyaml (some platforms), the pure-Python parser is used.
    import yaml

    from abkit import yamlsafe
    monkeypatch.setattr(yamlsafe, "LOADER", yaml.SafeLoader)
    with pytest.raises(FixtureError) as caught:
        load_fixture(write(text))
    assert (caught.value.line, words in str(caught.value)) == (line, True)
    assert parse_fixture(AIMA).tree.utilities["B2"] == 12


@pytest.mark.slow
def test_a_tree_too_big_for_a_graded_search_is_refused_at_its_tree(write):
    """A graded search reports at most MAX_TREE_NODES states (the grader's own record limit): a bigger tree would
    fail every correct student, so the fixture is refused where its tree begins."""
    from abkit.wire import MAX_RECORD

    from abkit.fixtureformat import MAX_TREE_NODES

    assert MAX_TREE_NODES == MAX_RECORD
    leaves = ", ".join(["[" + ", ".join(["1"] * 5) + "]"] * 10)
    fine = "id: fine\nroot: max\ntree: [" + ", ".join([f"[{leaves}]"] * 4) + "]\n"  # 1 + 4 + 40 + 200 nodes
    assert len(load_fixture(write(fine, "fine.yaml")).tree) == 245
    too_big = "id: big\nroot: max\n\ntree: [" + ", ".join(["[" + ", ".join([f"[{leaves}]"] * 40) + "]"] * 25) + "]\n"
    with pytest.raises(FixtureError) as caught:
        load_fixture(write(too_big, "big.yaml"))
    said = caught.value.render("en")
    assert ":4: the tree has 61026 nodes; a graded search can report at most 50000" in said

