"""``abkit fixtures generate``: seeded random trees written as fixtures with expectations."""

from __future__ import annotations

from pathlib import Path

import yaml

from abkit.game import MAX
from abkit.i18n import t
from abkit.randomtree import random_tree
from abkit.tree import Tree, TreeGame, to_nested

from .reference import reference_trace


def fixture_document(tree: Tree, fixture_id: str, title: dict[str, str], source: str,
                     prune_on_equality: bool = True) -> dict:
    """A fixture as a mapping, tree in compact form, expectations from the reference."""
    game = TreeGame(tree)
    expected = {}
    for algorithm in ("minimax", "alphabeta"):
        summary = reference_trace(game, tree.root, algorithm, prune_on_equality).summary(tree)
        keep = ("value", "action", "nodes") if algorithm == "minimax" else tuple(summary)
        expected[algorithm] = {k: summary[k] for k in keep}
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
             root: str, distinct: bool, seed: int, count: int, prefix: str | None = None) -> list[Path]:
    """Write ``count`` fixtures (seeds ``seed``, ``seed + 1``, ...) into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for k in range(count):
        s = seed + k
        tree = random_tree(branching, depth, low, high, ordering, root.upper(), distinct, s)
        fixture_id = f"{prefix or f'random-b{branching}-d{depth}-{ordering}'}-s{s}"
        title = {lang: t("generate.title", lang, b=branching, d=depth, ordering=t(f"ordering.{ordering}", lang), seed=s)
                 for lang in ("en", "ko")}
        source = (f"abkit fixtures generate --branching {branching} --depth {depth} --min {low} --max {high}"
                  f" --ordering {ordering} --rule {rule} --root {root}{' --distinct' if distinct else ''} --seed {s}")
        document = fixture_document(tree, fixture_id, title, source, rule == "aima")
        path = out / f"{fixture_id}.yaml"
        path.write_text(dump(document), encoding="utf-8")
        written.append(path)
    return written
