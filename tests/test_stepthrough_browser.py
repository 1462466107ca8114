"""The step-through pages driven in a real browser: Debian's chromium through chromium-driver and selenium
(nothing downloaded; `.ci/run` installs both). Each test skips, saying why, only when no browser is installed.

Every step of five searches is taken with the arrow key and the page is read back: the highlighted node, the
window and the value shown must be the trace's (computed here from the trace's calls, not from the page's data).
A student's search with a known mistake must show its first difference at the step compare() names, and a
practice page must give the right verdicts. Screenshots (both languages, 360 px wide, printed) go to
$ABKIT_SCREENSHOTS when set (else a temporary folder), and the per-step time on a 1,111-node tree is printed.
"""

from __future__ import annotations

import base64
import math
import os
import shutil
import statistics
import tempfile
from pathlib import Path

import pytest

from abkit.expected import expected_trace
from abkit.fixture import load_fixture
from abkit.game import CHANCE, MAX, MIN
from abkit.loading import KIT_ROOT
from abkit.randomtree import random_tree
from abkit.trace import traced_search
from abkit.tree import TreeGame
from abkit.compare import compare
from abkit.feedback import TestResult
from abkit.grader.mistakes import mutant
from abkit.reference import reference_trace
from abkit.stepthrough.page import student_page, trace_page
from abkit.handouts.practice import practice_page, practice_tree, search
from abkit.stepthrough.steps import steps_of
from abkit.textree import fmt

pytestmark = pytest.mark.slow  # every test here drives a browser

PUBLIC = KIT_ROOT / "fixtures" / "public"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
#: the five searches stepped through: (fixture, algorithm)
SEARCHES = [("aima-fig-5-2", "alphabeta"), ("gfg-alpha-beta", "alphabeta"), ("min-root", "alphabeta"),
            ("cutoff-horizon", "cutoff"), ("expectimax-dice", "expectimax")]


@pytest.fixture(scope="module")
def browser():
    """A headless chromium, fresh profile, no network services; the test skips when there is none."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed: pip install -e '.[test]'")
    if not (Path(CHROMIUM).is_file() and Path(DRIVER).is_file()):
        pytest.skip("no browser: install Debian's chromium and chromium-driver (.ci/run does)")
    profile = tempfile.mkdtemp(prefix="abkit-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ["ABKIT_SCREENSHOTS"]) if os.environ.get("ABKIT_SCREENSHOTS") else \
        tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(driver, path: Path, width: int = 1200, height: int = 900) -> None:
    """Open ``path`` in a viewport of ``width`` × ``height`` CSS pixels (a window cannot be narrower than 500 px:
    below that, the screen of a phone is emulated)."""
    size(driver, width, height)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen"})
    driver.get(path.as_uri())
    assert driver.execute_script("return !!(window.abkSteppers && window.abkSteppers.length)")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors


def size(driver, width: int, height: int) -> None:
    driver.set_window_size(max(width, 500), height)
    if width < 500:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert driver.execute_script("return window.innerWidth") == width


STATE = """
const pane = document.querySelectorAll('.abk')[arguments[0]].querySelector('.abk-pane[data-pane="' + arguments[1] + '"]');
const field = f => pane.querySelector('[data-field="' + f + '"]').textContent;
const cur = pane.querySelectorAll('g.node.abk-cur');
return {cur: Array.from(cur).map(g => g.getAttribute('data-node')), window: field('window'), value: field('value'),
        visit: field('visit'), step: field('step'), say: field('say'), cut: field('cut'),
        drawing: Array.from(pane.querySelectorAll('g.node')).map(g => [g.getAttribute('data-node'), g.getAttribute('class'),
                 Array.from(g.querySelectorAll('text.v, text.wa, text.wb, text.o')).map(t => t.textContent).join('|')]),
        cuts: Array.from(pane.querySelectorAll('g.cut.slot.abk-x')).map(g => g.getAttribute('data-node')),
        grey: Array.from(pane.querySelectorAll('g.node.abk-pruned')).map(g => g.getAttribute('data-node'))};
