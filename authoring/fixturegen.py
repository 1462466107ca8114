"""``abkit fixtures generate``: seeded random trees written as fixtures with expectations (public or hidden);
``abkit fixtures expect``: the expectations a fixture lacks, written into it."""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

import yaml

from abkit.algorithms import Algorithm
from abkit.errors import UsageError
from abkit.fixture import FixtureError, fixture_paths, load_fixture
from abkit.game import MAX
from abkit.i18n import t
from abkit.randomtree import random_tree
from abkit.reference import reference_trace
from abkit.tree import Tree, TreeGame, to_nested

from abkit.authoring.record import add_line


def fixture_document(tree: Tree, fixture_id: str, title: dict[str, str], source: str,
                     prune_on_equality: bool = True) -> dict:
    """A fixture as a mapping, tree in compact form, expectations from the reference."""
    game = TreeGame(tree)
    expected = {}
    for algorithm in (Algorithm.MINIMAX, Algorithm.ALPHABETA):
        trace = reference_trace(game, tree.root, algorithm, prune_on_equality)
        summary = trace.summary(tree)
        keep = tuple(summary) if algorithm.prunes else ("value", "action", "nodes")
        expected[algorithm.value] = {k: summary[k] for k in keep}  # the plain name: YAML writes it
    expected[Algorithm.ALPHABETA.value]["windows"] = trace.windows()
    return {
        "id": fixture_id,
        "title": title,
        "source": source,
        "root": "max" if tree.root_player == MAX else "min",
        "prune_on_equality": prune_on_equality,
        "tree": to_nested(tree),
        "expected": expected,
    }


def dump(document: dict) -> str:
    """YAML text of a fixture document, keys in the documented order, short lists inline."""
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


def generate(out: Path, branching: int, depth: int, low: int, high: int, ordering: str, rule: str,
             root: str, distinct: bool, seed: int, count: int, prefix: str | None = None,
             hidden: bool = False) -> list[Path]:
    """Write ``count`` fixtures into ``out``; return their paths.

    Public trees: seeds ``seed``, ``seed + 1``, ..., ids ``<prefix>-s<seed>``, titles naming the seed, and a
    ``source:`` that is the command writing the tree again. Hidden trees (``hidden``): each tree's seed drawn from
    ``seed`` and its place (:func:`hidden_seed`: the public generator given ``seed`` draws other trees), ids
    ``<prefix>-<n>`` with the first numbers no fixture of ``out`` takes, titles and ``source:`` naming no seed; the
    seed and the command are recorded in ``out``'s README.md (:mod:`abkit.authoring.record`), which stays with the
    instructor.
    """
    out.mkdir(parents=True, exist_ok=True)
    options = (f"--branching {branching} --depth {depth} --min {low} --max {high} --ordering {ordering}"
               f" --rule {rule} --root {root}{' --distinct' if distinct else ''}")
    stem = prefix or f"random-b{branching}-d{depth}-{ordering}"
    ids = free_ids(out, stem, count) if hidden else [f"{stem}-s{seed + k}" for k in range(count)]
    written = []
    for k, fixture_id in enumerate(ids):
        s = hidden_seed(seed, k) if hidden else seed + k
        tree = random_tree(branching, depth, low, high, ordering, root.upper(), distinct, s)
        title = hidden_title(branching, depth, ordering, fixture_id) if hidden else \
            {lang: t("generate.title", lang, b=branching, d=depth, ordering=t(f"ordering.{ordering}", lang), seed=s)
             for lang in ("en", "ko")}
        source = f"abkit fixtures generate {options} " + ("--hidden" if hidden else f"--seed {s}")
        path = out / f"{fixture_id}.yaml"
        path.write_text(dump(fixture_document(tree, fixture_id, title, source, rule == "aima")), encoding="utf-8")
        written.append(path)
    if hidden:
        command = (f"abkit fixtures generate {options} --seed {seed} --count {count}"
                   f"{f' --id {prefix}' if prefix else ''} --hidden")
        add_line(out, seed, command, [p.name for p in written])
    return written


