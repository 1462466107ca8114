"""The algorithm spec (``abkit/algorithms.py``) against what the course's files say, and the one place names live.

The spec's facts are held against sources written independently of it: the exercises' stubs (the entry function
and the signatures of MAX-VALUE / MIN-VALUE each defines), the reference solutions, ``exercises/info.yaml``, the
students' page and the outside contract. Then every module of the kit is read with ``ast``: a string constant that
is an algorithm's or an exercise's name outside the spec is a second table in the making, unless the allow-list
below says why it is a word of another vocabulary.
"""

from __future__ import annotations

import ast
import json
import pickle
from pathlib import Path

import pytest
import yaml

from abkit.algorithms import Algorithm
from abkit.i18n import LANGS, catalogue
from abkit.kitcode import PARTS
from abkit.loading import EXERCISES, KIT_ROOT, SOLUTIONS

SPEC = Path("abkit/algorithms.py")

#: (module, scope) -> the algorithm-like words it may spell, and why they are not the algorithms themselves
ALLOWED = {
    # Korean particles: how each word of the kit is read aloud (오더링, 컷오프); a table of pronunciations
    ("abkit/korean.py", "<module>"): {"minimax", "alphabeta", "expectimax", "ordering", "cutoff"},
    # `abkit lab ordering`: the name of the move-ordering experiment, a command-line word
    ("cli/instructor/lab.py", "register"): {"ordering"},
    # `redraw-hidden --ordering best|worst|random`: how a random tree's children are ordered
    ("authoring/redraw.py", "_generated"): {"ordering"},
    # handouts/outline.yaml's figure modes and paper-exercise kinds (alphabeta, minimax, expectimax, horizon,
    # board, template): how a figure or a paper tree is drawn, a vocabulary of the outline that shares words with
    # the searches (the searches they draw are asked of the spec)
    ("handouts/content.py", "<module>"): {"minimax"},
    ("handouts/content.py", "_Exercises.answer"): {"alphabeta"},
    ("handouts/content.py", "_Exercises.alphabeta_answer"): {"alphabeta"},
    ("handouts/content.py", "_Exercises.reordered"): {"alphabeta"},
    ("handouts/content.py", "paper_inputs"): {"minimax", "expectimax"},
    ("handouts/content.py", "exercise_facts"): {"minimax", "alphabeta", "expectimax"},
    ("handouts/exercises.py", "<module>"): {"alphabeta", "minimax", "expectimax"},
    ("handouts/exercises.py", "spec"): {"alphabeta"},
    ("handouts/exercises.py", "pattern"): {"minimax"},
    ("handouts/papertree.py", "<module>"): {"alphabeta", "minimax", "expectimax"},
    ("handouts/papertree.py", "_parts"): {"alphabeta", "minimax", "expectimax"},
}


