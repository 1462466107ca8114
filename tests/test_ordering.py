"""The move-ordering lab against the textbook's curves, and the ordering reference."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from abkit.fixture import load_fixture
from abkit.loading import PUBLIC_FIXTURES
from abkit.handouts.ordering_lab import knuth_moore, leaves, measure, plot_svg, table
from abkit.reference import reference, reference_trace


@pytest.mark.parametrize("b,d", [(2, 1), (2, 5), (3, 3), (3, 6), (4, 4)])
def test_best_and_worst_ordering_are_exact(b, d):
    assert leaves(b, d, "best", 0) == knuth_moore(b, d)
    assert leaves(b, d, "worst", 0) == b ** d


def test_random_ordering_follows_pearls_trend():
    # Pearl (1982): about b^(3d/4) leaves with random ordering, an asymptotic trend, not a count.
    rows = measure(3, range(2, 7), seeds=30)
    for r in rows:
        km, pearl, full = r.formulas
        assert km <= r.random_low <= r.random_mean <= r.random_high <= full
        assert 0.8 <= r.random_mean / pearl <= 2.5
    growth = (rows[-1].random_mean / rows[0].random_mean) ** (1 / 4)   # per ply, depths 2 -> 6
    assert abs(growth - 3 ** 0.75) / 3 ** 0.75 < 0.2


def test_the_plot_has_three_curves_and_every_point():
    rows = measure(2, range(1, 5), seeds=5)
    svg = ET.fromstring(plot_svg(rows, "ko"))
    ns = "{http://www.w3.org/2000/svg}"
    lines = svg.findall(f"{ns}polyline")
    assert len(lines) == 3 and len({line.get("stroke-dasharray") for line in lines}) == 3  # apart in grey print
    for shape in ("circle", "rect", "polygon"):  # one marker per series: its measurements and its label
        assert len([e for e in svg.iter(f"{ns}{shape}") if e.get("fill") != "white" or shape == "rect"]) \
            == len(rows) + 1 + (shape == "rect")  # (the background is a rect too)
    names = [e.text for e in svg.iter(f"{ns}text") if e.text in ("최선 순서", "무작위 순서", "최악 순서")]
    ends = sorted(lines, key=lambda line: float(line.get("points").split()[-1].split(",")[1]))
    colours = {"최선 순서": "#08306b", "무작위 순서": "#238b45", "최악 순서": "#e6550d"}
    labels = sorted(names, key=lambda n: next(float(e.get("y")) for e in svg.iter(f"{ns}text") if e.text == n))
    assert [colours[n] for n in labels] == [line.get("stroke") for line in ends]  # named in the lines' order
    assert "최선 순서" in ET.tostring(svg, encoding="unicode")
    assert table(rows)[1].split()[:4] == ["2", "1", "2", "2"]


def test_ordering_by_eval_and_iterative_deepening_on_the_lab_fixture():
    fixture = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    game = fixture.game()
    module = reference("ordering")
    assert module.ordered_actions(game, "A", game.evaluate) == ["D", "C", "B"]
    deepening = reference_trace(game, "A", "ordering", depth=2, eval_fn=game.evaluate)
    plain = reference_trace(game, "A", "cutoff", depth=2, eval_fn=game.evaluate)
    assert (deepening.action, deepening.value) == (plain.action, plain.value) == ("D", 6)
    last_iteration = deepening.evaluated[len(game.actions("A")):]
    assert len(last_iteration) < len(plain.evaluated)    # 5 leaves instead of 8


def test_iterative_deepening_returns_the_first_action_when_every_move_loses():
    from abkit.tree import TreeGame, from_nested
    game = TreeGame(from_nested([-float("inf"), -float("inf")]))
    assert reference("ordering").iterative_deepening_search(game, "A", 2, game.evaluate) == "B"
    assert reference("ordering").iterative_deepening_search(TreeGame(from_nested(5)), "A", 2, None) is None


def test_lab_command(abkit, tmp_path):
    run = abkit("lab", "ordering", "-b", "2", "--max-depth", "3", "--seeds", "3", "--out", tmp_path / "o.svg", "--lang", "en")
    assert run.status == 0 and (tmp_path / "o.svg").read_text().startswith("<svg") and "best" in run.out
    assert abkit("lab", "ordering", "-b", "9").status == 2


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(tmp_path, abkit):
    assert abkit("fixtures", "generate", "-b", "4", "-d", "6", "--out", tmp_path).status == 0
    big = next(tmp_path.glob("*.yaml"))
    proc = subprocess.Popen([sys.executable, "-m", "abkit.cli", "trace", str(big), "--algorithm", "minimax"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()


def test_trace_draws_every_iteration_of_iterative_deepening(abkit):
    run = abkit("trace", PUBLIC_FIXTURES / "ordering-deepening.yaml", "--algorithm", "ordering", "--lang", "en")
    assert "· iterative deepening (alpha-beta, the previous best move first)" in run.out.splitlines()[0]
    assert [line.split()[-1] for line in run.out.splitlines() if line.startswith("— iteration")] == ["—", "—"]
    assert sum(1 for line in run.out.splitlines() if line.startswith("#1  A  MAX")) == 2
    assert "B  MIN  [α=6, β=+∞]  → 2   ✂ cut: 2 ≤ α=6" in run.out
