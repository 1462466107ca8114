"""One student never costs another: replies the parent cannot trust, and faults of the grader itself.

- Property: any correctly signed reply, whatever its shape, taken by the sandbox's real receiving path (the
  frame, the MAC under the run's key, the sequence number, the decoder, :mod:`abkit.grader.replies`) and then graded,
  scored and written as feedback, ends in one of two ways only: a graded test (failed, unless the reply is an
  honest one) or :class:`~abkit.grader.sandbox.Malformed` / :class:`~abkit.grader.sandbox.Forged` (the student's process
  failing: ``crashed``). Never another exception.
- A batch in which the grader itself raises for one student writes every file, names that student in the
  closing summary with the command that grades just them again, and exits with status 1.
"""

from __future__ import annotations

import copy
import csv
import hmac
import json
import math
import time
from collections import deque
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from abkit.grader import replies
from abkit.grader.child import CONTRACT, HEADER, MAX_RECORD, SEQUENCE
from abkit.grader.grades import StudentGrade
from abkit.grader.grading import Grader
from abkit.grader.running import ExerciseRun, Runner
from abkit.reference import reference
from abkit.grader.reports import feedback_markdown, results_json
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import MAX_REPLY, Died, Limits, Malformed, Sandbox

KEY = b"k" * 32


@lru_cache(maxsize=1)
def grader() -> Grader:
    return Grader(load_rubric())


@lru_cache(maxsize=1)
def samples() -> list:
    """One test of each kind (a tree search, a direct call, a board search, orders, a played move) with the
    honest reply a correct student's process sends for it."""
    tests = [t for suite in grader().tests_for("fuzz").values() for t in suite]
    picked = {}
    for test in tests:
        kind = ("call" if test.function else test.kind, test.tree is None, test.exercise)
        picked.setdefault(kind, test)
    out = []
    for test in picked.values():
        if test.kind == "play":
            honest = {"answer": 4}
        elif test.kind == "orders":
            honest = {"answer": test.run_in_process(reference(test.algorithm, grader().rule))}
        else:
            trace = test.run_in_process(reference(test.algorithm, grader().rule))
            honest = {"trace": trace.to_dict(), "tampered": False}
        out.append((test, {**honest, "output": ""}))
    return out


def sandbox_holding(body: bytes, key: bytes = KEY) -> Sandbox:
    """A sandbox whose reply pipe holds ``body`` as the harness frames and signs it (no process: the reply is
    already in its buffer), waiting for the answer to one request."""
    sandbox = Sandbox(Path("/nonexistent/files"), Limits())
    sandbox._key, sandbox._received, sandbox._sent = KEY, 0, 0
    sandbox._pending, sandbox._answered_at, sandbox.defences = deque([time.monotonic()]), 0.0, None
    mac = hmac.digest(key, SEQUENCE.pack(0) + body, "sha256")
    sandbox._buffer = bytearray(HEADER.pack(len(body)) + body + mac)
    sandbox._reply = sandbox._request = None
    return sandbox


def encode(reply: object) -> bytes:
    return json.dumps(reply, ensure_ascii=False).encode("utf-8")


def grade_reply(test, body: bytes, tmp: Path = Path("/nonexistent")) -> str:
    """Receive ``body`` for ``test`` and grade it all the way to the student's files' text; 'crashed' when the
    reply is refused (the student's process fails), else the test's status."""
    g = grader()
    try:
        if test.kind == "play":  # the games ask for each move: every answer is this reply
            class Asked:
                def request(self, message, check):
                    return sandbox_holding(body).receive(check)
            reply = Runner(g.limits, g.lang).play(Asked(), test)
        else:
            reply = sandbox_holding(body).receive(test.check)
    except Died as death:  # Malformed, Forged: the exercise stops, crashed, with words
        assert isinstance(death, Malformed) or type(death).__name__ == "Forged"
        if isinstance(death, Malformed):
            assert death.problem.render("en") and death.problem.render("ko")
        return "crashed"
    run = ExerciseRun(test.exercise, [test], f"{test.exercise}.py", replies={test.id: reply}, functions=list(CONTRACT))
    grade = g._score(run, tmp)
    student = StudentGrade("fuzz", grade.status, grade.score, grade.max_score, 0, {test.exercise: grade})
    for lang in ("en", "ko"):
        json.dumps(results_json(student, g.rubric, lang), allow_nan=True)
        feedback_markdown(student, g.rubric, lang)
    assert len(grade.tests) == 1 and math.isfinite(grade.score)
    return grade.tests[0].result.status


