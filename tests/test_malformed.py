"""Fixtures the kit did not write: the malformed corpus (tests/malformed/) through the real CLI, and a fuzzed loader.

Every malformed file makes ``abkit fixtures verify FILE`` (a separate process, as an
instructor runs it) exit 2 with ``path:line: message`` on stderr and no traceback;
hypothesis then feeds the loader arbitrary text and YAML-shaped documents and checks
that the only exception it ever raises is :class:`FixtureError`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from abkit import fixture as fixture_module
from abkit.fixture import FixtureError, load_fixture, parse_fixture
from abkit.loading import KIT_ROOT

CORPUS = Path(__file__).with_name("malformed")
#: file -> (line, words the message must contain)
EXPECTED = {
    "alias-billion-laughs.yaml": (2, "aliases (*a) are not allowed"),
    "alias-cycle.yaml": (3, "aliases (*t) are not allowed"),
    "deep-nesting.yaml": (1, "nested more than 500 levels deep"),
    "duplicate-key.yaml": (4, "the key 'B' appears twice"),
    "duplicate-name.yaml": (4, "the node name 'X' is used twice"),
    "empty.yaml": (1, "the file is empty"),
    "leaf-bool.yaml": (3, "must be a number (a leaf)"),
    "leaf-not-finite.yaml": (3, "a value must be a finite number, found .nan"),
    "leaf-not-numeric.yaml": (3, "found 'seven'"),
    "leaf-number-as-text.yaml": (3, "YAML reads '1e3' as text"),
    "name-reads-as-number.yaml": (3, 'quote it: "1"'),
    "not-a-mapping.yaml": (1, "a fixture must be a mapping"),
    "not-utf8.yaml": (1, "not UTF-8"),
    "probabilities-not-number.yaml": (7, "found 'half'"),
    "probabilities-sum.yaml": (7, "add up to 1.1, not 1"),
    "python-tag.yaml": (1, "must be a number (a leaf)"),
    "python-tag-scalar.yaml": (3, "must be a number (a leaf)"),
    "syntax-bad-indent.yaml": (4, "not valid YAML"),
    "syntax-tab.yaml": (3, "not valid YAML"),
    "syntax-unclosed.yaml": (3, "not valid YAML"),
    "two-documents.yaml": (2, "one YAML document"),
    "unknown-key.yaml": (2, "unknown key 'prune_on_equalty'"),
    "wrong-type-expected.yaml": (4, "expected a whole number of nodes"),
    "wrong-type-root.yaml": (1, "'root:' must be max or min"),
    "wrong-type-title.yaml": (1, "expected text here"),
    "wrong-type-tree.yaml": (2, "found 'just some text'"),
}


def verify(path: Path) -> subprocess.CompletedProcess:
    """``abkit fixtures verify PATH --lang en`` in its own process."""
    return subprocess.run([sys.executable, "-m", "abkit.cli", "fixtures", "verify", str(path), "--lang", "en"],
                          cwd=KIT_ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(KIT_ROOT)})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every corpus file, plus a file too large to read, verified by the CLI (in parallel)."""
    large = tmp_path_factory.mktemp("large") / "too-large.yaml"
    with open(large, "wb") as handle:
        handle.write(b"tree: [1, 2]\n")
        handle.truncate(fixture_module.MAX_BYTES + 1)  # sparse: nothing of it is ever read
    paths = sorted(CORPUS.glob("*.yaml")) + [large]
    with ThreadPoolExecutor(4) as pool:
        return dict(zip(paths, pool.map(verify, paths)))


def test_the_corpus_is_what_the_table_lists():
    assert sorted(p.name for p in CORPUS.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_malformed_fixture_gives_path_line_message_and_exit_2(runs, name):
    path = CORPUS / name
    line, words = EXPECTED[name]
    run = runs[path]
    assert run.returncode == 2, run
    assert "Traceback" not in run.stderr + run.stdout
    assert run.stderr.startswith(f"{path}:{line}: ") and words in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_file_too_large_is_refused_before_it_is_read(runs):
    (path, run), = [(p, r) for p, r in runs.items() if p.name == "too-large.yaml"]
    assert run.returncode == 2 and run.stderr.startswith(f"{path}:1: ") and "Traceback" not in run.stderr


# -- fuzzing -------------------------------------------------------------------------

names = st.text("ABCxyz129 -_:.&*!%@'\"", min_size=0, max_size=6)
scalars = st.one_of(st.integers(-10**30, 10**30), st.floats(allow_nan=True), st.booleans(), st.none(), names)
documents = st.recursive(scalars, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                         st.dictionaries(names, kids, max_size=4)), max_leaves=25)
KEYS = ["id", "title", "root", "root_name", "levels", "prune_on_equality", "tree", "game", "position", "symmetry",
        "depth", "heuristics", "probabilities", "notes", "tags", "expected", "bogus"]
fixtures = st.dictionaries(st.sampled_from(KEYS), documents, max_size=6)


def _yaml(value, indent: int = 0) -> str:
    """A YAML rendering of ``value`` in block style, scalars as the fuzzer drew them (often malformed on purpose)."""
    pad = " " * indent
    if isinstance(value, dict):
        return "".join(f"{pad}{k}:\n{_yaml(v, indent + 2)}" if isinstance(v, (dict, list)) and v
                       else f"{pad}{k}: {_scalar(v)}\n" for k, v in value.items()) or f"{pad}{{}}\n"
    if isinstance(value, list):
        return "".join(f"{pad}-\n{_yaml(v, indent + 2)}" if isinstance(v, (dict, list)) and v
                       else f"{pad}- {_scalar(v)}\n" for v in value) or f"{pad}[]\n"
    return f"{pad}{_scalar(value)}\n"


def _scalar(value) -> str:
    return "[]" if value == [] else "{}" if value == {} else str(value)


def only_fixture_errors(text: str) -> None:
    try:
        parse_fixture(text, "fuzz.yaml")
    except FixtureError as error:
        assert error.line >= 0 and str(error).startswith("fuzz.yaml:")


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fixtures)
def test_the_loader_raises_only_fixture_errors_on_yaml_shaped_documents(document):
    only_fixture_errors(_yaml(document))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("tree:[]{},-&*!|>#'\"\n\t AB12.e+ ")), max_size=120))
def test_the_loader_raises_only_fixture_errors_on_arbitrary_text(text):
    only_fixture_errors("tree:\n" + text if text.startswith(" ") else text)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_the_loader_raises_only_fixture_errors_on_arbitrary_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes", numbered=True) / "f.yaml"
    path.write_bytes(data)
    try:
        load_fixture(path)
    except FixtureError:
        pass
