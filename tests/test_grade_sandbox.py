"""Untrusted submissions cost only their own points; rubric errors; archives; the Gradescope bundle."""

from __future__ import annotations

import doctest
import importlib
import csv
import json
import os
import shlex
import subprocess
import sys
import textwrap
import zipfile

import pytest

from abkit.loading import SOLUTIONS
from abkit.grader.batch import grade_batch
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import ForkServer
from abkit.grader.submissions import Submission, _safe_name, find_submissions, unpack
from tests.test_grade import EXAMPLES

REFERENCE = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
SEARCH = "def alpha_beta_search(game, state):\n"
#: student -> what their alphabeta.py does besides (or instead of) searching
ADVERSARIES = {
    "exits": REFERENCE.replace("    if game.terminal_test(state):\n        return game.utility(state)\n    v = -math.inf",
                               "    import sys\n    sys.exit(0)\n    v = -math.inf", 1),
    "forges": REFERENCE.replace(SEARCH, SEARCH + "    import os, sys\n"
                                "    print('\\x00\\x00\\x00\\x0f{\"loaded\": true}')\n"
                                "    os.write(1, b'{\"score\": 100}')\n    return 'A'\n"),
    "patches": REFERENCE.replace(SEARCH, SEARCH + "    type(game).utility = lambda self, s: 100\n"),
    "recurses": REFERENCE.replace("v = max(v, min_value(game, game.result(state, a), alpha, beta))",
                                  "v = max(v, max_value(game, state, alpha, beta))"),
    "prints": REFERENCE.replace(SEARCH, SEARCH + "    print('x' * 100000)\n"),
    "hogs": REFERENCE.replace(SEARCH, SEARCH + "    hoard = bytearray(8 * 1024 ** 3)\n"),
    "exits_at_import": "raise SystemExit(1)\n",
    "not_started": "".join(f"def {f}(*args):\n    raise NotImplementedError\n"
                           for f in ("alpha_beta_search", "max_value", "min_value")),
    "renamed": REFERENCE.replace("def max_value(", "def maximum_value("),
}


@pytest.fixture(scope="module")
def adversaries(tmp_path_factory):
    folder = tmp_path_factory.mktemp("adversaries")
    for name, source in ADVERSARIES.items():
        (folder / name).mkdir()
        (folder / name / "alphabeta.py").write_text(source, encoding="utf-8")
    (folder / "broken.zip").write_bytes(b"PK\x03\x04 this is not really an archive")
    (folder / "linked").mkdir()
    (folder / "linked" / "alphabeta.py").symlink_to(SOLUTIONS / "alphabeta.py")
    out = tmp_path_factory.mktemp("out")
    result = grade_batch(folder, out, load_rubric(), jobs=4)
    return {r["extra_data"]["student"]: r for r in result.rows}, out


def alphabeta(results: dict) -> dict:
    return results["extra_data"]["exercises"]["alphabeta"]


def test_every_adversary_is_graded_and_the_batch_goes_on(adversaries):
    rows, _ = adversaries
    assert sorted(rows) == sorted([*ADVERSARIES, "broken", "linked"])
    status = {name: r["extra_data"]["status"] for name, r in rows.items()}
    assert status == {"exits": "ok", "forges": "ok", "patches": "ok", "recurses": "ok", "prints": "ok", "hogs": "ok",
                      "exits_at_import": "crashed", "not_started": "ok", "renamed": "ok", "broken": "invalid",
                      "linked": "invalid"}


@pytest.mark.parametrize("name", ["exits", "forges", "patches", "recurses", "hogs", "exits_at_import", "not_started",
                                  "renamed", "broken", "linked"])
def test_misbehaving_code_earns_no_alpha_beta_points_it_did_not_deserve(adversaries, name):
    rows, _ = adversaries
    grade = alphabeta(rows[name])
    assert grade["score"] < 0.5 * grade["max_score"], grade


def test_printing_a_lot_costs_nothing(adversaries):
    rows, _ = adversaries
    assert alphabeta(rows["prints"])["score"] == alphabeta(rows["prints"])["max_score"]


