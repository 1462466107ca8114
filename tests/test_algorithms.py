"""The algorithm spec (``abkit/algorithms.py``) against what the course's files say.

The spec's facts are held against sources written independently of it: the exercises' stubs (the entry function
and the signatures of MAX-VALUE / MIN-VALUE each defines), the reference solutions, ``exercises/info.yaml``, the
students' page and the outside contract.
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
from abkit.loading import EXERCISES, KIT_ROOT, SOLUTIONS

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
