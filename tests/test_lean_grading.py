"""What makes grading cheap keeps every check: the integrity fingerprint of the game a search is given (each change
to what it holds is tampering) and a batch whose memory does not grow with the class (each student's per-test
results are read back from their ``results.json``; a row that could not be saved is kept whole)."""

from __future__ import annotations

import json

import pytest

from abkit.grader.batch import Rows, Unsaved, grade_batch
from abkit.grader.reports import read_results
from tests.test_grade_sandbox import _narrow_class


def _replace_tree(game):
    from dataclasses import replace
    game.tree = replace(game.tree)  # an equal copy is still not the harness's tree


class _Unreadable(dict):
    def __eq__(self, other):
        raise RuntimeError("no")


TAMPERINGS = {
    "a child added": lambda g: g.tree.children.__setitem__("B", ("B1", "B2", "B3")),
    "children reordered": lambda g: g.tree.children.__setitem__("B", ("B2", "B1")),
    "a leaf removed": lambda g: g.tree.utilities.pop("C2"),
    "a heuristic added": lambda g: g.tree.heuristics.__setitem__("B", 5),
    "a probability added": lambda g: g.tree.probabilities.__setitem__("B1", 0.5),
    "a player changed": lambda g: g._players.__setitem__("B", "MAX"),
    "the initial state changed": lambda g: setattr(g, "initial", "B"),
    "the tree replaced by an equal copy": _replace_tree,
    "the tree's root changed (a frozen dataclass's field set all the same)": lambda g: object.__setattr__(g.tree, "root", "B"),
    "a tree field deleted": lambda g: object.__delattr__(g.tree, "heuristics"),
    "the utilities made unreadable": lambda g: object.__setattr__(g.tree, "utilities", _Unreadable(g.tree.utilities)),
    "a method shadowed by an attribute": lambda g: setattr(g, "utility", lambda state: 0),
    "an attribute added under a special name": lambda g: setattr(g, "__getattr__", lambda name: None),
    "the game's class changed": lambda g: setattr(g, "__class__", type("Other", (type(g),), {})),
}


#: changes a student's code could make to any tree game it is given
ANY_TREE = [lambda g: g.tree.children.__setitem__(g.tree.root, ()), lambda g: g.tree.utilities.clear(),
            lambda g: g.tree.heuristics.__setitem__(g.tree.root, 99),
            lambda g: g.tree.probabilities.__setitem__("x", 1),
            lambda g: g._players.__setitem__(g.tree.root, "CHANCE"), lambda g: setattr(g, "initial", "x"),
            lambda g: object.__setattr__(g.tree, "root", "x"), lambda g: object.__delattr__(g.tree, "heuristics"),
            lambda g: setattr(g, "cache", {})]


def test_a_counter_or_a_cache_added_to_the_game_is_no_tampering():
    from abkit.tree import TreeGame, from_nested
    from abkit.grader.tamper import _fingerprint, _snapshot, _tampered

    game = TreeGame(from_nested([[3, 12], [2, 4]]))
    before, fingerprint = _snapshot(), _fingerprint(game)
    game.expanded, game.cache = 1, {"B": 3}
    assert not _tampered(before, game, fingerprint)


@pytest.mark.parametrize("change", TAMPERINGS.values(), ids=TAMPERINGS.keys())
def test_every_change_to_what_the_game_holds_is_tampering(change):
    from abkit.tree import TreeGame, from_nested
    from abkit.grader.tamper import _fingerprint, _snapshot, _tampered

    game = TreeGame(from_nested([[3, 12], [2, 4]]))
    before, fingerprint = _snapshot(), _fingerprint(game)
    change(game)
    assert _tampered(before, game, fingerprint)


def test_a_board_game_given_an_answer_of_its_own_or_another_class_is_tampered_with():
    from abkit.tictactoe import TicTacToe
    from abkit.grader.tamper import _fingerprint, _snapshot, _tampered

    game = TicTacToe()
    before, fingerprint = _snapshot(), _fingerprint(game)
    assert not _tampered(before, game, fingerprint)
    game.actions = lambda state: []
    assert _tampered(before, game, fingerprint)
    del game.actions
    assert not _tampered(before, game, fingerprint)
    game.memo = {}  # a cache of the student's own: no answer of the game changes (abkit.tampering)
    assert not _tampered(before, game, fingerprint)
    game.__class__ = type("Other", (TicTacToe,), {})
    assert _tampered(before, game, fingerprint)