"""


def state(driver, widget: int = 0, pane: int = 0) -> dict:
    return driver.execute_script(STATE, widget, pane)


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def expectations(trace, tree, steps):
    """What each step must show, worked out from the trace: (node, window, value, visit) per step."""
    running, out, last = {}, [], None
    for s in steps:
        call = trace.calls[s.call] if s.call is not None else None
        if call is None:  # start, iteration, done
            value = fmt(trace.value) if s.kind == "done" else "—"
            out.append((trace.root, "—", value, "#1" if s.kind == "done" else "—"))
            continue
        window = "—" if call.alpha is None else f"α = {fmt(call.alpha)}, β = {fmt(call.beta)}"
        visit = "#1" if call.synthetic else f"#{s.call + 1}"  # the j-th call below the root is visited[j]
        if s.kind == "enter":
            running[s.call] = {MAX: -math.inf, MIN: math.inf, CHANCE: 0}[call.player]
            value = fmt(running[s.call])
        elif s.kind == "back":
            child = trace.calls[max(k for k in trace.children_of(s.call) if k <= last)]
            v = running[s.call]
            v = v + tree.probabilities[child.node] * child.value if call.player == CHANCE else \
                (max if call.player == MAX else min)(v, child.value)
            running[s.call] = v
            value = fmt(v)
        else:  # leaf, eval, return, cut: what the call returned
            value = fmt(call.value)
        if s.kind in ("enter", "leaf", "eval"):
            last = s.call
        out.append((call.node, window, value, visit))
    return out


@pytest.mark.parametrize("name, algorithm", SEARCHES)
def test_every_step_shows_the_traces_node_window_and_value(browser, tmp_path, name, algorithm):
    fx = load_fixture(PUBLIC / f"{name}.yaml")
    game = fx.game()
    trace = reference_trace(game, fx.root, algorithm, fx.prune_on_equality, **fx.search_params(algorithm, game))
    steps = steps_of(trace, fx.tree, fx.prune_on_equality)
    page = tmp_path / "page.html"
    page.write_text(trace_page(fx.tree, trace, "en", fx.label("en"), algorithm, fx.prune_on_equality),
                    encoding="utf-8")
    open_page(browser, page)
    want = expectations(trace, fx.tree, steps)
    drawings = []
    for k, (node, window, value, visit) in enumerate(want):
        if k:
            press(browser, "\ue014")  # the right arrow key
        shown = state(browser)
        assert shown["step"] == f"{k + 1} / {len(steps)}"
        assert shown["cur"] == [node], (k, steps[k].kind)
        assert (shown["window"], shown["value"], shown["visit"]) == (window, value, visit), (k, steps[k].kind)
        drawings.append(shown["drawing"])
    last = state(browser)
    pruned = trace.pruned(fx.tree)
    assert sorted(last["cuts"]) == sorted(pruned)  # each cut-off edge crossed out, its subtree greyed
    assert sorted(last["grey"]) == sorted(n for p in pruned for n in fx.tree.preorder(p))
    press(browser, "\ue012")  # left: one step back draws what that step drew going forward
    assert state(browser)["drawing"] == drawings[-2]
    press(browser, "\ue011")  # Home
    assert state(browser)["drawing"] == drawings[0] and state(browser)["step"] == f"1 / {len(steps)}"
    press(browser, "\ue010")  # End
    assert state(browser)["drawing"] == drawings[-1]
    browser.execute_script("window.abkSteppers[0].go(arguments[0])", len(steps) // 2)
    assert state(browser)["drawing"] == drawings[len(steps) // 2]  # a jump replays the same drawing


def student_result(name: str, module, algorithm="alphabeta") -> TestResult:
    fx = load_fixture(PUBLIC / f"{name}.yaml")
    game = fx.game()
    student = traced_search(module, game, fx.root, algorithm, **fx.search_params(algorithm, game))
    expected = expected_trace(fx, algorithm)
    findings = compare(student, expected, fx.tree, fx.prune_on_equality)
    return TestResult(algorithm, f"{algorithm}/{name}", {"en": fx.label("en"), "ko": fx.label("ko")}, "failed",
                      findings, student, expected, fx.tree, fx.prune_on_equality)


def test_a_students_mistake_shows_at_the_step_where_it_happens(browser, tmp_path, shots):
    """No cut-off at all: after C1 the student's search generates C2 where the pseudocode cuts off and goes on to D."""
    result = student_result("aima-fig-5-2", mutant("cut_after_loop"))
    assert result.findings[0].kind == "missed_cut"
    page = tmp_path / "student.html"
    page.write_text(student_page(result, "en"), encoding="utf-8")
    open_page(browser, page)
    browser.find_element("css selector", "[data-go=diff]").click()
    mine, theirs = state(browser, 0, 0), state(browser, 0, 1)
    position = result.findings[0].time
    assert mine["cur"] == [result.student.visited[position]] == ["C2"] and mine["visit"] == f"#{position + 1}"
    assert theirs["cur"] == ["D"]  # the pseudocode's 8th state
    assert "C2" in theirs["cuts"] and "C2" not in mine["cuts"]
    banner = browser.find_element("css selector", ".abk-first")
    assert "abk-here" in banner.get_attribute("class")
    assert result.findings[0].message.render("en") in banner.text
    step = int(mine["step"].split(" / ")[0])
    assert browser.find_elements("css selector", ".abk-list li")[step - 1].get_attribute("class") == "abk-mark abk-on"
    browser.save_screenshot(str(shots / "student-en.png"))