def hidden_title(branching: int, depth: int, ordering: str, fixture_id: str) -> dict[str, str]:
    """The title of a hidden random tree: its shape and ordering, and the number its id ends in (``-2``), which tells
    apart trees of one shape; never a seed."""
    number = re.search(r"-(\d+)\Z", fixture_id)
    key = "redraw.title_numbered" if number else "redraw.title"
    return {lang: t(key, lang, b=branching, d=depth, ordering=t(f"ordering.{ordering}", lang),
                    number=number.group(1) if number else "") for lang in ("en", "ko")}


def hidden_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th hidden tree (from 0) a ``generate --hidden --seed seed`` writes: the same command
    draws the same trees, and no seed the public generator is given draws them as they are named.

    >>> hidden_seed(9001, 0) == hidden_seed(9001, 0) not in (hidden_seed(9001, 1), 9001)
    True
    """
    return int(hashlib.sha256(f"hidden/{seed}/{k}".encode()).hexdigest()[:12], 16)


def free_ids(out: Path, stem: str, count: int) -> list[str]:
    """``count`` ids ``<stem>-1``, ``<stem>-2``, ... that no file name or fixture id in ``out`` takes yet."""
    taken = {p.stem for p in out.glob("*.yaml")}
    for path in fixture_paths([out]):
        try:
            taken.add(load_fixture(path).id)
        except FixtureError:
            continue  # a broken file keeps its name, taken above; verify says what is wrong with it
    ids: list[str] = []
    n = 0
    while len(ids) < count:
        n += 1
        if f"{stem}-{n}" not in taken:
            ids.append(f"{stem}-{n}")
    return ids


_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")


def yaml_scalar(value) -> str:
    """A name or number as YAML text: ``B1.1``, ``"odd name"``, ``3``, ``2.5``, ``-.inf``."""
    if isinstance(value, str):
        return value if _PLAIN_NAME.match(value) and value.lower() not in _YAML_WORDS else json.dumps(value)
    if isinstance(value, float) and math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def add_windows(path: Path) -> bool:
    """Write the reference's per-node windows into ``path``'s ``expected.alphabeta`` (or ``cutoff``) block.

    Returns False when the block already has them. The block must be the last
    thing in the file, in block style (the lines are appended to it); the file is
    reloaded to prove it, and left unchanged with :class:`UsageError` otherwise.
    """
    fixture = load_fixture(path)
    algorithm = next((a for a in (Algorithm.ALPHABETA, Algorithm.CUTOFF) if a in fixture.expected), None)
    block = fixture.expected.get(algorithm)
    if block is None or "windows" in block or fixture.tree is None:
        return False
    game = fixture.game()
    trace = reference_trace(game, fixture.root, algorithm, fixture.prune_on_equality,
                            **fixture.search_params(algorithm, game))
    windows = trace.windows()
    original = path.read_text(encoding="utf-8")
    field_lines = [v for k, v in fixture.lines.items() if k.startswith(f"expected.{algorithm}.")]
    first = original.splitlines()[min(field_lines) - 1] if field_lines else ""
    indent = first[: len(first) - len(first.lstrip())]
    added = [f"{indent}windows:  # node: [alpha, beta, value] as MAX-VALUE/MIN-VALUE were entered and returned"]
    added += [f"{indent}  {yaml_scalar(n)}: [{', '.join(yaml_scalar(x) for x in w)}]" for n, w in windows.items()]
    path.write_text(original.rstrip("\n") + "\n" + "\n".join(added) + "\n", encoding="utf-8")
    try:
        reloaded = load_fixture(path)
        ok = reloaded.expected.get(algorithm, {}).get("windows") == windows \
            and {k: v for k, v in reloaded.expected[algorithm].items() if k != "windows"} == block
    except FixtureError:
        ok = False
    if not ok:
        path.write_text(original, encoding="utf-8")
        raise UsageError("fixtures.expect.layout", path=path)
    return True
