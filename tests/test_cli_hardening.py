"""Issue 11 through the CLI, where a user meets each class: writes that would destroy what
is at a path, tracebacks, a cache that cannot be written, lenient input, litter."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_process import YAHTZEE
from click.testing import CliRunner, Result

from advisor.cli import cli
from solver.formats.tablefile import read_header, write_table
from solver.game.rules import get_rules
from solver.game.states import reachable_states
from solver.table import clear_table_cache


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so commands read it (no build, no note)."""


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def one_error_line(result: Result) -> str:
    """Exit 2, one ``Error:`` line of at most ~200 characters, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line.rsplit("\r", 1)[-1].strip() for line in result.stderr.split("\n")]
    lines = [line for line in lines if line]  # a progress bar redraws itself with \r
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    return lines[0]


def sample_table(path: Path, rules_name: str = "official") -> Path:
    import numpy as np

    rules = get_rules(rules_name)
    values = np.where(reachable_states(rules), 100.0, np.nan)
    write_table(path, rules, values)
    return path


# ---------------------------------------------------------------- writes

@pytest.mark.parametrize("command", [["solve"], ["export", "--format", "npy"],
                                     ["export", "--format", "csv"]])
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_devices_fifos_symlinks_and_folders_are_never_replaced(tmp_path: Path, command,
                                                               force) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "real.ytable").write_bytes(b"keep")
    (tmp_path / "link").symlink_to(tmp_path / "real.ytable")
    (tmp_path / "dir").mkdir()
    targets = {"/dev/full": "a device", "/dev/null": "a device", str(tmp_path / "fifo"): "FIFO",
               str(tmp_path / "link"): "symbolic link", str(tmp_path / "dir"): "folder",
               f"{tmp_path}/dir/": "folder", f"{tmp_path}/new/": "names a folder"}
    for target, kind in targets.items():
        before = os.lstat(target.rstrip("/")) if os.path.lexists(target.rstrip("/")) else None
        line = one_error_line(run(*command, "--out", target, *force))
        assert kind in line, line
        if before is not None:
            after = os.lstat(target.rstrip("/"))
            assert (after.st_ino, stat.S_IFMT(after.st_mode)) == \
                (before.st_ino, stat.S_IFMT(before.st_mode))
    assert (tmp_path / "real.ytable").read_bytes() == b"keep"
    assert sorted(os.listdir(tmp_path)) == ["dir", "fifo", "link", "real.ytable"]
    assert os.listdir(tmp_path / "dir") == []


def test_export_onto_a_table_is_refused_unless_forced(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    before = table.read_bytes()
    line = one_error_line(run("export", "--format", "npy", "--out", str(table)))
    assert "--force" in line
    assert table.read_bytes() == before
    assert run("export", "--format", "npy", "--out", str(table), "--force").exit_code == 0
    assert table.read_bytes()[:6] == b"\x93NUMPY"


def test_export_replaces_an_earlier_export_of_its_format(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    for _ in range(2):
        result = run("export", "--format", "csv", "--out", str(out))
        assert result.exit_code == 0, result.stderr
    assert "--force" in one_error_line(run("export", "--format", "npy", "--out", str(out)))
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    assert "--force" in one_error_line(run("export", "--format", "csv", "--out", str(notes)))
    assert notes.read_text() == "mine"


def test_solve_onto_a_table_of_other_rules_is_refused_before_building(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    before = table.read_bytes()
    line = one_error_line(run("solve", "--rules", "two-rolls", "--out", str(table)))
    assert "--force" in line and str(table) in line
    assert table.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    one_error_line(run("solve", "--out", str(notes)))
    assert notes.read_text() == "mine"


def test_solve_rebuilds_a_table_of_the_same_rules_in_place(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "two-rolls.ytable", "two-rolls")
    result = run("solve", "--rules", "two-rolls", "--out", str(table), "--json")
    assert result.exit_code == 0, result.stderr
    assert read_header(table)["rules"] == "two-rolls"
    assert os.listdir(tmp_path) == ["two-rolls.ytable"]


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_exports_follow_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        result = run("export", "--format", "npy", "--out", str(tmp_path / "t.npy"))
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(os.stat(tmp_path / "t.npy").st_mode) == 0o666 & ~umask


# ---------------------------------------------------------------- unusable tables

def test_hint_for_a_table_of_other_rules_does_not_overwrite_it(tmp_path: Path) -> None:
    yatzy = sample_table(tmp_path / "yatzy.ytable", "yatzy")
    line = one_error_line(run("advise", "--dice", "22256", "--table", str(yatzy)))
    assert "--rules yatzy" in line and f"--out {yatzy}" not in line
    assert "yahtzee solve --rules official" in line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_hint_for_a_device_never_points_the_rebuild_at_it(device: str) -> None:
    line = one_error_line(run("advise", "--dice", "22256", "--table", device))
    assert "a device" in line and "--out" not in line


@pytest.mark.parametrize("shape", ["5", "null", "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
                                   '"8192"', "[8192, 64, 2.5]"])
def test_malformed_header_field_through_the_cli(tmp_path: Path, shape: str) -> None:
    table = sample_table(tmp_path / "official.ytable")
    raw = table.read_bytes()
    end = raw.index(b"\n")
    header = raw[:end].replace(b"[8192, 64, 2]", shape.encode())
    table.write_bytes(header + raw[end:])
    line = one_error_line(run("advise", "--dice", "22256", "--table", str(table)))
    assert str(table) in line


def test_nan_in_a_table_with_a_valid_checksum_is_refused(tmp_path: Path) -> None:
    import numpy as np

    rules = get_rules("official")
    values = np.where(reachable_states(rules), 100.0, np.nan)
    values[0, 0, 0] = np.nan
    write_table(tmp_path / "nan.ytable", rules, values)
    for command in (["advise", "--dice", "22256"], ["simulate", "--games", "10"]):
        line = one_error_line(run(*command, "--table", str(tmp_path / "nan.ytable")))
        assert "NaN" in line


def test_sparse_3gb_table_is_refused_from_its_header(tmp_path: Path) -> None:
    table = sample_table(tmp_path / "official.ytable")
    with open(table, "r+b") as f:
        f.truncate(3 * 2**30)
    line = one_error_line(run("advise", "--dice", "22256", "--table", str(table)))
    assert "extra bytes" in line


# ---------------------------------------------------------------- a cache that cannot be written

@pytest.fixture
def unwritable_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("YAHTZEE_TABLES", str(blocker / "tables"))
    clear_table_cache()
    yield
    clear_table_cache()


@pytest.mark.parametrize("command", [
    ["advise", "--dice", "22256"], ["strategy", "--card", "twos=6", "--rolls-left", "0"],
    ["simulate", "--games", "20"], ["export", "--format", "npy", "--out", "{tmp}/t.npy"],
])
def test_commands_work_when_the_cache_cannot_be_written(unwritable_cache, tmp_path: Path,
                                                        command) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert "in memory" in result.stderr
    assert result.stdout or (tmp_path / "t.npy").is_file()


def test_read_only_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        probe = folder / "probe"
        try:
            probe.write_text("x")
            probe.unlink()
            pytest.skip("running as root: a read-only mode does not stop writes")
        except PermissionError:
            pass
        monkeypatch.setenv("YAHTZEE_TABLES", str(folder))
        clear_table_cache()
        result = run("advise", "--dice", "22256")
        assert result.exit_code == 0 and "in memory" in result.stderr
        assert "not writable" in one_error_line(run("solve"))
    finally:
        folder.chmod(0o755)
        clear_table_cache()


# ---------------------------------------------------------------- killed during a write

KILLED_BUILD = textwrap.dedent("""
    import os, sys, time
    def stall(fd):  # the table is being written: say so, then wait to be killed
        print("writing", flush=True)
        time.sleep(600)
    os.fsync = stall
    from advisor.cli import main
    main(["solve"])