def test_a_request_the_fork_server_knows_is_read_unparsed_and_each_test_gets_a_game_of_its_own(monkeypatch):
    """The shared tests' requests, read once by the fork server (grader.runtest.know): a child takes such a request
    as the same data the bytes say, and each test a new game, equal to one built from the request, that no earlier
    test's changes reach; a request that only has a known one's id is parsed."""
    import abkit.grader.runtest as runtest
    from abkit.grader.rubric import load_rubric
    from abkit.tampering import held as _held
    from abkit.grader.tamper import _fingerprint
    from abkit.grader.testplan import TestPlan

    monkeypatch.setattr(runtest, "_KNOWN", {})
    monkeypatch.setattr(runtest, "_KNOWN_TREES", {})
    tests = [t for shared in TestPlan(load_rubric(), 0).shared.values() for t in shared]
    runtest.know([t.request for t in tests])
    trees = 0
    for test in tests:
        request = runtest._KNOWN[test.request]
        assert request == json.loads(test.request)
        if "tree" not in request:
            continue
        trees += 1
        first, built = runtest._game_for(request), runtest.game_from_request(request)
        assert _fingerprint(first) == _fingerprint(built) and first.tree == built.tree
        for change in ANY_TREE:  # whatever a test does to its game, the next test's is as built
            held = list(_held(first))
            change(first)
            second = runtest._game_for(request)
            assert _fingerprint(second) == _fingerprint(built) and second.tree == built.tree
            assert not set(map(id, _held(second))) & set(map(id, held))  # no mapping of the last one's
            first = second
    assert trees >= 40
    first = next(t for t in tests if t.tree is not None)
    other = next(t for t in tests if t.tree is not None and t.tree != first.tree)
    stranger = json.loads(first.request)  # equal to a known request, but not it: parsed, never given its parts
    assert runtest._game_for(stranger).tree == first.tree
    runtest._KNOWN_TREES[id(stranger)] = (object(), runtest._KNOWN_TREES[id(runtest._KNOWN[other.request])][1])
    assert runtest._game_for(stranger).tree == first.tree != other.tree  # another's parts under its id: not used


def test_the_fork_server_is_told_the_shared_requests_in_datagrams_it_can_take():
    """ForkServer.know sends parts of about KNOW_BYTES, each request once; a part longer in bytes than a datagram
    may be (Hangul is three bytes a character) is not sent: its children parse those requests themselves."""
    import threading

    from abkit.grader.sandbox import KNOW_BYTES, ForkServer

    class Socket:
        def __init__(self) -> None:
            self.sent: list[bytes] = []

        def send(self, data: bytes) -> int:
            self.sent.append(data)
            return len(data)

    server = object.__new__(ForkServer)
    server.lock, server._socket = threading.Lock(), Socket()
    small = [json.dumps({"op": "search", "id": k, "node": "A" * 1000}).encode() for k in range(200)]
    server.know(small + small[:10])
    told = [body.encode() for data in server._socket.sent for body in json.loads(data)["bodies"]]
    assert told == small and len(server._socket.sent) > 1
    assert all(len(data) <= 2 * KNOW_BYTES for data in server._socket.sent)
    server._socket.sent.clear()
    wide = json.dumps({"op": "search", "id": 1, "node": "가" * KNOW_BYTES}, ensure_ascii=False).encode()
    assert len(wide.decode()) <= 2 * KNOW_BYTES < len(wide)  # short in characters, too long in bytes
    server.know([wide])
    assert server._socket.sent == []


@pytest.mark.slow
def test_a_class_graded_with_the_shared_requests_known_to_the_fork_server_gets_the_same_results(tmp_path,
                                                                                               monkeypatch):
    from abkit.grader.sandbox import ForkServer

    folder, rubric = _narrow_class(tmp_path, students=2)
    known = grade_batch(folder, tmp_path / "known", rubric, jobs=1)
    monkeypatch.setattr(ForkServer, "know", lambda self, requests: None)
    parsed = grade_batch(folder, tmp_path / "parsed", rubric, jobs=1)

    def results(rows):
        return [(r["score"], [(t["name"], t["score"], t["output"]) for t in r["tests"]]) for r in rows]
    assert results(known.rows) == results(parsed.rows)
    assert known.rows[0]["score"] == known.rows[0]["extra_data"]["max_score"]


def test_a_batch_holds_no_per_test_results_and_its_rows_read_them_back(tmp_path):
    folder, rubric = _narrow_class(tmp_path, students=3)
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=2)
    assert isinstance(result.rows, Rows) and len(result.rows) == 3
    assert all("tests" not in row for row in result.rows.held)  # what the batch held while grading
    for k, row in enumerate(result.rows):
        saved = json.loads((tmp_path / "out" / "students" / f"s{k}" / "results.json").read_text(encoding="utf-8"))
        assert row == saved and row["tests"] and row["score"] == row["extra_data"]["max_score"]
    assert [r["extra_data"]["student"] for r in result.rows[1:]] == ["s1", "s2"]