# -- strategies ----------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=30), st.sampled_from(["A", "B", "C1", "MAX", "MIN", "X........", "", "∞"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                             st.dictionaries(st.text(max_size=8), inner, max_size=6)),
                           max_leaves=30)


def paths(value, prefix=()):
    """Every path (tuple of keys and indices) into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


@st.composite
def mutated(draw, honest: dict) -> dict:
    """``honest`` with one to three places replaced by arbitrary JSON, or removed."""
    reply = copy.deepcopy(honest)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(paths(reply))[1:] or [()]))
        if not where:
            return draw(json_values)
        parent = reply
        for step in where[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[where[-1]]
        else:
            parent[where[-1]] = draw(json_values)
    return reply


@st.composite
def shaped(draw, test, honest: dict) -> dict:
    """A reply of the right shape with odd content: any states (the tree's names, numbers, NaN, None, bool,
    short text), any numbers in the windows and values, calls whose parents and positions are anywhere
    allowed, an error or not (the grader's own code meets what the schema lets through)."""
    if test.kind in ("orders", "play"):
        return {**honest, "answer": draw(json_values)}
    names = sorted(test.tree.preorder()) if test.tree is not None else [test.state, "XO.......", "........."]
    state = st.one_of(st.sampled_from(names), st.none(), st.booleans(), st.integers(-3, 3),
                      st.floats(allow_nan=True), st.text(max_size=min(3, test.longest)))
    number = st.one_of(st.none(), st.booleans(), st.integers(-10**18, 10**18), st.floats(allow_nan=True),
                       st.text(max_size=5))
    visited = [test.state, *draw(st.lists(state, max_size=25))]
    evaluated = draw(st.lists(state, max_size=15))
    calls = []
    for i in range(draw(st.integers(0, 20))):
        calls.append([draw(state), draw(st.sampled_from(["MAX", "MIN", "CHANCE"])), draw(number), draw(number),
                      draw(number), draw(st.one_of(st.none(), st.integers(0, i - 1))) if i else None,
                      draw(st.integers(0, 40)), draw(st.integers(0, 40)), draw(st.booleans()),
                      draw(st.one_of(st.none(), st.integers(0, 40)))])
    trace = {**honest["trace"], "visited": visited, "evaluated": evaluated, "calls": calls,
             "action": draw(number), "value": draw(number),
             "error": draw(st.one_of(st.none(), st.sampled_from(["ValueError: x", "NotImplementedError", ""])))}
    if "counts" in trace:
        trace.update(visited=[], evaluated=[], calls=[], counts=[draw(st.one_of(st.none(), st.integers(0, 10**6)))
                                                                  for _ in "nl"])
    return {**honest, "trace": trace, "tampered": draw(st.booleans())}


# -- the property --------------------------------------------------------------------

@settings(max_examples=int(__import__("os").environ.get("FUZZ", 300)), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_signed_reply_is_a_graded_test_or_a_crashed_student_never_an_exception(data):
    test, honest = data.draw(st.sampled_from(samples()))
    reply = data.draw(st.one_of(mutated({**honest, "id": 1}), json_values, shaped(test, {**honest, "id": 1})))
    if isinstance(reply, dict) and data.draw(st.booleans()):
        reply["id"] = 1
    status = grade_reply(test, encode(reply))
    assert status in ("passed", "failed", "error", "not_started", "missing", "crashed")


@settings(max_examples=60, deadline=None)
@given(body=st.binary(max_size=200))
def test_any_signed_bytes_are_a_crashed_student_or_a_graded_test(body):
    test, _ = samples()[0]
    assert grade_reply(test, body) in ("crashed", "failed", "error", "passed", "missing", "not_started")


def test_every_honest_reply_passes():
    """The schemas accept what a correct student's process sends, for every kind of test (else the property
    above would be vacuous, and correct students crashed)."""
    assert len(samples()) >= 8
    for test, honest in samples():
        status = grade_reply(test, encode({**honest, "id": 1}))
        assert status == "passed" or test.kind == "play" and status == "failed", test.id  # (always moving 4)


# -- the attacks of issue 12, as replies ------------------------------------------------

def sample(kind: str):
    return next((t, h) for t, h in samples() if (t.kind, t.tree is None) == kind)


@pytest.mark.parametrize("change, words", [
    (lambda r: r["trace"]["evaluated"].append([1, 2]), "trace.evaluated[9] is list (2 items)"),
    (lambda r: r["trace"]["calls"][1].__setitem__(0, {"a": 1}), "trace.calls[1][0] is dict (1 items)"),
    (lambda r: r["trace"]["visited"].__setitem__(1, "B" * 15_000_000), "trace.visited[1] has length 15000000"),
    (lambda r: r.pop("trace"), "reply.trace is missing"),
    (lambda r: r["trace"].pop("calls"), "trace.calls is missing"),
    (lambda r: r["trace"]["calls"][0].__setitem__(5, 7), "trace.calls[0][5] is 7"),
    (lambda r: r["trace"].__setitem__("visited", ["A"] * (MAX_RECORD + 1)), f"more than the {MAX_RECORD} allowed"),
    (lambda r: r.__setitem__("tampered", "no"), "tampered is str"),
])
def test_a_reply_of_the_wrong_shape_is_the_students_process_failing_with_words(change, words):
    test, honest = sample(("search", False))
    reply = copy.deepcopy({**honest, "id": 1})
    change(reply)
    sandbox = sandbox_holding(encode(reply))
    with pytest.raises(Malformed) as caught:
        sandbox.receive(test.check)
    assert words in caught.value.problem.render("en")


def test_100000_nested_arrays_and_an_over_long_frame_are_refused_without_reading_them():
    test, _ = sample(("search", False))
    with pytest.raises(Malformed) as deep:
        sandbox_holding(b"[" * 100_000 + b"]" * 100_000).receive(test.check)
    assert "nested too deeply" in deep.value.problem.render("en")
    sandbox = sandbox_holding(b"{}")
    sandbox._buffer = bytearray(HEADER.pack(MAX_REPLY + 1))  # the head alone: the body is never waited for
    with pytest.raises(Malformed) as big:
        sandbox.receive(test.check)
    assert f"more than the {MAX_REPLY} allowed" in big.value.problem.render("en")
    with pytest.raises(Malformed) as text:
        sandbox_holding(b"\xff{").receive(test.check)
    assert "not JSON" in text.value.problem.render("en")


def test_a_reply_signed_with_another_key_or_replayed_is_forged():
    test, honest = sample(("search", False))
    with pytest.raises(Died) as other:
        sandbox_holding(encode({**honest, "id": 1}), key=b"x" * 32).receive(test.check)
    with pytest.raises(Died) as replayed:
        sandbox_holding(encode({**honest, "id": 2})).receive(test.check)
    assert type(other.value).__name__ == type(replayed.value).__name__ == "Forged"


def test_free_text_is_cut_not_refused_and_odd_values_are_kept_as_they_come():
    """An honest process can send a long error, a value kept as a long repr, a NaN: cut or kept, never refused."""
    test, honest = sample(("search", False))
    reply = copy.deepcopy({**honest, "id": 1})
    reply["trace"].update(value="<" + "x" * 50_000 + ">", error="ValueError: " + "y" * 50_000, action=None)
    reply["trace"]["calls"][1][4] = float("nan")
    reply.update(traceback=["line"] * 1000, error="E" * 10_000, output="o" * 100_000)
    got = sandbox_holding(encode(reply)).receive(test.check)
    assert len(got["trace"]["value"]) < 2100 and got["trace"]["value"].endswith("(50002 characters)")
    assert len(got["traceback"]) == replies.LINES and len(got["output"]) < replies.OUTPUT + 100
    assert math.isnan(got["trace"]["calls"][1][4])
    assert grade_reply(test, encode(reply)) == "error"


def test_order_and_move_replies_are_checked_too():
    test, honest = sample(("orders", False))
    with pytest.raises(Malformed) as unasked:
        sandbox_holding(encode({"answer": {"ZZZ": []}, "id": 1})).receive(test.check)
    assert "not asked about: ZZZ" in unasked.value.problem.render("en")
    with pytest.raises(Malformed):
        sandbox_holding(encode({"answer": {test.nodes[0]: [[1]]}, "id": 1})).receive(test.check)
    play, _ = sample(("play", True))
    with pytest.raises(Malformed):
        sandbox_holding(encode({"answer": {"x": 1}, "id": 1})).receive(play.check)
    assert sandbox_holding(encode({"answer": "z" * 1000, "id": 1})).receive(play.check)["answer"].endswith(
        "(1000 characters)")


def test_a_load_reply_is_checked():
    for bad in ({"id": 1}, {"loaded": 1, "id": 1}, {"loaded": True, "functions": ["os.system"], "id": 1},
                {"loaded": True, "defences": {"reasons": [1]}, "id": 1}, {"loaded": True, "defences": [], "id": 1}):
        with pytest.raises(Malformed):
            sandbox_holding(encode(bad)).receive(replies.load)
    ok = {"loaded": True, "functions": ["max_value"], "id": 1, "defences": {"landlock": 3, "reasons": ["r" * 900]}}
    got = sandbox_holding(encode(ok)).receive(replies.load)
    assert got["defences"]["landlock"] == 3 and len(got["defences"]["reasons"][0]) < 600


@pytest.mark.parametrize("defences", [{"refused": 5}, {"reasons": "x"}, {"landlock": "3"}, {"landlock": 2.5},
                                      {"seccomp": 1}, {"hidden": "no"}])
def test_a_confinement_report_the_grader_reads_has_its_types(defences):
    """Student code that reaches the report before it is sent (through frames) cannot make the grader's summary of
    the batch's confinement fail: a field of another type is a malformed reply, that student's only."""
    with pytest.raises(Malformed):
        sandbox_holding(encode({"loaded": True, "defences": defences, "id": 1})).receive(replies.load)


# -- a fault of the grader itself ------------------------------------------------------

NARROW = "fixtures: [public]\nrandom_trees: {count: 1}\ndirect_tests: 2\nexercises: {alphabeta: {values: 1}}\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_grader_fault_on_one_student_is_that_students_row_named_in_the_summary_with_the_regrade_command(
        tmp_path, monkeypatch, abkit, jobs):
    """The grader's scoring raises for one student id: the batch completes in one run, every file is written,
    that student's row says crashed with the grader's error, the summary (terminal and summary.md) names them with
    the command that grades just them again, and the exit status is 1 (README: "Exit status")."""
    from tests.test_grade_sandbox import REFERENCE

    (tmp_path / "rubric.yaml").write_text(NARROW, encoding="utf-8")
    for name in ("ann", "bob", "cy"):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "alphabeta.py").write_text(REFERENCE, encoding="utf-8")
    real_grade, real_score = Grader._grade, Grader._score
    current = {}

    def grade(self, submission, folder):
        current["student"] = submission.student
        return real_grade(self, submission, folder)

    def score(self, grade, workspace):
        if current["student"] == "bob":
            raise KeyError("a bug in the grader's scoring")
        return real_score(self, grade, workspace)

    monkeypatch.setattr(Grader, "_grade", grade)  # (the workers are forked: they inherit it)
    monkeypatch.setattr(Grader, "_score", score)
    out = tmp_path / "out"
    run = abkit("grade", tmp_path / "class", "--out", out, "-j", jobs, "--rubric", tmp_path / "rubric.yaml")
    assert run.status == 1, run.err
    assert "Traceback" not in run.out + run.err
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        table = {row["student"]: row for row in csv.DictReader(handle)}
    assert {s: (r["status"], r["score"], r["grader_error"]) for s, r in table.items()} == {
        "ann": ("ok", "1", ""), "bob": ("crashed", "0", "KeyError: \"a bug in the grader's scoring\""),
        "cy": ("ok", "1", "")}
    command = (f"abkit grade {tmp_path / 'class'} --out {out} --rubric {tmp_path / 'rubric.yaml'} --lang en "
               "--student bob --force")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert command in run.err and command in summary and "## Grader errors" in summary and "- bob:" in summary
    assert "not your fault" in (out / "students" / "bob" / "feedback.md").read_text(encoding="utf-8")
    saved = json.loads((out / "students" / "bob" / "results.json").read_text(encoding="utf-8"))
    assert "KeyError" in saved["extra_data"]["grader_error"] and saved["extra_data"]["fingerprint"] == ""
    assert (out / "histogram.svg").exists() and (out / "students" / "ann" / "results.json").exists()


