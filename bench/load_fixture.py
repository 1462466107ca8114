"""Benchmark: load a fixture of more than 100,000 nodes (target: well under 2 s).

Prints the loader's time beside a baseline measured in the same run: PyYAML's
own C loader reading the same text into plain Python objects (no line numbers,
no validation). Run: python bench/load_fixture.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

from abkit.fixture import load_fixture
from abkit.randomtree import random_tree
from abkit.tree import to_nested
from timing import timed  # bench/timing.py: run as python bench/<name>.py

BRANCHING, DEPTH, REPEAT = 10, 5, 5


def main() -> None:
    tree = random_tree(BRANCHING, DEPTH, -99, 99, seed=1)
    text = yaml.safe_dump({"id": "big", "root": "max", "tree": to_nested(tree)}, default_flow_style=True, width=120)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.yaml"
        path.write_text(text, encoding="utf-8")
        fixture = load_fixture(path)
        assert len(fixture.tree) == len(tree), "the loaded tree must be the written one"
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        base_min, base_med = timed(lambda: yaml.load(text, Loader=loader), REPEAT)
        ours_min, ours_med = timed(lambda: load_fixture(path), REPEAT)
    print(f"tree: {len(tree):,} nodes ({BRANCHING}^{DEPTH} leaves), {len(text):,} bytes of YAML; "
          f"C loader available: {loader.__name__ == 'CSafeLoader'}")
    print(f"baseline yaml.load ({loader.__name__}): best {base_min:.3f} s, median {base_med:.3f} s")
    print(f"abkit load_fixture (validated, line numbers): best {ours_min:.3f} s, median {ours_med:.3f} s "
          f"= {ours_med / base_med:.1f}x baseline")
    print(f"target < 2 s: {'met' if ours_med < 2 else 'MISSED'}")


if __name__ == "__main__":
    main()
