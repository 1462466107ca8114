"""``abkit`` as a user runs it: exit statuses and the exact words on the screen."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from abkit.fixture import load_fixture
from abkit.i18n import t
from abkit.loading import PUBLIC_FIXTURES
from abkit.cli.arguments import build_parser
from abkit.cli.groups import commands
from abkit.cli.main import plain_check

COMMANDS = tuple(commands())

AIMA = PUBLIC_FIXTURES / "aima-fig-5-2.yaml"


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("argv", [["check"], ["check", "alphabeta"], ["check", "no_such"], ["check", ""],
                                  ["check", "알파베타"], ["check", "alpha beta"]], ids=repr)
def test_a_plain_check_is_read_as_argparse_reads_it(argv, lang):
    assert vars(plain_check(argv, lang)) == vars(build_parser(lang, "check").parse_args(argv))


@pytest.mark.parametrize("argv", [[], ["check", "-h"], ["check", "--all"], ["check", "alphabeta", "--all"],
                                  ["check", "a", "b"], ["--lang", "ko", "check"], ["check", "--"], ["check", "-"],
                                  ["check", "--lang=ko"], ["hint"], ["checks"], ["CHECK"]], ids=repr)
def test_every_other_command_line_is_read_by_argparse(argv):
    assert plain_check(argv, "en") is None


def test_trace_marks_c2_and_c3_as_pruned(abkit):
    run = abkit("trace", AIMA, "--lang", "en")
    assert run.status == 0
    lines = run.out.splitlines()
    pruned = [line for line in lines if "pruned" in line and "value" not in line]
    assert [line.split("✂")[0].split()[-1] for line in pruned] == ["C2", "C3"]
    assert any("C  MIN  [α=3, β=+∞]  → 2" in line and "cut: 2 ≤ α=3" in line for line in lines)
    assert lines[-1] == "value 3 · action B · nodes 11 · states evaluated 7 · pruned: C2, C3"


def test_trace_json_has_exactly_the_contract_keys(abkit):
    run = abkit("trace", AIMA, "--json")
    assert run.status == 0
    data = json.loads(run.out)
    assert data == {
        "value": 3, "action": "B",
        "visited": ["A", "B", "B1", "B2", "B3", "C", "C1", "D", "D1", "D2", "D3"],
        "evaluated": ["B1", "B2", "B3", "C1", "D1", "D2", "D3"],
        "pruned": ["C2", "C3"], "nodes": 11,
    }


def test_trace_minimax_and_rule_override(abkit):
    run = abkit("trace", PUBLIC_FIXTURES / "rule-split-min.yaml", "--json", "--rule", "cs188")
    assert json.loads(run.out)["pruned"] == []
    run = abkit("trace", AIMA, "--algorithm", "minimax", "--json")
    assert json.loads(run.out)["nodes"] == 13
    run = abkit("trace", PUBLIC_FIXTURES / "rule-split-min-cs188.yaml", "--lang", "en")
    assert "CS188 rule" in run.out


def test_trace_in_korean(abkit):
    run = abkit("trace", AIMA, "--lang", "ko")
    assert run.status == 0
    assert "AIMA 그림 5.2 · 알파베타 탐색" in run.out
    assert "가지치기됨" in run.out and "값 3 · 행동 B" in run.out


def test_trace_of_a_terminal_root(abkit):
    run = abkit("trace", PUBLIC_FIXTURES / "terminal-root.yaml", "--lang", "en")
    assert run.status == 0 and "value 7 · action -" in run.out


def test_verify_passes_on_every_shipped_fixture(abkit):
    run = abkit("fixtures", "verify", "--lang", "en")
    assert run.status == 0
    assert run.out.strip().endswith("0 disagreements, 0 files could not be read.")


def test_verify_names_file_and_field_of_a_changed_expectation(abkit, fixture_copy):
    path = fixture_copy("public/aima-fig-5-2.yaml")
    path.write_text(path.read_text(encoding="utf-8").replace("pruned: [C2, C3]", "pruned: [C3]"), encoding="utf-8")
    run = abkit("fixtures", "verify", path, "--lang", "en")
    assert run.status == 1
    line = load_fixture(path).lines["expected.alphabeta.pruned"]
    assert f'{path}:{line}: expected.alphabeta.pruned: expected ["C3"], got ["C2", "C3"]' in run.out
    assert "1 fixture verified: 1 disagreement, 0 files" in run.out


def test_verify_reports_every_field_and_file(abkit, fixture_copy):
    a = fixture_copy("public/gfg-alpha-beta.yaml")
    a.write_text(a.read_text(encoding="utf-8").replace("value: 5, action: B, nodes: 15", "value: 6, action: C, nodes: 15"),
                 encoding="utf-8")
    run = abkit("fixtures", "verify", a.parent, "--lang", "en")
    assert run.status == 1
    assert "expected.minimax.value: expected 6, got 5" in run.out
    assert 'expected.minimax.action: expected "C", got "B"' in run.out


def test_malformed_fixture_is_path_line_and_status_2(abkit, write):
    path = write("tree:\n  A:\n    B: 1\n    B: 2\n")
    for command in (("trace", path), ("fixtures", "verify", path)):
        run = abkit(*command, "--lang", "en")
        assert run.status == 2
        assert f"{path}:4: the key 'B' appears twice" in run.err
        assert "Traceback" not in run.err + run.out


def test_malformed_fixture_from_a_real_process_has_no_traceback(write):
    path = write("tree: [1, 2\n")
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "trace", str(path), "--lang", "ko"],
                          capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:2: 올바른 YAML이 아닙니다")
    assert "Traceback" not in proc.stderr


def test_verify_without_fixtures_is_a_usage_error(abkit, tmp_path):
    run = abkit("fixtures", "verify", tmp_path, "--lang", "en")
    assert run.status == 2 and "no fixture files" in run.err


def test_generate_writes_fixtures_that_verify(abkit, tmp_path):
    run = abkit("fixtures", "generate", "-b", "3", "-d", "3", "--ordering", "best", "--distinct",
                "--min", "-50", "--max", "50", "--seed", "4", "--count", "2", "--out", tmp_path, "--lang", "en")
    assert run.status == 0
    written = sorted(tmp_path.glob("*.yaml"))
    assert [p.name for p in written] == ["random-b3-d3-best-s4.yaml", "random-b3-d3-best-s5.yaml"]
    assert abkit("fixtures", "verify", tmp_path).status == 0
    fx = load_fixture(written[0])
    assert len(fx.expected["alphabeta"]["evaluated"]) == 3 ** 2 + 3 ** 1 - 1


def test_generate_is_reproducible(abkit, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        abkit("fixtures", "generate", "-b", "2", "-d", "4", "--seed", "9", "--rule", "cs188", "--root", "min", "--out", out)
    assert (a / "random-b2-d4-random-s9.yaml").read_text() == (b / "random-b2-d4-random-s9.yaml").read_text()


@pytest.mark.parametrize("args,words", [
    (("-b", "0", "-d", "2"), "--branching must be at least 1"),
    (("-b", "10", "-d", "7"), "that tree would have more than 50000 nodes, the most a graded search can report"),
    (("-b", "4", "-d", "8"), "more than 50000 nodes"),
    (("-b", "2", "-d", "1000000"), "more than 50000 nodes"),  # at once, not after summing a million levels
    (("-b", "3", "-d", "3", "--distinct"), "27 distinct values are needed"),
    (("-b", "3", "-d", "3", "--ordering", "worst", "--min", "0", "--max", "5"), "distinct values are needed"),
    (("-b", "2", "-d", "2", "--min", "5", "--max", "1"), "is empty"),
])
def test_generate_refuses_impossible_trees(abkit, tmp_path, args, words):
    run = abkit("fixtures", "generate", *args, "--out", tmp_path, "--lang", "en")
    assert run.status == 2 and words in run.err


def test_usage_errors_exit_2_in_the_users_language(abkit):
    """One line in the user's language, naming the help of the command at fault (argparse would print the usage)."""
    run = abkit("trace", "--lang", "ko")
    assert run.status == 2 and run.err == "오류: 다음 인자가 필요합니다: FILE (쓰는 법: `abkit trace --help`)\n"
    run = abkit("trace", AIMA, "--algorithm", "negamax", "--lang", "en")
    assert run.status == 2 and run.err.startswith("error: argument --algorithm: invalid choice: 'negamax'")
    assert run.err.endswith("(`abkit trace --help` shows how to write it).\n") and run.err.count("\n") == 1
    run = abkit("check", "--bogus", "--lang", "en")
    assert (run.status, run.err) == (2, "error: unrecognized arguments: --bogus (`abkit check --help` shows how to "
                                        "write it).\n")
    assert abkit().status == 2