def test_a_report_that_cannot_be_written_still_gives_the_student_a_row(tmp_path, monkeypatch):
    """Writing a student's files fails (a grader bug in the feedback, say): the student's row is a grader fault;
    if even that cannot be written, the row still reaches grades.csv."""
    import abkit.grader.batch as batch
    from abkit.grader.submissions import Submission

    calls = []

    def write_student(out, grade, rubric, lang):
        calls.append(grade.grader_error)
        raise OSError("disk full")

    monkeypatch.setattr(batch, "write_student", write_student)
    g = grader()
    entry = Submission("zed", tmp_path / "zed")
    (tmp_path / "zed").mkdir()
    row = batch.grade_and_save(g, entry, tmp_path / "out")
    assert row["extra_data"]["status"] == "crashed" and "OSError: disk full" in row["extra_data"]["grader_error"]
    assert calls[0] == "" and "OSError" in calls[1]


def test_several_students_are_graded_again_at_once_and_an_unknown_one_is_named(tmp_path, abkit):
    from tests.test_grade_sandbox import REFERENCE

    (tmp_path / "rubric.yaml").write_text(NARROW, encoding="utf-8")
    for name in ("ann", "bob", "cy"):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "alphabeta.py").write_text(REFERENCE, encoding="utf-8")
    common = ("grade", tmp_path / "class", "--out", tmp_path / "out", "-j", "1", "--rubric", tmp_path / "rubric.yaml")
    assert abkit(*common).status == 0
    again = abkit(*common, "--student", "ann", "--student", "cy", "--force")
    assert again.status == 0 and "(2 graded now" in again.out, again.out
    unknown = abkit(*common, "--student", "ann", "--student", "dee")
    assert unknown.status == 2 and "dee" in unknown.err and "Traceback" not in unknown.err


def test_a_student_no_worker_can_take_gets_a_grader_fault_row_and_the_others_are_graded(tmp_path, monkeypatch):
    """Handing a student out fails (the worker is found dead) every time: each time a new worker takes over, and
    after as many tries as the batch has students and workers, the student's row says the grader failed."""
    import abkit.grader.batch as batch
    from abkit.grader.batch import grade_batch
    from tests.test_grade_sandbox import _narrow_class

    real = batch._send
    monkeypatch.setattr(batch, "_send", lambda connection, entry: entry.student != "s1" and real(connection, entry))
    folder, rubric = _narrow_class(tmp_path, students=3)
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=2)
    assert result.failed == ["s1"] and "--student s1 --force" in result.regrade
    assert [(r["extra_data"]["student"], r["extra_data"]["status"]) for r in result.rows] == [
        ("s0", "ok"), ("s1", "crashed"), ("s2", "ok")]
    assert "grading worker ended" in result.rows[1]["extra_data"]["grader_error"]