def _helper(tmp_path):
    """A student's alpha-beta whose recursion goes through a helper: its windows are not recorded."""
    from test_stepthrough import HELPER

    from abkit.loading import load_module

    path = tmp_path / "alphabeta.py"
    path.write_text(HELPER, encoding="utf-8")
    return load_module(path)


def test_observed_only_student_pages_show_windows_nowhere(browser, tmp_path):
    result = student_result("gfg-alpha-beta", _helper(tmp_path))
    assert not result.student.windows_complete()
    page = tmp_path / "observed.html"
    page.write_text(student_page(result, "en"), encoding="utf-8")
    open_page(browser, page)
    n = browser.execute_script("return window.abkSteppers[0].n")
    for k in range(n):
        browser.execute_script("window.abkSteppers[0].go(arguments[0])", k)
        shown = state(browser, 0, 0)
        assert shown["window"] == "—" and shown["cut"] == "—"
        assert all(texts.split("|")[1:3] == ["", ""] for _, _, texts in shown["drawing"] if texts.count("|") == 3)
    browser.find_element("css selector", "[data-go=diff]").click()
    assert state(browser, 0, 0)["cur"] == [result.student.visited[result.findings[0].time]]


def test_a_practice_page_tells_right_from_wrong(browser, tmp_path, shots):
    tree = practice_tree(3, 3, 0, 20, 7)
    trace = search(tree, True)
    page = tmp_path / "practice.html"
    page.write_text(practice_page(tree, True, "en", 7, (3, 3, 0, 20)), encoding="utf-8")
    open_page(browser, page)
    pruned = [n for n in tree.leaves() if n not in trace.evaluated]
    evaluated = [n for n in tree.leaves() if n in trace.evaluated]

    def leaf(name):
        return browser.find_element("css selector", f'.abk-quiz g.node[data-node="{name}"]')

    def answer(marks, root, bounds=()):
        browser.find_element("css selector", "[data-act=clear]").click()
        for name in marks:
            leaf(name).click()
        browser.find_element("css selector", "input[data-answer=root]").send_keys(root)
        if bounds:
            browser.execute_script("document.querySelector('.abk-bounds').open = true")
        for node, side, text in bounds:
            browser.find_element("css selector", f'input[data-node="{node}"][data-bound="{side}"]').send_keys(text)
        browser.find_element("css selector", "[data-act=check]").click()
        box = browser.find_element("css selector", ".abk-verdict")
        return box.get_attribute("data-verdict"), [li.get_attribute("data-item") for li in
                                                   box.find_elements("css selector", "li")]

    assert browser.find_element("css selector", ".abk-practice-steps").is_displayed() is False
    right = answer(pruned, fmt(trace.value), [("A", "alpha", fmt(trace.value)), ("A", "beta", "inf")])
    assert right == ("right", [])
    assert browser.find_element("css selector", ".abk-practice-steps").is_displayed()  # the step-through on offer
    browser.save_screenshot(str(shots / "practice-right-en.png"))
    wrong = answer(pruned[1:] + evaluated[:1], "99", [("A", "beta", "3")])
    assert wrong[0] == "wrong"
    assert sorted(wrong[1]) == sorted([f"leaf:{pruned[0]}", f"leaf:{evaluated[0]}", "root", "bound:A:beta"])
    texts = browser.find_element("css selector", ".abk-verdict").text
    assert f"{evaluated[0]} is evaluated, but you marked it" in texts and "you wrote 99; it is " in texts
    size(browser, 360, 900)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 360
    browser.save_screenshot(str(shots / "practice-wrong-360.png"))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_screenshots_on_a_wide_screen_a_phone_and_paper(browser, tmp_path, shots, lang):
    """The page at 1200 px, at 360 px (a phone: nothing wider than the screen, the controls on it) and printed
    (the controls hidden, the tree within the page); the PNGs are there to be looked at."""
    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    trace = reference_trace(fx.game(), fx.root, "alphabeta")
    page = tmp_path / f"fig-{lang}.html"
    page.write_text(trace_page(fx.tree, trace, lang, fx.label(lang), "alphabeta"), encoding="utf-8")
    open_page(browser, page, 1200, 1100)
    browser.execute_script("window.abkSteppers[0].go(14)")  # C's cut-off
    assert state(browser)["cur"] == ["C"] and state(browser)["cut"].startswith("v = 2 ≤ α = 3")
    browser.save_screenshot(str(shots / f"fig-5-2-step15-{lang}.png"))
    open_page(browser, page, 360, 1400)
    browser.execute_script("window.abkSteppers[0].go(14)")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 360
    rects = browser.execute_script("""return Array.from(document.querySelectorAll('.abk-bar button, .abk-tree svg'))
        .map(e => e.getBoundingClientRect()).map(r => [r.left, r.right, r.width]);""")
    assert all(left >= 0 and right <= 360 and width > 0 for left, right, width in rects)
    if lang == "ko":
        assert browser.execute_script("return getComputedStyle(document.querySelector('.abk-say')).wordBreak") == \
            "keep-all"
    browser.save_screenshot(str(shots / f"fig-5-2-step15-360-{lang}.png"))
    open_page(browser, page, 800, 1400)
    browser.execute_script("window.abkSteppers[0].go(14)")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert browser.execute_script("return getComputedStyle(document.querySelector('.abk-bar')).display") == "none"
    svg_width = browser.execute_script("return document.querySelector('.abk-tree svg').getBoundingClientRect().width")
    assert 0 < svg_width <= 800
    browser.save_screenshot(str(shots / f"fig-5-2-step15-print-{lang}.png"))
    pdf = browser.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})
    (shots / f"fig-5-2-step15-{lang}.pdf").write_bytes(base64.b64decode(pdf["data"]))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen"})


