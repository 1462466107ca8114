"""The kit's five searches, one table: what each is called, where the student writes it, and how it searches.

Every part of the kit asks :class:`Algorithm` instead of spelling the names: the fixtures' ``expected:`` blocks,
``exercises/info.yaml`` and the grader's requests name an algorithm by its value (``"alphabeta"``), the student's
file by its exercise (``alphabeta_cutoff.py`` holds the cut-off search), and the search is called by its entry
function (contract §1). A member is a ``str`` equal to its value, so a name read from a file compares, hashes
and formats as that name:

>>> Algorithm("cutoff") is Algorithm.CUTOFF, Algorithm.CUTOFF == "cutoff", f"{Algorithm.CUTOFF}"
(True, True, 'cutoff')
>>> Algorithm.CUTOFF.exercise, Algorithm.CUTOFF.entry, Algorithm.CUTOFF.params
('alphabeta_cutoff', 'alpha_beta_cutoff_search', ('depth', 'eval_fn'))
>>> Algorithm.of_exercise("alphabeta_cutoff") is Algorithm.CUTOFF, Algorithm.named("negamax")
(True, None)
"""

from __future__ import annotations

from enum import Enum


class Algorithm(str, Enum):
    """One of the kit's searches; its value is the name fixtures, ``info.yaml`` and the grader's requests use."""

    #          value         exercise            entry                          prunes depth  chance iterative
    MINIMAX = ("minimax", "minimax", "minimax_decision", False, False, False, False)
    ALPHABETA = ("alphabeta", "alphabeta", "alpha_beta_search", True, False, False, False)
    CUTOFF = ("cutoff", "alphabeta_cutoff", "alpha_beta_cutoff_search", True, True, False, False)
    EXPECTIMAX = ("expectimax", "expectimax", "expectiminimax_decision", False, False, True, False)
    ORDERING = ("ordering", "ordering", "iterative_deepening_search", True, True, False, True)

    def __new__(cls, value: str, exercise: str, entry: str, prunes: bool, depth_limited: bool, chance: bool,
                iterative: bool) -> Algorithm:
        member = str.__new__(cls, value)
        member._value_ = value
        member._facts = (exercise, entry, prunes, depth_limited, chance, iterative)
        return member

    # a name, wherever it is shown or keyed: the value itself, on every Python the kit runs on
    __str__ = str.__str__
    __format__ = str.__format__
    __hash__ = str.__hash__

    @property
    def exercise(self) -> str:
        """The exercise that implements it: the student's ``exercises/<exercise>.py``, a rubric's exercise key."""
        return self._facts[0]

    @property
    def solution(self) -> str:
        """Its reference's file in the course's ``solutions/`` (it mirrors ``exercises/``)."""
        return f"{self._facts[0]}.py"

    @property
    def entry(self) -> str:
        """The function the student defines and the kit calls as ``entry(game, state, *params)``."""
        return self._facts[1]

    @property
    def prunes(self) -> bool:
        """Whether it cuts off (alpha-beta and the searches built on it); its MAX-VALUE/MIN-VALUE then take the
        window ``(alpha, beta)`` after the state. Minimax and expectimax search every child: what they did not
        reach they did not search, nothing was pruned."""
        return self._facts[2]

    @property
    def depth_limited(self) -> bool:
        """Whether it stops at a depth limit and values the states there with EVAL (a fixture's ``depth``)."""
        return self._facts[3]

    @property
    def params(self) -> tuple[str, ...]:
        """The arguments its entry and its MAX-VALUE/MIN-VALUE take after the state (and the window)."""
        return ("depth", "eval_fn") if self._facts[3] else ()

    @property
    def chance(self) -> bool:
        """Whether it searches chance nodes (CHANCE-VALUE): the only search a tree with chance levels is for."""
        return self._facts[4]

    @property
    def iterative(self) -> bool:
        """Whether it deepens iteratively with move ordering: a node is searched once per depth, the best action
        remembered from the last depth first (``ordered_actions``); its MAX-VALUE/MIN-VALUE take last the dict of
        remembered best actions."""
        return self._facts[5]

    @property
    def plain(self) -> bool:
        """Whether it searches a tree of MAX and MIN alone to its leaves (minimax, alpha-beta): no depth limit, no
        chance nodes; such a search runs on any drawn tree, and its MAX-VALUE/MIN-VALUE may be called on a subtree."""
        return not (self._facts[3] or self._facts[4])

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every algorithm's name, in the order of the exercises."""
        return tuple(member.value for member in cls)

    @classmethod
    def exercises(cls) -> tuple[str, ...]:
        """Every exercise's name (file stem), in order."""
        return tuple(member.exercise for member in cls)

    @classmethod
    def named(cls, name: object) -> Algorithm | None:
        """The algorithm called ``name``, or ``None`` when no algorithm is (a name read from an untrusted file)."""
        return cls._value2member_map_.get(name) if isinstance(name, str) else None

    @classmethod
    def of_exercise(cls, exercise: str) -> Algorithm:
        """The algorithm the exercise ``exercise`` implements; ``KeyError`` when there is no such exercise."""
        for member in cls:
            if member.exercise == exercise:
                return member
        raise KeyError(exercise)