def _stub_functions(path: Path) -> dict[str, list[str]]:
    """Top-level function -> its parameters, as the file defines them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: [a.arg for a in node.args.args] for node in tree.body if isinstance(node, ast.FunctionDef)}


# -- the spec as names ---------------------------------------------------------------------------------------------

def test_a_member_is_the_name_files_use():
    """Read from a file, compared, hashed, formatted, dumped: a member behaves as its plain name everywhere."""
    for algorithm in Algorithm:
        name = algorithm.value
        assert type(name) is str and Algorithm(name) is algorithm and Algorithm.named(name) is algorithm
        assert algorithm == name and {name: 1}[algorithm] == 1 and {algorithm: 1}[name] == 1
        assert f"{algorithm}" == str(algorithm) == "%s" % algorithm == name
        assert json.dumps({algorithm: [algorithm]}) == json.dumps({name: [name]})
        assert pickle.loads(pickle.dumps(algorithm)) is algorithm
        assert Algorithm.of_exercise(algorithm.exercise) is algorithm
    assert Algorithm.names() == ("minimax", "alphabeta", "cutoff", "expectimax", "ordering")
    assert Algorithm.named("negamax") is None and Algorithm.named(["alphabeta"]) is None
    with pytest.raises(KeyError):
        Algorithm.of_exercise("cutoff")  # the algorithm's name, not its exercise's


# -- the spec against the course's files ---------------------------------------------------------------------------

@pytest.mark.parametrize("algorithm", list(Algorithm), ids=str)
def test_the_stub_defines_the_entry_and_the_value_functions_the_spec_says(algorithm):
    """The student's file defines the entry with the spec's parameters; its MAX-VALUE / MIN-VALUE take the window
    exactly when the search prunes, the depth and EVAL when it is depth-limited, the remembered moves last when it
    deepens iteratively; CHANCE-VALUE is there exactly for the search with chance nodes."""
    functions = _stub_functions(EXERCISES / f"{algorithm.exercise}.py")
    assert functions[algorithm.entry] == ["game", "state", *algorithm.params]
    window = ["alpha", "beta"] if algorithm.prunes else []
    for name in ("max_value", "min_value"):
        assert functions[name][:2] == ["game", "state"]
        assert functions[name][2:4 + len(algorithm.params)] == window + list(algorithm.params)
        assert len(functions[name]) == 2 + len(window) + len(algorithm.params) + algorithm.iterative
    assert ("chance_value" in functions) == algorithm.chance
    assert ("ordered_actions" in functions) == algorithm.iterative


@pytest.mark.parametrize("algorithm", list(Algorithm), ids=str)
def test_the_solution_exists_and_defines_the_entry(algorithm):
    assert algorithm.solution == f"{algorithm.exercise}.py"
    assert algorithm.entry in _stub_functions(SOLUTIONS / algorithm.solution)


def test_info_yaml_pairs_each_exercise_with_its_algorithm():
    """``exercises/info.yaml``, read as plain YAML: the same exercises, in the same order, each with the spec's
    algorithm and its entry among the functions."""
    entries = yaml.safe_load((EXERCISES / "info.yaml").read_text(encoding="utf-8"))["exercises"]
    assert [e["name"] for e in entries] == list(Algorithm.exercises())
    for entry in entries:
        algorithm = Algorithm.of_exercise(entry["name"])
        assert entry["algorithm"] == algorithm.value and algorithm.entry in entry["functions"]


def test_the_students_page_names_each_file_with_its_entry():
    """docs/students.md lists the exercises, each file with the function the student writes."""
    page = (KIT_ROOT / "docs" / "students.md").read_text(encoding="utf-8").splitlines()
    for algorithm in Algorithm:
        assert any(f"`{algorithm.solution}`" in line and f"`{algorithm.entry}" in line for line in page), algorithm


def test_the_contract_names_the_entries_the_spec_has():
    """The outside contract (§1, where a checkout has it beside the kit) names the file and entry of minimax and
    alpha-beta; they are the spec's."""
    found = next((p / "shared" / "docs" / "contract.md" for p in KIT_ROOT.parents
                  if (p / "shared" / "docs" / "contract.md").is_file()), None)
    if found is None:
        pytest.skip("the outside contract is not beside this checkout")
    text = found.read_text(encoding="utf-8")
    for algorithm in (Algorithm.MINIMAX, Algorithm.ALPHABETA):
        assert f"`exercises/{algorithm.exercise}.py`: `{algorithm.entry}(game, state)" in text


def test_each_algorithm_has_its_heading_in_every_language():
    """``abkit trace`` heads its drawing with ``trace.heading.<algorithm>``: a message per algorithm."""
    for lang in LANGS:
        assert all(f"trace.heading.{algorithm}" in catalogue(lang) for algorithm in Algorithm), lang


# -- no second table -----------------------------------------------------------------------------------------------