def test_a_row_that_could_not_be_saved_is_kept_whole(tmp_path, monkeypatch):
    import abkit.grader.batch as batch
    folder, rubric = _narrow_class(tmp_path, students=2)
    real = batch.write_student

    def write_student(out, grade, rubric, lang):
        if grade.student == "s1":
            raise OSError("disk full")
        return real(out, grade, rubric, lang)

    monkeypatch.setattr(batch, "write_student", write_student)
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=1)
    unsaved = result.rows.held[1]
    assert isinstance(unsaved, Unsaved) and "tests" in unsaved and read_results(tmp_path / "out", "s1") is None
    assert result.rows[1] is unsaved and "OSError: disk full" in unsaved["extra_data"]["grader_error"]
    assert result.failed == ["s1"] and result.rows[0]["tests"]


def test_a_students_process_inherits_no_hidden_test_from_the_fork_server(tmp_path):
    """The fork server reads the shared requests once, and every student's process inherits what it read: only the
    tests students may see. A student that looked in the fork server's memory at import and raised what it found
    showed every hidden tree of every exercise in its own visible feedback, before any hidden test was sent."""
    import sys

    from abkit.coursefolder import current_course
    from abkit.fixture import load_fixture
    from abkit.grader.rubric import load_rubric

    (tmp_path / "rubric.yaml").write_text("fixtures: [public, hidden]\nrandom_trees: {count: 1}\ndirect_tests: 0\n"
                                          "exercises: {alphabeta: {values: 1}}\n", encoding="utf-8")
    peek = ("import json, sys\nknown = getattr(sys.modules['abkit.grader.runtest'], '_KNOWN', {})\n"
            "raise ValueError('KNOWN ' + json.dumps(sorted(json.dumps(r.get('tree', {}).get('utilities', {}), "
            "sort_keys=True) for r in known.values())))\n")
    (tmp_path / "class" / "peeks").mkdir(parents=True)
    (tmp_path / "class" / "peeks" / "alphabeta.py").write_text(peek, encoding="utf-8")
    grade_batch(tmp_path / "class", tmp_path / "out", load_rubric(tmp_path / "rubric.yaml"), jobs=1)
    feedback = (tmp_path / "out" / "students" / "peeks" / "feedback.md").read_text(encoding="utf-8")
    assert "KNOWN [" in feedback and "KNOWN []" not in feedback  # it did find the public trees
    hidden = [load_fixture(p) for p in sorted(current_course().hidden_fixtures.glob("*.yaml"))]
    leaves = [json.dumps({str(k): v for k, v in fx.tree.utilities.items()}, sort_keys=True)
              for fx in hidden if fx.tree is not None and "alphabeta" in fx.expected]
    assert leaves and not [x for x in leaves if json.dumps(x)[1:-1] in feedback or x in feedback]
    assert sys.modules.get("peeks") is None


SPOOF = ("import gc\nfor o in gc.get_objects():\n    if type(o) is dict and 'landlock' in o and 'seccomp' in o:\n"
         "        o.update(landlock=0, seccomp=False, hidden=False, reasons=['\\x1b[2Jall graded OK\\nrun curl | sh'])\n")


def test_a_student_who_edits_the_confinement_report_has_tampered_and_is_not_believed(tmp_path, capsys):
    """The report of how a process was confined is sent with its first reply, after the student's file was loaded:
    a student that rewrote it (escape sequences, a made-up failure) put its words on the instructor's terminal.
    The report is guarded as the harness is: edited, the student has tampered and the report is not used."""
    from abkit.cli.instructor.grade import report_defences
    from abkit.grader.sandbox import ForkServer

    if not ForkServer.available():
        pytest.skip("no fork server on this platform")
    folder, rubric = _narrow_class(tmp_path, students=3)
    honest = (folder / "s0" / "alphabeta.py").read_text(encoding="utf-8")
    (folder / "s1" / "alphabeta.py").write_text(SPOOF + honest, encoding="utf-8")
    (folder / "s2" / "alphabeta.py").write_text(SPOOF.replace("o.update(landlock=0, seccomp=False, hidden=False, ",
                                                              "o.update(") .replace("reasons=", "refused=") + honest,
                                               encoding="utf-8")  # a refused limit made up: as much an edit
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=1)
    rows = {row["extra_data"]["student"]: row for row in result.rows}
    assert rows["s0"]["score"] == rows["s0"]["extra_data"]["max_score"] and rows["s1"]["score"] == 0
    assert rows["s2"]["score"] == 0 and not result.defences.get("refused")
    assert "changed the game object it was given (or the kit's recorder" in \
        (tmp_path / "out" / "students" / "s1" / "feedback.md").read_text(encoding="utf-8")
    assert result.defences["reasons"] != ["\x1b[2Jall graded OK\nrun curl | sh"]
    report_defences({**result.defences, "landlock": 0, "reasons": ["\x1b[2Jall OK\nrun curl"]}, "en")
    said = capsys.readouterr()
    assert "\x1b" not in said.out + said.err and "all OK run curl" in said.err