@pytest.mark.parametrize("name, words", [
    ("patches", "changed the game object"),
    ("exits", "SystemExit"),
    ("recurses", "RecursionError"),
    ("hogs", "MemoryError"),
    ("not_started", "still raises NotImplementedError"),
    ("renamed", "max_value is missing from alphabeta.py"),
    ("exits_at_import", "could not be loaded: SystemExit: 1"),
    ("broken", "the archive could not be read"),
    ("linked", "skipped alphabeta.py: links are not graded"),
])
def test_each_misbehaviour_is_explained_in_the_feedback(adversaries, name, words):
    _, out = adversaries
    assert words in (out / "students" / name / "feedback.md").read_text(encoding="utf-8")


# -- the rubric -------------------------------------------------------------------

POINTS = "exercises: {minimax: {values: 1}}\n"


@pytest.mark.parametrize("text, line, words", [
    ("exercises:\n  minimax:\n    vaules: 3\n", 3, "unknown key 'vaules' in minimax"),
    ("rule: strict\n" + POINTS, 1, "rule cannot be 'strict'; choose from: aima, cs188"),
    ("exercises: {minimax: {values: -1}}\n", 1, "points cannot be negative"),
    (POINTS + "random_trees: {count: 2, branching: 6, depth: 6}\n", 2, "46656 leaves per tree is too many"),
    ("exercises: [1, 2]\n", 1, "exercises must be a mapping"),
    ("rule: aima\n", 1, "the rubric needs 'exercises:'"),
    ("exercises: {chess: {values: 1}}\n", 1, "unknown key 'chess' in exercises"),
    ("exercises:\n  minimax: {values: 0}\n", 2, "no exercise is worth any points"),
    ("exercises: {}\n", 1, "lists no exercise"),
    (POINTS + "fixtures: [public, secret]\n", 2, "fixtures cannot be"),
    (POINTS + "visibility: {hidden: never}\n", 2, "hidden cannot be 'never'"),
    (POINTS + "direct_tests: 1.5\n", 2, "expected a whole number from 0 to 200"),
    (POINTS + "random_trees: {min: 5, max: 1}\n", 2, "min (5) is above max (1)"),
    (POINTS + "colour: red\n", 2, "unknown key 'colour' in rubric"),
    ("exercises:\n  minimax: [\n", 3, "not valid YAML"),
])
def test_a_bad_rubric_is_an_instructor_error_naming_the_line(abkit, tmp_path, text, line, words):
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text(text, encoding="utf-8")
    run = abkit("grade", EXAMPLES, "--out", tmp_path / "out", "--rubric", rubric, "--lang", "en")
    assert run.status == 2 and run.err.startswith(f"{rubric}:{line}: ") and words in run.err, run.err
    assert not (tmp_path / "out").exists()


def test_a_missing_rubric_is_reported(abkit, tmp_path):
    run = abkit("export", "gradescope", "--out", tmp_path / "a.zip", "--rubric", tmp_path / "none.yaml")
    assert run.status == 2 and "the rubric cannot be read" in run.err


def test_a_narrow_rubric_grades_only_what_it_lists(tmp_path):
    from abkit.grader.grading import Grader
    rubric_path = tmp_path / "rubric.yaml"
    rubric_path.write_text("fixtures: [hidden]\nrandom_trees: {count: 0}\ndirect_tests: 3\n"
                           "exercises: {alphabeta: {pruning: 2.5}}\n", encoding="utf-8")
    grader = Grader(load_rubric(rubric_path))
    assert all(test.source == "hidden" for test in grader.tests_for("x")["alphabeta"])
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "alphabeta.py").write_text(REFERENCE, encoding="utf-8")
    grade = grader.grade(Submission("s", tmp_path / "s"))
    assert (grade.status, grade.score, grade.max_score) == ("ok", 2.5, 2.5)


# -- archives ---------------------------------------------------------------------

@pytest.mark.parametrize("name, safe", [
    ("a/b.py", "a/b.py"), ("./a/./b.py", "a/b.py"), ("../b.py", None), ("a/../../b.py", None),
    ("/etc/b.py", None), ("C:/b.py", None), ("a\\..\\b.py", None),
])
def test_archive_entries_that_would_leave_the_folder_are_refused(name, safe):
    assert _safe_name(name) == safe