""")


def test_sigkill_during_a_write_leaves_litter_the_next_command_removes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    env = {**os.environ, "YAHTZEE_TABLES": str(cache)}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_BUILD], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()  # waits, and closes the pipe
    left = os.listdir(cache)
    assert len(left) == 1 and left[0].startswith(f".official.ytable.{proc.pid}-"), left
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        result = run("advise", "--dice", "22256")
    finally:
        clear_table_cache()
    assert result.exit_code == 0, result.stderr
    assert os.listdir(cache) == ["official.ytable"]


def test_stale_temporary_is_removed_by_a_command_that_only_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, official_table) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    write_table(cache / "official.ytable", official_table.rules, official_table.values)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    (cache / f".official.ytable.{dead}-0badc0de.tmp").write_bytes(b"half a table")
    monkeypatch.setenv("YAHTZEE_TABLES", str(cache))
    clear_table_cache()
    try:
        assert run("advise", "--dice", "22256").exit_code == 0
    finally:
        clear_table_cache()
    assert os.listdir(cache) == ["official.ytable"]


# ---------------------------------------------------------------- output that cannot be written

def test_output_to_a_full_device_is_one_error_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*YAHTZEE, "rules", "official"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Error: cannot write the output: No space left on device"]


def test_advise_to_a_full_device(tables_dir: str) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*YAHTZEE, "advise", "--dice", "22256"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot write the output")


def test_closed_pipe_is_silent() -> None:
    proc = subprocess.Popen([*YAHTZEE, "rules", "official"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader goes away before anything is written
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1  # as click answers a closed pipe: no message
    assert stderr == ""


# ---------------------------------------------------------------- simulate

@pytest.mark.parametrize("games", [str(2**31), str(2**63), "1" + "0" * 23, "10000001", "0",
                                   "-5", "9" * 5000])
def test_simulate_games_beyond_the_maximum(games: str) -> None:
    line = one_error_line(run("simulate", "--games", games))
    assert "--games" in line and len(line) < 200


def test_strategy_and_compare_together_are_refused() -> None:
    line = one_error_line(run("simulate", "--strategy", "greedy", "--compare", "optimal"))
    assert "--strategy" in line and "--compare" in line


@pytest.mark.parametrize("args, option", [
    (("--strategy", ""), "--strategy"), (("--strategy", "  "), "--strategy"),
    (("--compare", ""), "--compare"), (("--compare", "optimal,,greedy"), "--compare"),
    (("--compare", "optimal,"), "--compare"), (("--compare", "optimal,lucky"), "--compare"),
    (("--strategy", "lucky"), "--strategy"),
])
def test_errors_name_the_option_given(args, option: str) -> None:
    line = one_error_line(run("simulate", "--games", "5", *args))
    assert option in line
    other = "--compare" if option == "--strategy" else "--strategy"
    assert other not in line


STRATEGIES = """
import os
def takes_nothing():
    return "chance"
