"""advisor/caches.py: the one object that holds every cache of the advisor, held by whoever
lives as long as it and handed down explicitly, never a module global (the bounded helper
itself: tests/solver/test_memory.py).

The solves are counted where the DP and the distributions run (a level of the target or
win DP, a level of a distribution's pass: the kernels' entry points), so "solved nothing"
is a count of 0, not a time."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from advisor.caches import ADVISORS_KEPT, POINTS_KEPT, VECTORS_KEPT, Caches
from advisor.objective import Objective
from advisor.play import GameSession
from advisor.record import parse_record
from advisor.request.advise_question import AdviseQuestion
from solver.memory import TurnMemory
from tests.advisor.test_play import LATE

ADVISOR = Path(__file__).resolve().parents[2] / "advisor"
CACHE_TYPES = frozenset({"Caches", "Bounded", "TurnMemory"})
"""The types whose instance is a cache (:mod:`advisor.caches`, :mod:`solver.memory`)."""
HANDED = {"advisor.ranking": {"TurnAdvisor", "advise"}, "advisor.analysis": {"analyze"}}
"""The library's entry points that make a fresh cache when given none: inside the advisor
each call hands its own down (``memory=``)."""


def test_one_object_holds_every_cache_with_its_bounds():
    fresh = Caches()
    assert {family: kept.size for family, kept in fresh.advisors.items()} == ADVISORS_KEPT
    assert (fresh.points.size, fresh.vectors.size) == (POINTS_KEPT, VECTORS_KEPT)
    other = Caches()
    assert other.points is not fresh.points and other.vectors is not fresh.vectors
    assert all(other.advisors[light] is not fresh.advisors[light] for light in ADVISORS_KEPT)
    assert isinstance(fresh, TurnMemory)  # what the solver is handed


# ------------------------------------------------------------------ no module holds one
def _called(node: ast.AST) -> str | None:
    """The name a call calls (``Caches()``, ``caches.Caches()``), else None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