def test_an_archive_keeps_only_its_python_files_and_skips_links(tmp_path):
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x/alphabeta.py", "A = 1\n")
        z.writestr("x/report.pdf", "%PDF")
        link = zipfile.ZipInfo("x/link.py")
        link.external_attr = (0o120777) << 16
        z.writestr(link, "/etc/passwd")
    unpacked = unpack(Submission("x", archive), tmp_path / "out")
    assert unpacked.files == ["x/alphabeta.py"]
    assert [m.params["name"] for m in unpacked.skipped] == ["x/link.py"]


def test_hidden_entries_and_stray_files_are_not_students(tmp_path):
    for name in (".DS_Store", "__MACOSX", "notes.txt"):
        (tmp_path / name).mkdir() if name == "__MACOSX" else (tmp_path / name).write_text("")
    (tmp_path / "amy").mkdir()
    assert [s.student for s in find_submissions(tmp_path)] == ["amy"]


@pytest.mark.parametrize("name", ["abkit.grader.submissions", "abkit.grader.testplan", "abkit.grader.sandbox", "abkit.grader.reports"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


# -- Gradescope ---------------------------------------------------------------------

def test_the_gradescope_bundle_runs_like_on_gradescope(abkit, tmp_path):
    bundle = tmp_path / "autograder.zip"
    run = abkit("export", "gradescope", "--out", bundle, "--lang", "en")
    assert run.status == 0 and "wrote" in run.out
    root = tmp_path / "autograder"  # laid out as Gradescope's /autograder
    with zipfile.ZipFile(bundle) as z:
        names = z.namelist()
        z.extractall(root / "source")
    assert {"setup.sh", "run_autograder", "abkit/grader/child.py", "solutions/alphabeta.py", "grader/rubric.yaml"} <= set(names)
    assert any(n.startswith("fixtures/hidden/") for n in names) and not any(n.startswith("exercises/") for n in names)
    (root / "submission" / "nested").mkdir(parents=True)
    for path in (EXAMPLES / "carol" / "hw3").glob("*.py"):
        (root / "submission" / "nested" / path.name).write_bytes(path.read_bytes())
    (root / "submission_metadata.json").write_text(json.dumps({"users": [{"email": "carol@example.edu"}]}))
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "ABKIT_PYTHON": sys.executable}
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert 0 < results["score"] < 49 and results["tests"]
    assert "Named mistake: α and β are not passed down" in results["output"]


def test_run_autograder_in_process_without_metadata(tmp_path):
    from abkit.grader.gradescope import main, student_id

    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "alphabeta.py").write_text(REFERENCE, encoding="utf-8")
    assert student_id(tmp_path) == "submission"
    assert main(["run_autograder", str(tmp_path), "ko"]) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 11 and "점수 11 / 49" in results["output"]  # alpha-beta alone: 11 of the 49 points


def test_answers_sent_before_a_child_dies_count_however_the_death_shows_up(tmp_path):
    # The child answered tests 1 and 2 (sent ahead), then died; the grader notices on its next send. Whether the
    # death shows up on a send or on a receive depends on timing: the answers in the pipe must count either way.
    from types import SimpleNamespace

    from abkit.grader.running import ExerciseRun, Runner
    from abkit.grader.sandbox import Died, Limits

    class DiesOnThirdSend:
        def __init__(self):
            self.sent, self.answers = 0, [{"id": 1, "n": 1}, {"id": 2, "n": 2}]

        def request(self, message, check=None):
            return {"loaded": True, "functions": []}

        def send_ahead(self, request):
            self.sent += 1
            if self.sent == 3:
                raise Died("", -9)
            return True

        def receive(self, check=None):
            if not self.answers:
                raise Died("", -9)
            return self.answers.pop(0)

    tests = [SimpleNamespace(kind="search", id=f"t{k}", request=b"", check=None) for k in range(1, 5)]
    run = ExerciseRun("minimax", tests, file="minimax.py")
    finished = Runner(Limits()).run_exercise(DiesOnThirdSend(), run, tmp_path / "minimax.py", tmp_path)
    assert finished is False and run.status == "crashed"
    assert run.replies == {"t1": {"id": 1, "n": 1}, "t2": {"id": 2, "n": 2}}