def test_a_students_replies_together_are_capped(tmp_path, monkeypatch):
    """Each reply is capped (16 MiB), and the grader keeps a student's replies until it is scored: all of them
    together are capped too, else a student whose searches report hundreds of thousands of calls had the grader
    hold gigabytes. Over the cap, the student's process is ended with the reason in words."""
    import abkit.grader.sandbox as sandbox
    monkeypatch.setattr(sandbox, "MAX_REPLIES", 6_000)  # a correct student's replies are about 30 KB here
    folder, rubric = _narrow_class(tmp_path, students=1)
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=1)
    assert result.rows[0]["extra_data"]["status"] == "crashed"
    assert "its reports together are more than the 6000 bytes allowed for a student" in \
        (tmp_path / "out" / "students" / "s0" / "feedback.md").read_text(encoding="utf-8")


def test_a_reply_holds_only_what_the_grader_reads_and_a_bounded_number_of_values():
    """A signed reply may carry keys the grader never reads and millions of empty lists: each becomes an object the
    grader holds until the student is scored (16 MiB of '[],' held 350 MB). Unknown keys are dropped as the reply
    is read, in the reply and in its trace, and a reply of more than MAX_ITEMS values is refused before it is
    parsed."""
    from abkit.grader.replies import BadReply, envelope, search
    from abkit.grader.sandbox import MAX_ITEMS, decode_reply

    reply = envelope({"id": 1, "output": "", "junk": [[]] * 10, "trace": {"algorithm": "minimax", "root": "A",
                      "visited": ["A"], "evaluated": [], "calls": [], "action": None, "value": 3, "error": None,
                      "junk": [[]] * 10}})
    assert "junk" not in reply and "junk" not in search(reply, 2, "A", "minimax")["trace"]
    other = envelope({"id": 2, "answer": [[]] * 10, "loaded": True, "trace": dict(reply["trace"])})
    assert set(search(other, 2, "A", "minimax")) == {"id", "trace"}  # what another kind carries: never read here
    with pytest.raises(BadReply) as refused:
        decode_reply(b"[" + b"[]," * (MAX_ITEMS // 2) + b"[]]")
    assert refused.value.message.key == "faults.reply.items"
    assert decode_reply(b"[" + b"[]," * 1000 + b"[]]") == [[]] * 1001


def test_a_hidden_test_is_sent_only_when_the_tests_students_see_are_answered():
    """Tests go to the student's process ahead of their answers; a student that read the pipe during a public test
    found the hidden requests sent behind it and raised them in that test's visible feedback. A hidden test now
    waits until every test before it that students see has its answer."""
    from types import SimpleNamespace

    from abkit.grader.running import ExerciseRun, Runner
    from abkit.grader.sandbox import Limits

    class Pipe:
        def __init__(self):
            self.unanswered, self.log = [], []

        def send_ahead(self, request):
            self.log.append(("send", request, [r for r in self.unanswered]))
            self.unanswered.append(request)
            return True

        def receive(self, check=None):
            return {"answer": self.unanswered.pop(0).decode()}

    tests = [SimpleNamespace(kind="search", id=name, request=name.encode(), check=None, source=source)
             for name, source in (("p1", "public"), ("p2", "public"), ("h1", "hidden"), ("h2", "hidden"),
                                  ("r1", "random"))]
    pipe = Pipe()
    run = ExerciseRun("minimax", tests, file="minimax.py")
    Runner(Limits(), hidden=frozenset({"hidden"}))._answer_all(pipe, run)
    assert run.replies == {t.id: {"answer": t.id} for t in tests}
    waiting = {request.decode(): [r.decode() for r in behind] for _, request, behind in pipe.log}
    assert waiting == {"p1": [], "p2": ["p1"], "h1": [], "h2": ["h1"], "r1": ["h1", "h2"]}