@pytest.mark.parametrize("lang, said", [
    ("en", "error: abkit has no command 'grde' (its commands: {}; `abkit COMMAND --help` tells more).\n"),
    ("ko", "오류: 없는 명령입니다: grde (쓸 수 있는 명령: {}. 자세한 설명은 `abkit 명령 --help`)\n")])
def test_a_mistyped_command_is_one_line_naming_the_commands(abkit, lang, said):
    run = abkit("grde", "x", "--lang", lang)
    assert (run.status, run.out, run.err) == (2, "", said.format(", ".join(COMMANDS)))
    run = abkit("--lang", "xx", "check")  # a language the kit does not speak: said in the locale's
    assert run.status == 2 and run.err.count("\n") == 1 and "'xx'" in run.err


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_command_has_help_text_in_both_languages(lang):
    parser = build_parser(lang)
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(COMMANDS) <= set(sub.choices)

    def check(name, command):
        assert command.description, name
        for action in command._actions:
            assert action.help, f"{name} {action.dest}"
            if isinstance(action.choices, dict):
                for child, subcommand in action.choices.items():
                    check(f"{name} {child}", subcommand)

    check("abkit", parser)
    assert parser.description == t("cli.description", lang)


def test_python_dash_m_grader_and_the_console_script():
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "--help", "--lang", "en"], capture_output=True, text=True)
    assert proc.returncode == 0 and "abkit" in proc.stdout and "trace" in proc.stdout