def literals(source: str) -> list[tuple[int, str, str]]:
    """``(line, scope, word)`` for each string constant of ``source`` that is an algorithm's or an exercise's name;
    docstrings are prose and left out. ``scope`` is the enclosing ``Class.function`` or ``<module>``."""
    words = set(Algorithm.names()) | set(Algorithm.exercises())
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []

    def visit(node: ast.AST, scope: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, (*scope, child.name))
            elif isinstance(child, ast.Constant) and child.value in words and id(child) not in docstrings:
                found.append((child.lineno, ".".join(scope) or "<module>", child.value))
            else:
                visit(child, scope)

    visit(tree, ())
    return sorted(found)


def kit_sources(root: Path = KIT_ROOT) -> list[Path]:
    """Every module of the kit's parts under ``root`` (the core and ``PARTS``), relative to it; the spec itself and
    a wheel's data left out."""
    return [path.relative_to(root) for folder in ("abkit", *PARTS)
            for path in sorted((root / folder).rglob("*.py"))
            if "default_course" not in path.parts and path.relative_to(root) != SPEC]


def spelled(root: Path = KIT_ROOT) -> tuple[list[str], dict]:
    """The names spelled in the kit's code under ``root`` that the allow-list does not explain
    (``path:line (scope): 'word'``), and the allowed words it holds no longer."""
    seen: dict[tuple[str, str], set[str]] = {}
    where = []
    for path in kit_sources(root):
        for line, scope, word in literals((root / path).read_text(encoding="utf-8")):
            seen.setdefault((path.as_posix(), scope), set()).add(word)
            if word not in ALLOWED.get((path.as_posix(), scope), set()):
                where.append(f"{path.as_posix()}:{line} ({scope}): {word!r}")
    stale = {key: words - seen.get(key, set()) for key, words in ALLOWED.items() if words - seen.get(key, set())}
    return where, stale


def test_the_scanner_finds_a_planted_name_and_leaves_prose_alone():
    source = ('"""A module on alphabeta."""\n'
              'KINDS = ("alphabeta", "horizon")\n'
              'class C:\n'
              '    def f(self, algorithm):\n'
              '        """ordering"""\n'
              '        return algorithm == "alphabeta_cutoff" or f"expected.{algorithm}" == "cutoff"\n')
    assert literals(source) == [(2, "<module>", "alphabeta"), (6, "C.f", "alphabeta_cutoff"), (6, "C.f", "cutoff")]
    assert literals('"minimax"\n') == []  # a module whose docstring is the word: prose too


def test_the_kit_check_fails_on_a_planted_name(tmp_path):
    """The check the kit passes, run on a copy of the kit's code with one literal planted in a module (and one
    allowed word taken out of another), reports both."""
    for path in kit_sources():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text((KIT_ROOT / path).read_text(encoding="utf-8"), encoding="utf-8")
    judge = tmp_path / "abkit" / "judge.py"
    planted = '\n\ndef planted(trace):\n    return trace.algorithm == "cutoff"\n'
    judge.write_text(judge.read_text(encoding="utf-8") + planted, encoding="utf-8")
    lab = tmp_path / "cli" / "instructor" / "lab.py"
    lab.write_text(lab.read_text(encoding="utf-8").replace('("ordering",)', "EXPERIMENTS"), encoding="utf-8")
    where, stale = spelled(tmp_path)
    assert [w.split(":")[0] for w in where] == ["abkit/judge.py"] and where[0].endswith("(planted): 'cutoff'")
    assert stale == {("cli/instructor/lab.py", "register"): {"ordering"}}


def test_no_algorithm_name_is_spelled_outside_the_spec():
    """A name spelled in the kit's code (not in data: YAML, messages, fixtures) is the spec's to give: an
    ``Algorithm`` member, or one of its facts. The allow-list holds the words of other vocabularies, and none
    it no longer needs."""
    where, stale = spelled()
    assert where == [], "algorithm names outside abkit/algorithms.py (use Algorithm):\n" + "\n".join(where)
    assert stale == {}, f"allowed words no longer spelled there, to remove from ALLOWED: {stale}"
