"""Shared fixtures: tables are built once per test session in a temporary folder, so
tests never read or write the user's cache in ``tables/``.

``make test`` runs the suite on two pytest-xdist workers (two processes, each with its own
tables folder and data folder). What the session fixtures compute (tables, statistics,
the why's figures, the small target table) is computed once per run all the same: the
first worker to need a figure computes it while holding a lock in the run's shared folder
and leaves it there; the other waits for the lock and reads the same result."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

SHARED_ENV = "YAHTZEE_TESTS_SHARED"
"""The run's shared folder: made by the process that starts the run (the xdist
controller, or the one process of a run without workers); the workers inherit it, and
make their own folders in it, so that removing it at the end removes everything."""

_TABLES = tempfile.mkdtemp(prefix="yahtzee-tables-", dir=os.environ.get(SHARED_ENV))
os.environ["YAHTZEE_TABLES"] = _TABLES
# the user's data folder (the practice history of `yahtzee train`), away from $HOME
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="yahtzee-data-",
                                               dir=os.environ.get(SHARED_ENV))


_OWNED = pytest.StashKey[str]()
_BASETEMP = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)  # before pytest reads --basetemp
def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    # not an xdist worker: this process owns the run
    shared = tempfile.mkdtemp(prefix="yahtzee-shared-")
    os.environ[SHARED_ENV] = shared
    config.stash[_OWNED] = shared
    if config.getoption("dist", "no") != "no" and config.option.basetemp is None:
        # a worker's temporary folders are under <basetemp>/popen-gw0/: with pytest's
        # default base (/tmp/pytest-of-USER/pytest-N) that is 10 characters longer than
        # in a run without workers, and the tests' paths would pass the 80 characters
        # that messages show whole; /tmp/pt-XXXXXXXX/popen-gw0 is shorter than that base
        config.option.basetemp = tempfile.mkdtemp(prefix="pt-")
        config.stash[_BASETEMP] = config.option.basetemp


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A passing run with workers leaves no temporary folders (a failing one keeps them)."""
    basetemp = session.config.stash.get(_BASETEMP, None)
    if basetemp is not None and exitstatus == 0:
        shutil.rmtree(basetemp, ignore_errors=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    shared = config.stash.get(_OWNED, None)
    if shared is not None:
        shutil.rmtree(shared, ignore_errors=True)
        for folder in (_TABLES, os.environ["XDG_DATA_HOME"]):
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _run_lock(name: str) -> Iterator[Path]:
    """Hold the run-wide lock of ``name``; yields its path in the shared folder."""
    shared = Path(os.environ[SHARED_ENV])
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared / name
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _publish(target: Path, write: Callable[[Path], Any]) -> None:
    """Make ``target`` atomically with ``write(path)`` (the other worker never sees half)."""
    partial = target.with_name(target.name + ".partial")
    write(partial)
    os.replace(partial, target)


def once_per_run_file(path: Path, make: Callable[[], Any], name: str | None = None) -> None:
    """Make sure the file ``path`` (in this worker's folders) exists: copied from the run's
    shared folder (as ``name``, by default the file's name) when a worker has made it
    already, else made here by ``make()`` (unless a test made it already) and shared."""
    with _run_lock(name or path.name) as shared:
        if not path.exists():
            if shared.exists():
                shutil.copyfile(shared, path)
                return
            make()
        if not shared.exists():
            _publish(shared, lambda partial: shutil.copyfile(path, partial))


def once_per_run_value(name: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``compute()`` (a dict of plain values and arrays) once per run, across workers."""
    with _run_lock(name) as shared:
        if shared.exists():
            with open(shared, "rb") as f:
                return pickle.load(f)
        value = compute()
        _publish(shared, lambda partial: partial.write_bytes(pickle.dumps(value)))
        return value


@pytest.fixture(scope="session")
def tables_dir() -> str:
    return _TABLES


@pytest.fixture(scope="session")
def table_of():
    """table_of(name) -> the solved table of any rule set (built once per run; its file
    in this session's tables folder)."""
    from solver.game.rules import get_rules
    from solver.table import default_table_path, get_table

    def of(rules_name: str):
        rules = get_rules(rules_name)
        once_per_run_file(default_table_path(rules), lambda: get_table(rules))
        return get_table(rules)

    return of


@pytest.fixture(scope="session")
def official_table(table_of):
    """The solved official table (built once per run)."""
    return table_of("official")


def _fields(stats) -> dict[str, Any]:
    """An :class:`~solver.stats.OptimalStats`'s fields but its rules (shared between
    workers; each rebuilds it with its own rules object)."""
    return {name: getattr(stats, name) for name in stats.__dataclass_fields__
            if name != "rules"}


@pytest.fixture(scope="session")
def stats_of(table_of):
    """stats_of(name) -> exact statistics of optimal play from a new game under any rule
    set (each computed once per run; tests read them, never change them)."""
    from solver.stats import OptimalStats, optimal_stats

    computed: dict = {}

    def of(rules_name: str):
        if rules_name not in computed:
            table = table_of(rules_name)
            fields = once_per_run_value(f"{rules_name}.stats",
                                        lambda: _fields(optimal_stats(table)))
            computed[rules_name] = OptimalStats(rules=table.rules, **fields)
        return computed[rules_name]

    return of


@pytest.fixture(scope="session")
def official_stats(stats_of):
    """Exact statistics of optimal play under the official rules (computed once)."""
    return stats_of("official")


@pytest.fixture(scope="session")
def greedy_turn_stats(official_table):
    """Exact statistics of greedy-turn (official rules): the optimal policy on a table of
    zeros, each state's value 0 where the official table has one (computed once)."""
    from solver.stats import OptimalStats, optimal_stats
    from solver.table import Table

    def compute() -> dict[str, Any]:
        zeros = np.where(np.isnan(official_table.values), np.nan, 0.0)
        return _fields(optimal_stats(Table(official_table.rules, zeros)))

    return OptimalStats(rules=official_table.rules,
                        **once_per_run_value("greedy-turn.stats", compute))


@pytest.fixture(scope="session")
def official_moments(official_table):
    """The per-state figures of the why, official rules (computed once per run)."""
    from solver.moments import default_moments_path, get_moments

    once_per_run_file(default_moments_path(official_table.rules),
                      lambda: get_moments(official_table))
    return get_moments(official_table)


@pytest.fixture(scope="session")
def small_targets(official_table, tmp_path_factory):
    """A target table of the official rules for every target up to 30 (low totals only:
    seconds to build; built once per run)."""
    from solver.target_table import solve_targets, write_targets

    path = tmp_path_factory.mktemp("targets") / "official.ytargets"
    once_per_run_file(path, lambda: write_targets(path, official_table, 30,
                                                  solve_targets(official_table, 30)),
                      name="official-up-to-30.ytargets")
    return path


@pytest.fixture
def targets_at(monkeypatch):
    """targets_at(path): target questions look for the target table at ``path`` (a copy
    to damage, or nothing); returns ``path``. Opened tables are forgotten before and
    after."""
    import solver.target_table as target_table

    def use(path):
        monkeypatch.setattr(target_table, "default_targets_path", lambda rules: path)
        target_table.forget_targets()
        return path

    yield use
    target_table.forget_targets()


@pytest.fixture
def memory():
    """A fresh :class:`advisor.caches.Caches` for one test: what its questions solve and
    keep (turn advisors, opponents' distributions, a game's vectors), shared by the
    questions it is handed to and by nothing else (no module holds one)."""
    from advisor.caches import Caches

    return Caches()


@pytest.fixture(scope="module")
def module_memory():
    """One :class:`advisor.caches.Caches` for a module's tests that ask about the same
    games (a game played by its session, then reviewed): what one test solved, the next
    reads, as a process would keep it."""
    from advisor.caches import Caches

    return Caches()


# ------------------------------------------------------------ two workers (pytest-xdist)
HEAVY = (
    "tests/solver/target/test_pins.py::test_new_game_p_target[yatzy]",
    "tests/advisor/cli/stats/test_simulate_records.py::test_greedy_turn_mean_loss_is_the_gap_to_optimal",
    "tests/web/page/test_chase.py::test_playing_to_win_from_turn_one_never_blocks",
    "tests/advisor/objective/test_tournament.py::"
    "test_stats_from_nine_open_boxes_gives_tournament_plays_distribution_too",
    "tests/advisor/objective/test_tournament.py::"
    "test_simulated_tournament_play_is_within_three_standard_errors_of_the_exact_share",
    "tests/solver/target/test_pins.py::test_new_game_p_target[free-joker]",
    "tests/solver/simulate/test_target.py",
    "tests/solver/target/test_pins.py::test_new_game_p_target[official]",
    "tests/solver/target/test_pins.py::test_new_game_p_target[no-bonus]",
    "tests/advisor/cli/test_base.py::test_no_bad_number_name_or_stream_allocates_100_mb",
    "tests/solver/simulate/test_simulate.py::test_the_readme_strategy_figures",
    "tests/solver/target/test_pins.py::test_new_game_p_target[two-rolls]",
    "tests/test_docs.py",
    "tests/solver/target_table/test_checks.py::test_a_simulation_never_reads_an_index_out_of_range",
    "tests/advisor/test_record_file.py::test_moves_keep_comments_line_ends_and_the_byte_order_mark",
    "tests/advisor/cli/test_input.py::test_every_command_with_closed_stdin_and_with_dev_zero"
    "[args11-0]",
    "tests/test_install.py",
    "tests/solver/simulate/test_judge.py::test_target_strategies_are_judged",
    "tests/advisor/cli/test_base.py::test_every_command_with_a_closed_stream[1]",
    "tests/solver/stats/test_stats.py::test_other_rule_sets[yatzy]",
    "tests/solver/stats/test_second_moments.py::test_sd_agrees_with_the_second_moment_recursion",
    "tests/solver/test_warmup.py::test_every_kernel_compiles_once",
    "tests/solver/target_table/test_simulate.py",
    "tests/advisor/cli/stats/test_stats.py::test_stats_json_on_another_rule_set",
    "tests/solver/simulate/test_simulate.py::test_greedy_turn_matches_its_exact_mean_and_the_published_greedy",
    "tests/solver/target_table/test_target_table.py::"
    "test_every_turn_read_from_the_table_is_the_solved_one",
)
"""The longest units of work, longest first (as measured in a whole run): under ``--dist
loadgroup`` they are handed out first, so that the two workers start on them and the
short tests fill in after. A stale entry changes only the order."""

TOGETHER = ("tests/test_install.py", "tests/solver/simulate/test_target.py",
            "tests/solver/target_table/test_simulate.py", "tests/test_docs.py",
            "tests/advisor/why/test_why.py", "tests/web/test_engine.py",
            "tests/test_ranked_lists.py")
"""Modules whose tests share an expensive module-scoped fixture: each is one unit of work
(one worker runs all its tests, so the fixture is made once)."""


def _unit(nodeid: str) -> str:
    """The unit of work of a test: its module when the module is in :data:`TOGETHER`."""
    module = nodeid.split("::", 1)[0]
    return module if module in TOGETHER else nodeid


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (``make test``) the units of :data:`HEAVY` come first (a
    run without workers keeps the usual order). xdist sets a worker's ``dist`` to "no"
    and tells it of loadgroup by its own ``loadgroup`` option."""
    if not config.getoption("loadgroup", False):
        return
    rank = {unit: i for i, unit in enumerate(HEAVY)}
    items.sort(key=lambda item: rank.get(_unit(item.nodeid), len(HEAVY)))


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: a plain pytest lacks it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``: the units of :func:`_unit`, handed out in the workers'
    order (the longest first). Not xdist's own groups: it names them by appending to each
    test's id, which pytest 9.2 no longer lets a plugin change (every test was a unit of
    its own, the modules of TOGETHER made their fixtures on both workers), and it hands
    out the groups with the most tests first."""
    if config.getoption("dist", "no") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Units(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    config.option.loadscopereorder = False
    return Units(config, log)