def test_lang_default_comes_from_the_locale(monkeypatch, abkit):
    monkeypatch.setenv("ABKIT_LANG", "ko_KR.UTF-8")
    assert "알파베타 탐색" in abkit("trace", AIMA).out
    monkeypatch.setenv("ABKIT_LANG", "C")
    assert "alpha-beta search" in abkit("trace", AIMA).out


def test_expect_adds_windows_once_and_refuses_flow_style(abkit, tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("tree: [[3, 12], [2, 4]]\nexpected:\n  alphabeta:\n    value: 3\n    action: B\n", encoding="utf-8")
    run = abkit("fixtures", "expect", path, "--lang", "en")
    assert run.status == 0 and f"added windows to {path}" in run.out
    assert load_fixture(path).expected["alphabeta"]["windows"]["C1"] == [3, float("inf"), 2]
    before = path.read_text(encoding="utf-8")
    assert abkit("fixtures", "expect", path, "--lang", "en").out.startswith("nothing to write: 1 fixture has")
    assert path.read_text(encoding="utf-8") == before
    assert abkit("fixtures", "verify", path).status == 0
    flow = tmp_path / "flow.yaml"
    text = "tree: [1, 2]\nexpected:\n  alphabeta: {value: 2, action: C}\n"
    flow.write_text(text, encoding="utf-8")
    run = abkit("fixtures", "expect", flow, "--lang", "en")
    assert run.status == 2 and "block style" in run.err and flow.read_text(encoding="utf-8") == text