def _run_on_import(tree: ast.Module) -> list[ast.AST]:
    """Every node evaluated when the module is imported: its statements and class bodies,
    and the default values and decorators of its functions (not their bodies)."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend([*node.args.defaults, *(d for d in node.args.kw_defaults if d),
                         *node.decorator_list])
            continue
        if isinstance(node, ast.Lambda):
            todo.extend([*node.args.defaults, *(d for d in node.args.kw_defaults if d)])
            continue
        found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def module_level_caches(source: str) -> list[tuple[int, str]]:
    """(line, type) of each cache made when a module is imported (a global, a class
    attribute, a default argument): one all its users would share."""
    return sorted((node.lineno, name) for node in _run_on_import(ast.parse(source))
                  if (name := _called(node)) in CACHE_TYPES)


def test_the_scan_finds_a_cache_made_on_import():
    assert module_level_caches("_process = Caches()\n") == [(1, "Caches")]
    assert module_level_caches("class A:\n    kept = solver.memory.Bounded(8)\n") == \
        [(2, "Bounded")]
    assert module_level_caches("def f(m=TurnMemory()):\n    return m\n") == [(1, "TurnMemory")]
    assert module_level_caches("def f():\n    return Caches()\n") == []  # made per call
    assert module_level_caches("x = field(default_factory=lambda: Bounded(2))\n") == []


def test_no_module_of_the_advisor_holds_a_cache():
    """Every cache is made by whoever lives as long as it (a command's run, the server's
    application, a worker process, a game) and handed down: none on import."""
    found = {str(path.relative_to(ADVISOR.parent)): made
             for path in sorted(ADVISOR.rglob("*.py"))
             if (made := module_level_caches(path.read_text(encoding="utf-8")))}
    assert found == {}


def _unhanded_calls(source: str, module: str) -> list[tuple[int, str]]:
    """(line, name) of each call in ``source`` (module ``module``) of an entry point of
    :data:`HANDED` without ``memory=``."""
    tree = ast.parse(source)
    local: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            parts = module.split(".")
            base = ".".join(parts[:len(parts) - node.level]) if node.level else ""
            source_module = f"{base}.{node.module}" if base else node.module
            for alias in node.names:
                if alias.name in HANDED.get(source_module, ()):
                    local[alias.asname or alias.name] = alias.name
    if module in HANDED:  # its own entry points, called by name
        local.update({name: name for name in HANDED[module]})
    return sorted((node.lineno, local[node.func.id]) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in local
                  and not any(k.arg == "memory" for k in node.keywords))


def test_the_scan_finds_a_call_that_hands_no_caches_down():
    source = ("from ..ranking import TurnAdvisor\nfrom ..analysis import analyze as review\n"
              "TurnAdvisor(card)\nreview(record, memory=m)\nreview(record)\n")
    assert _unhanded_calls(source, "advisor.cli.x") == [(3, "TurnAdvisor"), (5, "analyze")]


def test_the_advisor_hands_its_caches_to_every_question():
    """Inside the advisor no entry point is left to make a fresh cache of its own: a turn
    solved once is found again by the next question of the same owner."""
    found = {}
    for path in sorted(ADVISOR.rglob("*.py")):
        module = ".".join(path.relative_to(ADVISOR.parent).with_suffix("").parts)
        calls = _unhanded_calls(path.read_text(encoding="utf-8"), module)
        if calls:
            found[module] = calls
    assert found == {}


# ------------------------------------------------------------------ shared or not, counted
@pytest.fixture
def solves(monkeypatch, targets_at, tmp_path):
    """``solves()``: the levels of a target or win DP and of a distribution's pass run so
    far (no target table: every target question is solved)."""
    from solver.kernels import stats as stats_kernels
    from solver.kernels import target as target_kernels

    targets_at(tmp_path / "no-targets.ytargets")
    count = [0]
    for module, name in ((target_kernels, "vector_level"), (stats_kernels, "stats_level")):
        real = getattr(module, name)

        def counted(*args, _real=real, **kwargs):
            count[0] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return lambda: count[0]


CARD = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25"
OPPONENT = "aces=2,twos=6,threes=9,fours=16,fives=15,sixes=18,3k=22,4k=24,ss=30"


@pytest.mark.parametrize("objective", ["target", "opponent"])
def test_one_caches_handed_to_two_questions_solves_the_turn_once(objective, official_table,
                                                                 solves, memory):
    """Two rolls of one turn asked with the same caches: the first solves (the DP, and
    under a win objective the opponent's distribution), the second solves nothing and
    answers what a question with caches of its own answers."""
    options = {"target": "230"} if objective == "target" else {"opponent": OPPONENT}

    def ask(dice: str, rolls_left: int, caches: Caches) -> dict:
        question = AdviseQuestion.parse(dice_text=dice, card_text=CARD, rules_name="official",
                                        rolls_left=rolls_left, **options)
        return question.json(official_table, memory=caches)

    first = ask("22256", 2, memory)
    assert solves() > 0
    before = solves()
    second = ask("13456", 1, memory)
    assert solves() == before  # the turn and the opponent's distribution: kept
    alone = ask("13456", 1, Caches())
    assert solves() > before  # caches of its own: solved again
    assert second == alone and second != first


def test_two_sessions_with_their_own_caches_share_nothing(official_table, solves):
    """Two games at the same position, each with its caches: each solves the turn (the
    same levels), keeps its own advisor and vectors, and advises the same."""
    objective = Objective.for_target(200)
    games = [GameSession(parse_record(LATE), official_table, memory=Caches(),
                         objective=objective) for _ in range(2)]
    counts, lines = [], []
    for game in games:
        before = solves()
        lines.append(game.handle("33412"))
        counts.append(solves() - before)
    assert counts[0] > 0 and counts[1] == counts[0]
    assert lines[0] == lines[1]
    advisors = [game.advisor() for game in games]  # the turn's, solved
    assert advisors[0] is not advisors[1] and advisors[0].solved is not advisors[1].solved
    assert all(a.memory is game.memory for a, game in zip(advisors, games, strict=True))
    assert len(games[0].memory.vectors) == len(games[1].memory.vectors) == 1
    assert games[0].memory.vectors.get(next(games[0].memory.vectors.keys())) is not \
        games[1].memory.vectors.get(next(games[1].memory.vectors.keys()))
    # the next roll of the same game: nothing solved again
    before = solves()
    games[0].handle("")
    games[0].handle("333")
    assert solves() == before
