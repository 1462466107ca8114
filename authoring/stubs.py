r"""Student stubs generated from the reference solutions.

A solution marks what students must write with ``# BEGIN SOLUTION`` /
``# END SOLUTION`` lines. In the stub, a marked block inside a function becomes
a TODO (in English and Korean) and ``raise NotImplementedError``; a marked block
at module level (``PRUNE_ON_EQUALITY``) disappears. The module docstring keeps
its first line and tells the student what to do and what the game's methods
return (PLAYER is ``game.to_move``: ``"MAX"`` or ``"MIN"``), with an example on a
tiny tree that runs as a doctest (:data:`EXAMPLE`); every function keeps its
docstring, which restates the pseudocode. ``abkit stubs --check`` and a test
fail when a committed stub differs from what :func:`make_stub` writes.

>>> solution = "def f(x):\n    'F(x).'\n    # BEGIN SOLUTION\n    return x\n    # END SOLUTION\n"
>>> print(make_stub(solution, header=[], todo=["TODO: {function}."]), end="")
def f(x):
    'F(x).'
    # TODO: f.
    raise NotImplementedError("f")
"""

from __future__ import annotations

import re
from pathlib import Path

from abkit.i18n import LANGS, t
from abkit.korean import format_ko

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
#: the game's methods on a tiny tree, a doctest in every stub's docstring (after the words of ``stubs.game``)
EXAMPLE = """\
>>> from abkit.tree import TreeGame, from_nested
>>> game = TreeGame(from_nested([[3, 12], [2, 4]]))
>>> game.to_move("A"), game.actions("A"), game.result("A", "B"), game.to_move("B"), game.terminal_test("B1"), game.utility("B1")
('MAX', ['B', 'C'], 'B', 'MIN', True, 3)"""
_DEF = re.compile(r"^(\s*)def\s+(\w+)\s*\(")
#: the pseudocode's cut-off tests, as the docstrings write them (either rule's comparison)
_CUT_TESTS = (re.compile(r"(if v )(>=|>)( beta then return v)"), re.compile(r"(if v )(<=|<)( alpha then return v)"))


class MarkerError(ValueError):
    """A solution whose ``BEGIN SOLUTION`` / ``END SOLUTION`` markers do not pair up."""


def for_rule(text: str, rule: str) -> str:
    """``text`` with the pseudocode's cut-off tests written for the course's ``rule``: ``if v >= beta then return v``
    and ``if v <= alpha then return v`` under AIMA's, ``v > beta`` and ``v < alpha`` under CS188's.

    >>> for_rule("        if v >= beta then return v", "cs188"), for_rule("if v < alpha then return v", "aima")
    ('        if v > beta then return v', 'if v <= alpha then return v')
    """
    strict = rule != "aima"
    text = _CUT_TESTS[0].sub(lambda m: m.group(1) + (">" if strict else ">=") + m.group(3), text)
    return _CUT_TESTS[1].sub(lambda m: m.group(1) + ("<" if strict else "<=") + m.group(3), text)


def make_stub(source: str, header: list[str] | None = None, todo: list[str] | None = None, rule: str = "aima") -> str:
    """The stub for solution ``source``: marked blocks replaced, module docstring rewritten, the pseudocode's
    cut-off tests written for the course's ``rule`` (:func:`for_rule`).

    ``header``: the lines that replace the module docstring's body; ``todo``: the
    comment lines put where each function's solution was (``{function}`` is
    filled in). Both default to the catalogue's words in every language.
    """
    header = header if header is not None else [*(t("stubs.header", lang) for lang in LANGS),
                                                 *(t("stubs.game", lang) for lang in LANGS), EXAMPLE]
    todo = todo if todo is not None else [t("stubs.todo", lang) for lang in LANGS]
    lines = _replace_blocks(source.splitlines(), todo)
    return for_rule(_squeeze_blank_lines(_rewrite_docstring(lines, header)), rule)


def _replace_blocks(lines: list[str], todo: list[str]) -> list[str]:
    out: list[str] = []
    function, inside = None, None
    for number, line in enumerate(lines, 1):
        match = _DEF.match(line)
        if match and inside is None:
            function = match.group(2)
        stripped = line.strip()
        if stripped == BEGIN:
            if inside is not None:
                raise MarkerError(f"line {number}: {BEGIN} inside another block")
            inside = line[: len(line) - len(line.lstrip())]
            if inside:
                out += [f"{inside}# {format_ko(text, function=function)}" for text in todo]
                out.append(f'{inside}raise NotImplementedError("{function}")')
        elif stripped == END:
            if inside is None:
                raise MarkerError(f"line {number}: {END} without {BEGIN}")
            inside = None
        elif inside is None:
            out.append(line)
    if inside is not None:
        raise MarkerError(f"{BEGIN} is never closed")
    return out


def _rewrite_docstring(lines: list[str], header: list[str]) -> list[str]:
    """Keep the module docstring's first line; its body becomes ``header``."""
    if not lines or not lines[0].startswith('"""'):
        return lines
    first = lines[0]
    if len(first.rstrip()) > 6 and first.rstrip().endswith('"""'):
        first, end = first.rstrip()[:-3], 0
    else:
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip().endswith('"""'))
    body = [part for text in header for part in ("", *text.splitlines())]
    return [first, *body, '"""', *lines[end + 1:]]


def _squeeze_blank_lines(lines: list[str]) -> str:
    """At most two blank lines in a row (PEP 8 between functions), one final newline."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and len(out) >= 2 and not out[-1].strip() and not out[-2].strip():
            continue
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def stub_pairs(solutions: Path, exercises: Path, names: list[str], rule: str = "aima") -> list[tuple[Path, str]]:
    """For each exercise name: its stub's path and the text the generator writes there under the course's ``rule``."""
    return [(exercises / f"{n}.py", make_stub((solutions / f"{n}.py").read_text(encoding="utf-8"), rule=rule))
            for n in names]


def drifted(pairs: list[tuple[Path, str]]) -> list[Path]:
    """The stubs whose file is missing or differs from the generated text."""
    return [path for path, text in pairs if not path.is_file() or path.read_text(encoding="utf-8") != text]
