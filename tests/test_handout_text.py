"""What the handouts print: real ≤ ≥ − signs everywhere but code, captions that read, the coding section
naming every exercise, and no number typed into the words of the new sections."""

from __future__ import annotations

import re

import pytest

from abkit.handouts import words
from abkit.handouts.content import build_document
from abkit.info import load_info
from abkit.loading import EXERCISES

#: ASCII where print wants a sign: <=, >=, and a hyphen starting a number (not inside a word or a range)
ASCII_SIGN = re.compile(r"<=|>=|(?<![\w.\-−])-(?=[0-9∞])")
CODE_SPAN = re.compile(r"`[^`]*`")
DOCUMENTS = [("en", "handout", ""), ("ko", "handout", ""), ("en", "answer_key", ""), ("ko", "answer_key", ""),
             ("ko", "student_sheet", "kim-01"), ("en", "variant_key", "kim-01")]


def printed(document) -> list[str]:
    """Every text of ``document`` a reader sees, code blocks left out, inline code cut out."""
    texts = [document.title, document.subtitle]
    for section in document.sections:
        texts.append(section.title)
        for b in section.blocks:
            if b["kind"] != "code":
                texts += [b.get("text", ""), b.get("caption", "")] + b.get("items", []) + b.get("titles", [])
                texts += b.get("head", []) + [cell for row in b.get("rows", []) for cell in row]
            texts += re.findall(r">([^<>]+)</text>", b.get("svg", ""))
    return [CODE_SPAN.sub("", t) for t in texts if t]


@pytest.mark.parametrize("lang,edition,student", DOCUMENTS)
def test_relations_and_minus_signs_are_printed_as_such(lang, edition, student):
    document = build_document(lang, edition, student)
    found = [t for t in printed(document) if ASCII_SIGN.search(t)]
    assert found == []
    notes = [b["text"] for b in document.blocks("note")]
    assert edition != "handout" or any("≤" in n or "≥" in n for n in notes)  # the fixtures' notes, typeset
    assert edition != "handout" or any("−" in t for t in printed(document))


@pytest.mark.parametrize("lang,edition,student", DOCUMENTS)
def test_captions_read_as_sentences(lang, edition, student):
    for block in build_document(lang, edition, student).blocks():
        caption = block.get("caption", "")
        if caption:
            assert not re.search(r":\s*:", caption) and not caption.rstrip().endswith(":"), caption
            assert not re.search(r":[^.;]*:", caption), caption  # "Exercise 1: a tree: fill in"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_coding_section_names_every_exercise_with_what_it_asks(lang):
    section = next(s for s in build_document(lang, "handout").sections if s.id == "coding")
    text = " ".join(b.get("text", "") + " ".join(b.get("items", [])) for b in section.blocks)
    course = load_info(EXERCISES / "info.yaml")
    assert len(course.exercises) == 5
    for exercise in course.exercises:
        assert f"`{exercise.name}.py`" in text, exercise.name
        assert all(f"`{function}`" in text for function in exercise.functions), exercise.name


#: the words of the sections and exercises this issue added; their numbers come from fixtures (facts)
NEW = ("gfg_code.", "evaluation.", "features.", "nilsson.", "cutoff.nilsson.", "worked_ttt.", "mm.", "minroot.",
       "ttt.task", "ttt.answer", "ttt.summary", "horizon_ex.", "expectimax.", "efficiency.lab", "efficiency.deepening",
       "efficiency.fig_", "coding.", "ans.best", "worked_reorder.", "worked_aima.fig", "worked_gfg.fig", "ex1.task")
#: digits that are names or notation, not measurements: f_1, w_1, b^{3/4}, "depth 1" of iterative deepening,
#: "+1"/"−1" of a win and a loss in UTILITY, B1-style node names, file names, the code's own literals
ALLOWED = re.compile(r"(?:depth )?1, 2, \.\.\.|AIMA Figure 5\.2|AIMA 그림 5\.2|[\^_]\{[^}]*\}|\{[^{}]*\}|`[^`]*`|\b[A-D]\d\b|\bO\(.*?\)|depths? 1\b|깊이 1\b|[+−-] ?1\b|"
                     r"\b0\b(?= otherwise| 그 밖)|\bX\d|CHESS 4\.5|Section|\b1·|e = 0|e\(p\)")


def test_no_number_is_typed_into_the_new_sections():
    english = words.words("en")
    code = ("gfg_code.aima", "gfg_code.gfg", "coding.commands", "worked_ttt.code")
    keys = [k for k in english if k.startswith(NEW) and k not in code]
    assert len(keys) > 60
    typed = {k: re.findall(r"\d+", ALLOWED.sub("", english[k])) for k in keys}
    assert {k: v for k, v in typed.items() if v} == {}


@pytest.mark.parametrize("lang,student", [("en", ""), ("ko", ""), ("en", "kim-01")])
def test_every_question_of_an_exercise_is_answered_from_its_tree(lang, student):
    """The equality question gets its answer (the test that fires with v equal to its bound, what CS188 evaluates
    besides, the same root value), and the horizon answer names the EVALs that mislead, on each side, and no other."""
    from abkit.handouts.exercises import exercise_tree
    from abkit.handouts.trees import trace_of

    text = "\n".join(printed(build_document(lang, "answer_key" if not student else "variant_key", student=student)))
    tree = exercise_tree("ex2", student)
    aima, cs188 = trace_of(tree, "alphabeta"), trace_of(tree, "alphabeta", rule=False)
    more = [n for n in cs188.evaluated if n not in aima.evaluated]
    assert more and aima.value == cs188.value
    said = {"en": f"so alpha-beta also evaluates {', '.join(more)}", "ko": f"알파베타는 {', '.join(more)}도 평가합니다"}
    assert said[lang] in text
    if not student:
        high = {"en": "(B1: 6 against 2; EVAL against the true value), and under the other moves below it "
                      "(C1: 4 against 6, C2: 3 against 5)", "ko": "(B1: 6 대 2, EVAL 대 실제 값), 다른 수 아래에서는 실제 값보다 "
                                                                   "낮습니다(C1: 4 대 6, C2: 3 대 5)"}
        assert high[lang] in text and "B2: 5" not in text