def test_a_request_that_does_not_fit_the_pipe_waits_for_the_answers_before_it(tmp_path):
    # The pipe holds one unanswered request here, and a long request never goes ahead (it would not be written
    # at once): the runner then takes the answers it is owed first, and sends a long one only to an idle child.
    from types import SimpleNamespace

    from abkit.grader.running import ExerciseRun, Runner
    from abkit.grader.sandbox import Limits

    class OneAhead:
        def __init__(self):
            self.unanswered, self.log = [], []

        def send_ahead(self, request):
            if len(request) > 8 or self.unanswered:
                return False
            self.log.append(("ahead", request))
            self.unanswered.append(request)
            return True

        def send(self, request):
            assert not self.unanswered  # only to a child with nothing left to answer
            self.log.append(("send", request))
            self.unanswered.append(request)

        def receive(self, check=None):
            return {"answer": self.unanswered.pop(0).decode()}

    tests = [SimpleNamespace(kind="search", id=name, request=name.encode(), check=None)
             for name in ("t1", "t2", "a-long-one", "t4")]
    run = ExerciseRun("minimax", tests, file="minimax.py")
    sandbox = OneAhead()
    Runner(Limits())._answer_all(sandbox, run)
    assert run.replies == {t.id: {"answer": t.id} for t in tests}
    assert sandbox.log == [("ahead", b"t1"), ("ahead", b"t2"), ("send", b"a-long-one"), ("ahead", b"t4")]


def test_a_mutant_that_raises_is_named_by_its_error():
    # A mutant's search can raise where the student's raised too: the mistake is named on that evidence.
    from types import SimpleNamespace

    from abkit.grader.mistakes import MistakeNamer, for_exercise

    def raises(module):
        raise ValueError("boom")

    test = SimpleNamespace(id="alphabeta/public/t", source="public", nameable=True, run_in_process=raises)
    graded = [SimpleNamespace(test=test, signature=("error", "ValueError"))]
    namer = MistakeNamer(True)
    assert namer.name("alphabeta", graded) == [m.id for m in for_exercise("alphabeta")]
    assert namer.name("alphabeta", [SimpleNamespace(test=test, signature=("error", "KeyError"))]) == []


def test_a_name_added_to_the_recorders_classes_or_a_changed_game_is_tampering():
    from abkit.trace import TracingGame
    from abkit.tree import TreeGame, from_nested
    from abkit.grader.child import _fingerprint, _snapshot, _tampered

    game = TreeGame(from_nested([[3, 12], [2, 4]]))
    before, fingerprint = _snapshot(), _fingerprint(game)
    assert not _tampered(before, game, fingerprint)
    for cls in (TracingGame, TreeGame):
        cls.__getattr__ = lambda self, name: None
        try:
            assert _tampered(before, game, fingerprint)
        finally:
            del cls.__getattr__
    assert not _tampered(before, game, fingerprint)
    game.tree.utilities["B1"] = 99
    assert _tampered(before, game, fingerprint)


# -- the batch's worker processes ------------------------------------------------

NARROW = "fixtures: [public]\nrandom_trees: {count: 1}\ndirect_tests: 2\nexercises: {alphabeta: {values: 1}}\n"


def _narrow_class(tmp_path, students: int = 4):
    (tmp_path / "rubric.yaml").write_text(NARROW, encoding="utf-8")
    for k in range(students):
        (tmp_path / "class" / f"s{k}").mkdir(parents=True)
        (tmp_path / "class" / f"s{k}" / "alphabeta.py").write_text(REFERENCE, encoding="utf-8")
    return tmp_path / "class", load_rubric(tmp_path / "rubric.yaml")


def _failing_for(student: str, how: str):
    import abkit.grader.batch as batch
    real = batch.grade_and_save

    def fake(grader, entry, out):
        if entry.student == student:
            if how == "dies":
                os._exit(3)
            raise ZeroDivisionError("a bug in the grader")
        return real(grader, entry, out)
    return fake