def raises(decision):
    raise RuntimeError("boom")
def returns_junk(decision):
    return object()
def infinite_keep(decision):
    import itertools
    return itertools.count(1)
def float_faces(decision):
    return [2.5]
class NotAStrategy:
    pass
pi = 3.14
"""


@pytest.mark.parametrize("spec, words", [
    ("hostile_strats:takes_nothing", "TypeError"),
    ("hostile_strats:raises", "RuntimeError"),
    ("hostile_strats:returns_junk", "illegal move"),
    ("hostile_strats:infinite_keep", "illegal move"),
    ("hostile_strats:float_faces", "illegal move"),
    ("hostile_strats:NotAStrategy", "not a strategy"),
    ("hostile_strats:pi", "not a strategy"),
    ("hostile_strats:missing", "cannot import"),
    ("hostile_broken:play", "SyntaxError"),
    (".hostile_strats:raises", "relative"),
    ("..x:y", "relative"),
    (":raises", "module:function"),
    ("hostile_strats:", "module:function"),
    ("os:getcwd", "TypeError"),
    ("sys:exit", "SystemExit"),
])
def test_python_strategies_that_are_not_strategies(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   spec: str, words: str) -> None:
    (tmp_path / "hostile_strats.py").write_text(STRATEGIES)
    (tmp_path / "hostile_broken.py").write_text("def play(:\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    line = one_error_line(run("simulate", "--games", "3", "--strategy", spec))
    assert words in line, line


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "99999999", " "])
def test_invalid_numba_num_threads(value: str) -> None:
    line = one_error_line(run("advise", "--dice", "22256", env={"NUMBA_NUM_THREADS": value}))
    assert "NUMBA_NUM_THREADS" in line


def test_valid_numba_num_threads_is_accepted() -> None:
    assert run("advise", "--dice", "22256", env={"NUMBA_NUM_THREADS": "1"}).exit_code == 0


# ---------------------------------------------------------------- lenient input

BAD_DICE = ["２２２５６", "٢٢٢٥٦", "۲۲۲۵۶", "22256,", ",22256", "2,,2,2,5,6", "2,2,2,5,6,",
            "2 2 2 5 6,", "2\u00a02\u00a02\u00a05\u00a06", "2\u30002 2 5 6", "22256\n",
            "2;2;2;5;6", "2,2,2,5, ,6", "²2256", "𝟐2256", "0x16", "+2 2 2 5 6"]


@pytest.mark.parametrize("dice", BAD_DICE)
def test_dice_are_ascii_digits_one_to_six_without_empty_items(dice: str) -> None:
    one_error_line(run("advise", "--dice", dice))


@pytest.mark.parametrize("dice", ["22256", "2,2,2,5,6", "2 2 2 5 6", "2, 2, 2, 5, 6",
                                  " 22256 ", "2 , 2 , 2 , 5 , 6"])
def test_good_dice_still_accepted(dice: str) -> None:
    assert run("advise", "--dice", dice, "--json").exit_code == 0


BAD_CARDS = [
    "yahtzee=50,yahtzee_bonus=1,ss=0",  # the bonus had no upper box to fill or to unlock
    "yahtzee=50,yahtzee_bonus=1,chance=17",
    "yahtzee=50,yahtzee_bonus=2,twos=6,ss=30,chance=17",  # only ss can take a Joker
    "yahtzee=50,yahtzee_bonus=1,twos=6",  # twos filled, but with 6: bonus went nowhere
    "twos=6,,fours=12", "twos=6,", ",twos=6", "twos=６", "twos=٦", "chance=0", "twos=+6",
    "twos=6,fours", "twos==6", "=6", "twos=" + "9" * 5000, "yahtzee_bonus=" + "9" * 50,
]


@pytest.mark.parametrize("card", BAD_CARDS)
def test_cards_no_game_reaches_are_refused(card: str) -> None:
    line = one_error_line(run("advise", "--dice", "22256", "--card", card))
    assert len(line) < 400


@pytest.mark.parametrize("card", [
    "yahtzee=50,yahtzee_bonus=1,twos=10", "yahtzee=50,yahtzee_bonus=2,twos=10,chance=10",
    "aces=0,yahtzee=50,yahtzee_bonus=1,chance=5", "twos=6,yahtzee=50,ss=30,yahtzee_bonus=1",
    " twos=6 , fours=12 ", "",
])
def test_reachable_cards_still_accepted(card: str) -> None:
    result = run("advise", "--dice", "22256", "--card", card)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("args", [
    ("advise", "--dice", "2" * 100_000),
    ("advise", "--dice", "7" * 100_000),
    ("advise", "--dice", "2," * 50_000),
    ("advise", "--dice", "22256", "--card", "x" * 100_000 + "=1"),
    ("advise", "--dice", "22256", "--card", "twos=6," * 20_000),
    ("advise", "--dice", "22256", "--rules", "r" * 100_000),
    ("simulate", "--strategy", "s" * 100_000),
    ("simulate", "--strategy", "m" * 100_000 + ":f"),
    ("simulate", "--games", "g" * 100_000),
    ("export", "--format", "x" * 100_000, "--out", "x"),
])
def test_long_input_is_echoed_at_most_80_characters(args) -> None:
    line = one_error_line(run(*args))
    longest = max(len(run_) for run_ in line.replace("'", " ").split())
    assert longest <= 80, line[:300]
    assert len(line) < 400


# ---------------------------------------------------------------- records: read before checking

@pytest.fixture
def odd_record_files(tmp_path: Path) -> dict[str, str]:
    os.mkfifo(tmp_path / "fifo")
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(3 * 2**30)  # sparse: 3 GB that would be read whole
    return {"/dev/zero": "a device", str(tmp_path / "fifo"): "FIFO", str(tmp_path): "folder",
            str(big): "too large"}


def test_analyze_refuses_devices_fifos_and_huge_files_before_reading(odd_record_files) -> None:
    for path, words in odd_record_files.items():
        assert words in one_error_line(run("analyze", path))


def test_play_resume_refuses_devices_fifos_and_huge_files(odd_record_files) -> None:
    for path, words in odd_record_files.items():
        assert words in one_error_line(CliRunner().invoke(cli, ["play", "--resume", path],
                                                          input="quit\n"))


def test_analyze_from_stdin_is_bounded_and_quotes_little() -> None:
    line = one_error_line(CliRunner().invoke(cli, ["analyze", "-"], input="2" * 1_500_000))
    assert "too large" in line
    line = one_error_line(CliRunner().invoke(cli, ["analyze", "-"], input="[" * 100_000))
    assert len(line) < 300