def test_a_thousand_node_tree_steps_without_lag(browser, tmp_path, capsys):
    """1,111 nodes (branching 10, depth 3, worst ordering: alpha-beta cuts nothing): the time to open the page and
    to show each step, measured in the browser and printed (no bound is asserted: bench/ holds timing targets)."""
    tree = random_tree(10, 3, -1000, 1000, "worst", seed=1)
    trace = reference_trace(TreeGame(tree), tree.root, "alphabeta")
    assert len(tree) == 1111 and len(trace.visited) == 1111
    page = tmp_path / "big.html"
    page.write_text(trace_page(tree, trace, "en", "1,111 nodes", "alphabeta"), encoding="utf-8")
    open_page(browser, page, 1200, 900)
    opened = browser.execute_script(
        "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime;")
    n = browser.execute_script("return window.abkSteppers[0].n")
    each = browser.execute_script("""
        const s = window.abkSteppers[0], out = [];
        for (let k = 1; k < arguments[0]; k++) {
          const t0 = performance.now();
          s.go(k);
          document.querySelector('.abk-tree svg').getBoundingClientRect();   // layout included
          out.push(performance.now() - t0);
        }
        const t0 = performance.now(); s.go(s.n - 1); document.body.getBoundingClientRect();
        const end = performance.now() - t0;
        const t1 = performance.now(); s.go(0); document.body.getBoundingClientRect();
        return [out, end, performance.now() - t1];""", n)
    times, to_end, to_start = each
    framed = browser.execute_async_script("""
        const done = arguments[arguments.length - 1], s = window.abkSteppers[0], out = [];
        let k = 0;
        function next() {
          if (k === 60) { done(out); return; }
          const t0 = performance.now();
          s.go(s.k + 1);
          requestAnimationFrame(() => requestAnimationFrame(() => { out.push(performance.now() - t0); k++; next(); }));
        }
        next();""")
    assert state(browser)["step"] == f"61 / {n}"
    with capsys.disabled():
        print(f"\n1,111-node tree, {n} steps: page opened in {opened:.0f} ms; per step (script + layout) "
              f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms over {len(times)} steps; "
              f"jump to the end {to_end:.1f} ms, back to the start {to_start:.1f} ms; "
              f"to the second frame after a step: median {statistics.median(framed):.1f} ms, max {max(framed):.1f} ms")