@pytest.mark.parametrize("how, lang, words", [
    ("raises", "en", ["The grader itself failed on 1 student;", "Students: s2", "ZeroDivisionError: a bug"]),
    ("dies", "ko", ["채점기 자체가 실패한 학생 수: 1", "해당 학생: s2", "종료 상태 3"]),
])
def test_a_failing_worker_costs_only_its_student_who_is_named_with_the_command_to_grade_them_again(
        tmp_path, monkeypatch, abkit, how, lang, words):
    """A bug of the grader (raised, or a worker process that dies, twice, on the same student) costs that student
    only: the batch completes, every file is written, the student's row says crashed with the grader's error, the
    summary and the terminal name them with the command that grades just them again, and the exit status is 1.
    That command, once the bug is gone, completes the class (exit 0)."""
    import abkit.grader.batch as batch
    folder, _ = _narrow_class(tmp_path)
    monkeypatch.setattr(batch, "grade_and_save", _failing_for("s2", how))  # the workers are forked: they inherit it
    out = tmp_path / "out"
    run = abkit("grade", folder, "--out", out, "-j", "2", "--rubric", tmp_path / "rubric.yaml", "--lang", lang)
    assert run.status == 1 and "Traceback" not in run.out + run.err, run.err
    text = run.err + (out / "summary.md").read_text(encoding="utf-8") + (out / "grades.csv").read_text(encoding="utf-8")
    assert all(w in text for w in words), text
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        table = {row["student"]: row for row in csv.DictReader(handle)}
    assert sorted(table) == ["s0", "s1", "s2", "s3"] and table["s2"]["status"] == "crashed"
    assert table["s2"]["grader_error"] and not table["s0"]["grader_error"]
    assert all((out / "students" / s / "feedback.md").exists() for s in ("s0", "s1", "s2", "s3"))
    command = next(line.strip() for line in run.err.splitlines() if line.strip().startswith("abkit grade"))
    assert command in (out / "summary.md").read_text(encoding="utf-8")
    assert command.endswith("--student s2 --force") and f"--lang {lang}" in command
    monkeypatch.undo()
    again = abkit(*shlex.split(command)[1:])
    assert again.status == 0, again.err
    assert json.loads((out / "students" / "s2" / "results.json").read_text(encoding="utf-8"))["score"] == 1
    assert "grader_error" not in (out / "summary.md").read_text(encoding="utf-8")


def test_workers_started_afresh_grade_like_forked_ones_and_like_one_process(tmp_path, monkeypatch):
    """Where a worker cannot be forked (Windows, macOS) it is started afresh and builds its own grader: the
    results are the same as forked workers' and as grading in this process (-j 1)."""
    import multiprocessing

    import abkit.grader.batch as batch
    folder, rubric = _narrow_class(tmp_path, students=3)
    scores = {}
    for name, jobs in (("forked", 2), ("here", 1), ("spawned", 2)):
        if name == "spawned":
            spawn = multiprocessing.get_context("spawn")
            monkeypatch.setattr(batch.multiprocessing, "get_context", lambda method: spawn)
        result = grade_batch(folder, tmp_path / name, rubric, jobs=jobs)
        scores[name] = [(r["extra_data"]["student"], r["score"], r["extra_data"]["seed"]) for r in result.rows]
        assert result.graded == ["s0", "s1", "s2"] and result.defences is not None
    assert scores["forked"] == scores["here"] == scores["spawned"] == [(f"s{k}", 1, scores["here"][k][2]) for k in range(3)]


@pytest.mark.skipif(not ForkServer.available(), reason="the fork server is Linux's")
def test_a_student_process_whose_folder_is_gone_fails_into_its_log_not_the_graders_stderr(tmp_path, capfd):
    """An interrupted worker removes the student's folder while the server may be forking their process: that
    process fails quietly (its log says why), never with a traceback on the instructor's terminal."""
    from abkit.grader.sandbox import child_environment

    server = ForkServer(tmp_path)
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    log = tmp_path / "student.log"
    try:
        with open(log, "wb") as handle:
            process = server.start(tmp_path / "gone" / "files", child_environment(tmp_path), {"confine": False},
                                   [request_read, reply_write, handle.fileno()])
        assert process.wait(timeout=10) == 1
    finally:
        server.close()
        for fd in (request_read, request_write, reply_read, reply_write):
            os.close(fd)
    assert "Traceback" not in capfd.readouterr().err
    assert "FileNotFoundError" in log.read_text(encoding="utf-8")


