"""Feedback on one test, as a student reads it: in the terminal (``abkit check``) or in ``feedback.md``.

A :class:`TestResult` is what running one test produced; :func:`render_result`
turns it into words in the reader's language: the first place the search left
the pseudocode, the other differences, the student's own traceback lines, and
the tree the search explored with that path marked against the expected one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from abkit.compare import Finding
from abkit.game import error_line
from abkit.gametree import GameDrawing
from abkit.i18n import Message, t
from abkit.textree import UNICODE, Glyphs, fmt, render_tree
from abkit.trace import Trace
from abkit.tracebacks import student_traceback  # noqa: F401 - part of this module's interface
from abkit.tree import Tree

#: what happened to one test
STATUSES = ("passed", "failed", "not_started", "missing", "error", "timeout", "crashed")
MAX_FINDINGS = 4


@dataclass
class TestResult:
    """The outcome of one test of one exercise.

    exercise: the exercise's file stem (``alphabeta``); name: a stable test id;
    title: per language. status: one of ``STATUSES``; findings: from
    :func:`abkit.compare.compare`; student/expected/tree: what to draw
    (``None`` when there is nothing to draw); traceback: the student's own frames;
    detail: extra words for the status (the missing function, the time limit, ...); output: the first lines the
    student's code printed during the test (``abkit check``), printed: how many lines it printed in all.
    drawing: on a board position (no ``tree``), the two searches drawn as one tree when the test failed
    (:func:`abkit.gametree.draw_game`; the student's, then the pseudocode's), for a step-through page.
    """

    exercise: str
    name: str
    title: dict[str, str] = field(default_factory=dict)
    status: str = "passed"
    findings: list[Finding] = field(default_factory=list)
    student: Trace | None = None
    expected: Trace | None = None
    tree: Tree | None = None
    prune_on_equality: bool = True
    traceback: list[str] = field(default_factory=list)
    detail: dict = field(default_factory=dict)
    output: str = ""
    printed: int = 0
    drawing: GameDrawing | None = None

    __test__ = False  # a name pytest would otherwise try to collect

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def label(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or self.name


def finding_lines(findings: list, lang: str, most: int = MAX_FINDINGS) -> list[str]:
    """The first ``most`` findings as sentences ("First difference: …", "Also: …"), then how many more there are,
    if any."""
    lines = [t("feedback.first" if k == 0 else "feedback.also", lang, text=f.message.render(lang))
             for k, f in enumerate(findings[:most])]
    if len(findings) > most:
        lines.append(t("feedback.more", lang, count=len(findings) - most))
    return lines


def render_result(result: TestResult, lang: str = "en", markdown: bool = False, g: Glyphs = UNICODE,
                  show_tree: bool = True, most: int = MAX_FINDINGS) -> str:
    """One test's feedback as text (``markdown=False``) or Markdown; at most ``most`` of its findings in words."""
    mark = {"passed": g.ok}.get(result.status, g.bad)
    title = f"{result.label(lang)} ({result.name})"
    head = f"### {mark} {title}" if markdown else f"{mark} {title}"
    lines = [head]
    if result.passed:
        if result.printed:
            lines.append(("" if markdown else "    ") + t("feedback.printed_passed", lang, count=result.printed))
        return "\n".join(lines)
    indent = "" if markdown else "    "
    status = _status_text(result, lang)
    if status:
        lines.append(f"{indent}{status}")
    said = finding_lines(result.findings, lang, most)
    more = said.pop() if len(result.findings) > most else None
    lines += [f"{indent}- {text}" if markdown else f"{indent}{text}" for text in said]
    if more:
        lines.append(f"{indent}{more}")
    if result.student is not None and result.expected is not None and result.student.error is None:
        lines.append(f"{indent}{_values_line(result, lang, g)}")
    if result.traceback:
        lines.append(f"{indent}{t('feedback.traceback', lang)}")
        lines.extend(_block(result.traceback[:-1] + [error_line(result.traceback[-1], lang)], indent, markdown))
    if result.output:
        key_ = "feedback.printed" if result.printed <= result.output.count("\n") + 1 else "feedback.printed_first"
        shown = result.output.split("\n")
        lines.append(f"{indent}{t(key_, lang, count=result.printed, shown=len(shown))}")
        lines.extend(_block(shown, indent, markdown))
    drawn = render_tree(result.student, result.tree, result.prune_on_equality, lang, g, expected=result.expected) \
        if show_tree and result.tree is not None and result.student is not None else []
    if drawn:  # the search generated something on the tree
        lines.append(f"{indent}{t('feedback.tree', lang)}")
        lines.extend(_block(drawn, indent, markdown))
    return "\n".join(lines)


def _status_text(result: TestResult, lang: str) -> str:
    """The status in words; ``detail["call"]`` names a direct call, ``detail["message"]`` replaces the status's
    usual words, ``detail["note"]`` adds a sentence."""
    params = {k: (v.render(lang) if isinstance(v, Message) else v) for k, v in result.detail.items()}
    parts = [t("feedback.direct_call", lang, call=params["call"])] if "call" in params else []
    if "message" in params:  # the status in words of its own (a check stopped: which tree, what was not run)
        parts.append(params["message"])
    elif result.status != "failed":
        parts.append(t(f"feedback.status.{result.status}", lang, **params))
    if "note" in params:
        parts.append(params["note"])
    return " ".join(parts)


def _values_line(result: TestResult, lang: str, g: Glyphs) -> str:
    """What the search returned and generated beside what was expected (a value that is None shows as None)."""
    s, e = result.student, result.expected
    if "call" in result.detail:  # a direct MAX-VALUE/MIN-VALUE call returns a value, no action
        return t("feedback.values_direct", lang, value=_shown(s.value, g), want_value=_shown(e.value, g),
                 nodes=s.nodes, want_nodes=e.nodes)
    return t("feedback.values", lang, value=_shown(s.value, g), want_value=_shown(e.value, g),
             action="None" if s.action is None else s.action, want_action="None" if e.action is None else e.action,
             nodes=s.nodes, want_nodes=e.nodes)


def _shown(value: object, g: Glyphs) -> str:
    return "None" if value is None else fmt(value, g)


def _block(lines: list[str], indent: str, markdown: bool) -> list[str]:
    if markdown:
        return ["```", *lines, "```"]
    return [f"{indent}  {line}" for line in lines]