@pytest.mark.skipif(not ForkServer.available(), reason="the fork server is Linux's")
def test_the_fork_server_leaves_quietly_when_the_grader_leaves_before_its_answer(tmp_path, capfd):
    """An interrupted worker may close its end while the server forks a student's process: the server ends
    without a traceback (and the process it forked ends with it)."""
    import socket

    from abkit.grader.sandbox import child_environment

    server = ForkServer(tmp_path)
    (tmp_path / "files").mkdir()
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    with open(tmp_path / "student.log", "wb") as log:
        message = json.dumps({"op": "start", "cwd": str(tmp_path / "files"), "env": child_environment(tmp_path),
                              "settings": {"confine": False}}).encode()
        socket.send_fds(server._socket, [message], [request_read, reply_write, log.fileno()])
    server.close()  # before reading the answer
    for fd in (request_read, request_write, reply_read, reply_write):
        os.close(fd)
    assert server.process.returncode == 0
    assert "Traceback" not in capfd.readouterr().err


def test_an_interrupted_batch_in_one_process_keeps_what_is_saved(tmp_path):
    """-j 1 grades here: an interruption (Ctrl-C) after the first student keeps that student's files, ends the
    batch, and leaves no student process registered."""
    from abkit.grader.sandbox import LIVE

    folder, rubric = _narrow_class(tmp_path, students=3)

    def progress(done, total, outcome):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grade_batch(folder, tmp_path / "out", rubric, jobs=1, progress=progress)
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["students"]  # no gradebook
    assert sorted(p.name for p in (tmp_path / "out" / "students").iterdir()) == ["s0"] and not LIVE.live and not LIVE.stopping
    assert (tmp_path / "out" / "students" / "s0" / "results.json").exists()


def test_workers_killed_between_or_during_students_are_replaced_and_cost_nothing(tmp_path, monkeypatch, abkit):
    import multiprocessing.connection

    folder, _ = _narrow_class(tmp_path)
    send = multiprocessing.connection.Connection.send

    def send_then_die(self, obj):  # each worker ends right after reporting its first student (forked: they inherit
        send(self, obj)            # this), so the next student is handed to a dead one, or to one about to die
        if isinstance(obj, tuple) and obj[0] == "ok":
            os._exit(5)

    monkeypatch.setattr(multiprocessing.connection.Connection, "send", send_then_die)
    run = abkit("grade", folder, "--out", tmp_path / "out", "-j", "2", "--rubric", tmp_path / "rubric.yaml")
    assert run.status == 0 and "Traceback" not in run.err, run.err
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [(r["student"], r["status"], r["score"]) for r in table] == [(f"s{k}", "ok", "1") for k in range(4)]


@pytest.mark.skipif(not ForkServer.available(), reason="the fork server is Linux's")
def test_each_forked_child_starts_from_the_servers_first_state_whatever_was_done_to_the_server(tmp_path):
    """Resource limits, nice value, CPU affinity, umask and signal mask set on the server after it started (a child
    cannot: grader.confine) are not what its next child starts with."""
    import resource

    from abkit.grader.sandbox import Limits, Sandbox

    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "probe.py").write_text(textwrap.dedent("""\
        import os, resource, signal
        state = [os.getpriority(os.PRIO_PROCESS, 0), resource.getrlimit(resource.RLIMIT_NOFILE),
                 resource.getrlimit(resource.RLIMIT_STACK), sorted(os.sched_getaffinity(0)), os.umask(0o022),
                 sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))]
        raise ValueError(repr(state))
        """), encoding="utf-8")
    server = ForkServer()
    try:
        pid = server.process.pid
        with Sandbox(tmp_path / "files", Limits(confine=False), server=server) as sandbox:
            first = sandbox.request({"op": "load", "exercise": "probe", "path": str(tmp_path / "files" / "probe.py")})
        stack = resource.getrlimit(resource.RLIMIT_STACK)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (16, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        resource.prlimit(pid, resource.RLIMIT_STACK, (1 << 20, stack[1]))
        os.setpriority(os.PRIO_PROCESS, pid, 19)
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(pid, cpus[:1])
        with Sandbox(tmp_path / "files", Limits(confine=False), server=server) as sandbox:
            reply = sandbox.request({"op": "load", "exercise": "probe", "path": str(tmp_path / "files" / "probe.py")})
    finally:
        server.close()
    umask = os.umask(0o022)
    os.umask(umask)
    expected = [os.getpriority(os.PRIO_PROCESS, 0) if os.geteuid() == 0 else 19,
                resource.getrlimit(resource.RLIMIT_NOFILE), stack, cpus, umask, []]
    assert reply["error"] == first["error"] == f"ValueError: {expected!r}"


def test_a_batch_leaves_no_temporary_folder_and_removes_those_of_killed_batches(tmp_path, monkeypatch):
    import tempfile

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = temporary / f"abkit-batch-{int(gone.stdout)}-x1"  # a batch killed with SIGKILL left this behind
    (killed / "abkit-y" / "files").mkdir(parents=True)
    running = temporary / f"abkit-batch-{os.getpid()}-x2"  # a batch still running: kept
    running.mkdir()
    odd = temporary / "abkit-batch-name"
    odd.mkdir()
    folder, rubric = _narrow_class(tmp_path, students=2)
    for jobs in (1, 2):
        result = grade_batch(folder, tmp_path / f"out{jobs}", rubric, jobs=jobs)
        assert result.graded == ["s0", "s1"]
        assert sorted(p.name for p in temporary.iterdir()) == sorted([running.name, odd.name])


def test_a_reply_too_large_to_send_becomes_an_error_of_that_test_not_a_crash(tmp_path):
    """A search that returns a 20 MB value: the child sends, instead of its report, the test failed with
    ReportTooLarge, and the process goes on answering."""
    from abkit.fixture import load_fixture
    from abkit.loading import PUBLIC_FIXTURES
    from abkit.grader.child import MAX_REPORT, tree_to_data
    from abkit.grader.sandbox import Limits, Sandbox

    (tmp_path / "files").mkdir()
    student = tmp_path / "files" / "alphabeta.py"
    student.write_text(REFERENCE + "\n\ndef alpha_beta_search(game, state):\n    return 'x' * 20_000_000\n",
                       encoding="utf-8")
    tree = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml").tree
    request = {"op": "search", "exercise": "alphabeta", "tree": tree_to_data(tree), "state": tree.root,
               "algorithm": "alphabeta"}
    with Sandbox(tmp_path / "files", Limits(memory_mb=2048)) as sandbox:
        assert sandbox.request({"op": "load", "exercise": "alphabeta", "path": str(student)})["loaded"]
        reply = sandbox.request(request)
        assert reply["error_type"] == "ReportTooLarge" and f"more than {MAX_REPORT:,}" in reply["error"]
        assert reply["trace"]["visited"] == [tree.root] and reply["trace"]["value"] is None
        assert sandbox.request({"op": "load", "exercise": "alphabeta", "path": str(student)})["loaded"]


def test_a_child_that_ends_before_it_gets_its_key_fails_that_student_not_the_batch(tmp_path, monkeypatch):
    """Writing the key into the pipe of a child that already ended (BrokenPipeError) used to escape Sandbox.start
    and stop the batch; now the student's first request finds the child dead."""
    import abkit.grader.sandbox as sandbox_module
    from abkit.grader.sandbox import Died, Limits, Sandbox

    real_write = os.write

    def broken(fd, data):
        if len(data) == 32 and not getattr(broken, "done", False):
            broken.done = True
            raise BrokenPipeError(32, "Broken pipe")
        return real_write(fd, data)

    monkeypatch.setattr(sandbox_module.os, "write", broken)
    (tmp_path / "files").mkdir()
    with Sandbox(tmp_path / "files", Limits(test_seconds=5)) as sandbox:
        assert broken.done and sandbox.process is not None
        sandbox.kill()  # (as if it had ended by itself)
        with pytest.raises(Died):
            sandbox.request({"op": "load", "exercise": "alphabeta", "path": "alphabeta.py"})
