"""Issue 22, records: no game lost. Names that round-trip, the form a record was read in
(JSON, comments, line ends, byte-order mark), mode and hard links kept, one writer at a
time, and a save that fails stopping the game with the record printed."""

from __future__ import annotations

import errno
import json
import os
import resource
import stat
import subprocess
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.record import GameRecord, check_names, parse_record
from advisor.record_file import RecordBusyError, RecordFile, read_record, write_record
from solver.errors import InvalidRecordError, WriteError
from tests.cli_checks import one_error_line, run_cli
from tests.cli_process import YAHTZEE

# Alternating lines get a game through whatever is asked (a dice line at a move prompt
# corrects the roll; an empty line at a dice prompt is refused and asked again).
ANY_GAME = "\n".join(["12345", ""] * 200) + "\n"


@pytest.fixture(autouse=True)
def _tables(official_table):
    """The cached official table exists, so commands read it."""


def run(*args: str, input: str | None = None):  # noqa: A002
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    return lines[0]


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("name", ["rules x", "players x", "Rules", "players", "rules",
                                  "Ann Marie", "Zoë", "李", "22256", "-", "a\u00a0b",
                                  "x" * 40])
def test_names_that_look_like_headers_or_dice_round_trip(tmp_path: Path, name: str) -> None:
    path = tmp_path / "n.txt"
    result = run("play", "--names", f"{name},Bob", "--record", str(path),
                 input="22256\nkeep 222\n22234\nq\n")
    assert result.exit_code == 0, result.output  # stopped by quit
    record = read_record(path)
    assert record.players == (name, "Bob")
    assert [str(r) for r in record.turns[0].rolls] == ["22256", "22234"]
    result = run("play", "--resume", str(path), input="q\n")
    assert result.exit_code == 0 and "Error" not in result.output


@pytest.mark.parametrize("char", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x1f", "\x85",
                                  "\u2028", "\u2029", "\t", "\x00", "\x1b", "\ud800",
                                  ":", ",", "#"])
def test_names_that_would_split_a_line_are_refused(char: str) -> None:
    with pytest.raises(InvalidRecordError, match="player name"):
        check_names([f"A{char}b"])
    if char != ",":  # --names splits at commas
        assert "player name" in error_line(run("play", "--names", f"A{char}b"))


def test_a_name_that_is_not_utf8_is_refused_without_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run([*YAHTZEE, "play", "--names", b"Ann\xff", "--record",
                             str(tmp_path / "x.txt")], input=b"q\n", capture_output=True,
                            timeout=120)
    assert result.returncode == 2, result.stderr
    assert b"Traceback" not in result.stderr and b"player name" in result.stderr
    assert not (tmp_path / "x.txt").exists()


def test_a_json_record_with_a_line_separator_in_a_name_is_refused_not_destroyed(
        tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    text = json.dumps({"players": ["A\u2028b"], "turns": []})
    path.write_text(text)
    assert "U+2028" in error_line(run("play", "--resume", str(path), input="q\n"))
    assert "U+2028" in error_line(run("analyze", str(path)))
    assert path.read_text() == text


@pytest.mark.parametrize("text", ['{"players": ["\\ud800"]}', '{"players": [' + "9" * 5000 + "]}",
                                  '{"turns": [{"rolls": [' + "1" * 5000 + "]}]}"])
def test_json_bounds_are_record_errors(text: str) -> None:
    with pytest.raises(InvalidRecordError):
        parse_record(text)


def test_a_byte_order_mark_is_skipped_in_both_forms() -> None:
    text = parse_record("\ufeffrules official\nAnn: 22256 twos\n")
    assert text.players == ("Ann",)
    js = parse_record("\ufeff" + json.dumps(text.to_json()))
    assert js == text


def test_too_many_turns_are_refused_before_they_are_all_read() -> None:
    line = "Ann: 22256 twos\n"
    with pytest.raises(InvalidRecordError, match="line 16: a turn after every card"):
        parse_record("players Ann\n" + line * 10_000)
    entry = {"rolls": ["22256"] * 10_000}
    with pytest.raises(InvalidRecordError, match="too many rolls"):
        parse_record(json.dumps({"turns": [entry]}))


# ---------------------------------------------------------------- the form kept

COMMENTED = ("\ufeff# objective: {\"kind\": \"target\", \"target\": 250}\r\n"
             "rules official   # the rules\r\n"
             "players Ann,Bob\r\n"
             "\r\n"
             "Ann: 22256 222 22234 2223 22235 2s   # twos, an alias\r\n"
             "# Bob's turn next\r\n"
             "Bob: 12345 ls\r\n")


def test_resume_without_a_move_leaves_the_file_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_bytes(COMMENTED.encode())
    before = os.stat(path)
    assert run("play", "--resume", str(path), input="q\n").exit_code == 0
    assert path.read_bytes() == COMMENTED.encode()
    assert os.stat(path).st_ino == before.st_ino  # not even rewritten


def test_moves_keep_comments_line_ends_and_the_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_bytes(COMMENTED.encode())
    result = run("advise", "--game", str(path), "11111", "--append", "score yahtzee")
    assert result.exit_code == 0, result.output
    text = path.read_bytes().decode()
    assert text == COMMENTED + "Ann: 11111 yahtzee\r\n"
    assert run("play", "--resume", str(path), input="12346\nq\n").exit_code == 0
    assert path.read_bytes().decode() == text + "Bob: 12346\r\n"
    assert run("play", "--resume", str(path), input="undo\nundo\nundo\nq\n").exit_code == 0
    assert path.read_bytes().decode() == COMMENTED


def test_a_changed_turn_keeps_its_comment_and_an_undone_one_leaves_it() -> None:
    base = "players Ann\nAnn: 22256 222   # hold the twos\n"
    form = __import__("advisor.record_file", fromlist=["RecordForm"]).RecordForm.of(base)
    record = form.record
    more = record.with_roll(record.turns[0].rolls[0].__class__("22234"))
    assert form.render(more) == "players Ann\nAnn: 22256 222 22234   # hold the twos\n"
    assert form.render(record.without_last_step().without_last_step()) == \
        "players Ann\n# hold the twos\n"


def test_json_stays_json_with_its_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    data = {"rules": "official", "players": ["Ann"], "date": "2026-12-01",
            "turns": [{"player": "Ann", "rolls": ["22256"], "keeps": [], "box": "twos",
                       "note": "first"}]}
    path.write_text(json.dumps(data))
    assert run("play", "--resume", str(path), input="q\n").exit_code == 0
    assert json.loads(path.read_text()) == data
    result = run("advise", "--game", str(path), "12345", "--append", "ls")
    assert result.exit_code == 0, result.output
    after = json.loads(path.read_text())
    assert after["date"] == "2026-12-01" and after["turns"][0]["note"] == "first"
    assert after["turns"][1] == {"player": "Ann", "rolls": ["12345"], "keeps": [],
                                 "box": "large_straight"}
    assert run("play", "--resume", str(path), input="66666\nq\n").exit_code == 0
    assert json.loads(path.read_text())["turns"][2]["rolls"] == ["66666"]
    assert read_record(path).turns[2].box is None


def test_the_objective_line_of_play_stays(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    # targets out of reach (answered without a solve): the line is what is tested
    assert run("play", "--record", str(path), "--target", "2500",
               input="22256\nq\n").exit_code == 0
    first = path.read_text().splitlines()[0]
    assert first.startswith("# objective:") and '"target": 2500' in first
    assert run("play", "--resume", str(path), input="\n22234\nq\n").exit_code == 0
    assert path.read_text().splitlines()[0] == first
    assert run("play", "--resume", str(path), "--target", "3000", input="q\n").exit_code == 0
    lines = path.read_text().splitlines()
    assert lines[0] == '# objective: {"kind": "target", "target": 3000}'
    assert sum(line.startswith("# objective") for line in lines) == 1
    assert read_record(path).turns[0].rolls[-1].faces == (2, 2, 2, 3, 4)


# ---------------------------------------------------------------- mode, links, read-only

def test_mode_owner_and_hard_links_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    write_record(path, parse_record("players Ann\nAnn: 22256 twos\n"))
    path.chmod(0o600)
    link = tmp_path / "link.txt"
    os.link(path, link)
    assert run("advise", "--game", str(path), "12345", "--append", "ls").exit_code == 0
    assert run("play", "--resume", str(link), input="66666\nq\n").exit_code == 0
    for name in (path, link):
        info = os.stat(name)
        assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_nlink == 2
    assert path.read_text() == link.read_text()
    assert path.read_text().endswith("Ann: 12345 large_straight\nAnn: 66666\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt", "link.txt"]


def test_a_read_only_record_is_refused_before_the_game(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("players Ann\nAnn: 22256 twos\n")
    path.chmod(0o444)
    try:
        assert "read-only" in error_line(run("play", "--resume", str(path), input="q\n"))
        assert "read-only" in error_line(run("advise", "--game", str(path), "12345",
                                             "--append", "ls"))
        assert run("advise", "--game", str(path), "12345").exit_code == 0  # reading is fine
        assert path.read_text() == "players Ann\nAnn: 22256 twos\n"
    finally:
        path.chmod(0o644)


@pytest.mark.parametrize("command", [["solve"], ["export", "--format", "csv"]])
def test_tables_and_exports_keep_mode_and_links_and_refuse_read_only(
        tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "out"
    assert run(*command, "--out", str(path)).exit_code == 0
    path.chmod(0o600)
    link = tmp_path / "link"
    os.link(path, link)
    before = path.read_bytes()
    assert run(*command, "--out", str(path)).exit_code == 0
    info = os.stat(path)
    assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_nlink == 2
    assert link.read_bytes() == path.read_bytes() == before
    path.chmod(0o444)
    assert "read-only" in error_line(run(*command, "--out", str(path), "--force"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "out"]


# ---------------------------------------------------------------- one writer

def test_a_second_writer_is_refused_while_a_game_holds_the_record(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("players Ann\nAnn: 22256 twos\n")
    game = subprocess.Popen([*YAHTZEE, "play", "--resume", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert game.stdout is not None and game.stdin is not None
        game.stdout.read1(1)  # the game is under way: the record is held
        line = error_line(run("advise", "--game", str(path), "12345", "--append", "ls"))
        assert "in use by another yahtzee" in line
        assert "in use" in error_line(run("play", "--resume", str(path), input="q\n"))
        with pytest.raises(RecordBusyError):
            write_record(path, read_record(path))
        assert run("analyze", str(path)).exit_code == 0  # readers need no lock
        out, err = game.communicate(b"12345\nls\nq\n", timeout=120)
    finally:
        game.kill()
    assert game.returncode == 0, err
    assert read_record(path).turns[-1].box == "large_straight"
    assert run("advise", "--game", str(path), "66666", "--append", "1").exit_code == 0


def test_appends_at_once_each_proceeds_or_is_told_why_and_none_is_lost(tmp_path: Path
                                                                      ) -> None:
    path = tmp_path / "g.txt"
    path.write_text("players Ann,Bob,Cy,Di\n")
    procs = [subprocess.Popen([*YAHTZEE, "advise", "--game", str(path), "12345", "--append",
                               "score ls"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(4)]
    results = []
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        results.append((proc.returncode, err.decode()))
    added = [code for code, _ in results if code == 0]
    assert len(read_record(path).turns) == len(added) >= 1  # every success is in the file
    for code, err in results:
        assert code == 0 or "in use by another yahtzee" in err, err


def test_a_held_record_refuses_a_second_writer_until_let_go(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("players Ann\n")
    with RecordFile.open(path) as held:
        line = error_line(run("advise", "--game", str(path), "12345", "--append", "ls"))
        assert "in use by another yahtzee" in line
        held.save(held.record.with_roll(held.record.turns[0].rolls[0].__class__("22256"))
                  if held.record.turns else parse_record("players Ann\nAnn: 22256\n"))
        line = error_line(run("advise", "--game", str(path), "22256", "--append", "2s"))
        assert "in use" in line  # the lock moved to the new file with the save
    assert run("advise", "--game", str(path), "22256", "--append", "2s").exit_code == 0
    assert str(read_record(path)) == "rules official\nplayers Ann\nAnn: 22256 twos\n"


def test_two_records_created_at_once_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def create(name: str) -> None:
        record = GameRecord("official", (name,))
        barrier.wait()
        try:
            RecordFile.create(path, record).close()
            outcomes.append(name)
        except (InvalidRecordError, WriteError) as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=create, args=(n,)) for n in ("Ann", "Bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [o for o in outcomes if isinstance(o, str)]
    assert len(winners) == 1
    assert read_record(path).players == (winners[0],)


def test_a_record_created_while_another_was_created_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both passed the check that the path is free; the second must not replace the
    first at the write."""
    import advisor.record_file as record_file

    path = tmp_path / "g.txt"
    first = RecordFile.create(path, GameRecord("official", ("Ann",)))
    monkeypatch.setattr(record_file, "check_record_path", lambda *a, **k: None)
    with pytest.raises(WriteError, match="something is already there"):
        RecordFile.create(path, GameRecord("official", ("Bob",)))
    write_record(tmp_path / "other.txt", GameRecord("official", ("Cy",)))  # new: fine
    with monkeypatch.context() as patched:
        patched.setattr(os.path, "lexists", lambda p: False)  # as if g.txt appeared just now
        with pytest.raises(WriteError, match="something is already there"):
            write_record(path, GameRecord("official", ("Cy",)))
    first.close()
    assert read_record(path).players == ("Ann",)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt", "other.txt"]


# ---------------------------------------------------------------- a save that fails

def test_a_full_disk_stops_the_game_with_the_record_printed(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    path = tmp_path / "g.txt"
    real_fsync = os.fsync
    calls = {"n": 0}

    def fsync(fd: int) -> None:  # the disk fills after four saves
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = run("play", "--record", str(path), input=ANY_GAME)
    monkeypatch.undo()
    assert result.exit_code == 2
    assert "saved" not in result.stdout.replace("could not be saved", "")
    assert "No space left on device" in result.stderr and "Traceback" not in result.output
    printed = result.stdout.split("continue with yahtzee play --resume game2.txt\n", 1)[1]
    on_disk = read_record(path)
    printed_record = parse_record(printed)
    assert printed_record.turns[:len(on_disk.turns) - 1] == on_disk.turns[:-1]
    assert len(str(printed_record)) > len(str(on_disk))  # the step not saved is printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt"]


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (150, 150))


def test_a_file_size_limit_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    result = subprocess.run([*YAHTZEE, "play", "--record", str(path)], input=ANY_GAME.encode(),
                            capture_output=True, timeout=300, preexec_fn=_limit_file_size)
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 2, err
    assert "File too large" in err and "Traceback" not in err
    assert "the game is saved" not in out and "== game stopped: it could not be saved" in out
    printed = parse_record(out.rsplit("game2.txt\n", 1)[1])
    saved = read_record(path)
    assert len(path.read_bytes()) <= 150
    assert saved.turns[:-1] == printed.turns[:len(saved.turns) - 1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt"]


def test_an_append_that_cannot_be_written_claims_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    path = tmp_path / "g.txt"
    path.write_text("players Ann\nAnn: 22256 twos\n")

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)
    result = run("advise", "--game", str(path), "12345", "--append", "ls")
    monkeypatch.undo()
    assert "No space left on device" in error_line(result)
    assert "added" not in result.stdout
    assert path.read_text() == "players Ann\nAnn: 22256 twos\n"


# ---------------------------------------------------------------- input bounds

def test_play_reads_bounded_lines(tmp_path: Path) -> None:
    long_line = "7" * 5000
    result = run("play", input=f"22256\n{long_line}\n{'9' * 900}\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "more than 1000 characters" in result.output
    assert "option '9999" in result.output
    with open("/dev/zero", "rb") as zeros:
        result = subprocess.run([*YAHTZEE, "play"], stdin=zeros, capture_output=True,
                                timeout=120)
    assert result.returncode == 1 and b"not lines of text" in result.stderr
    assert b"Traceback" not in result.stderr
    result = run("advise", "--game", str(_record(tmp_path)), "12345", "--append", "9" * 5000)
    assert "option '9999" in error_line(result)


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "r.txt"
    path.write_text("players Ann\n")
    return path


FIRST = "rules official\nplayers Ann\nAnn: 12345 chance\n"
SECOND = FIRST + "Ann: 22222 yahtzee\n"


def test_a_closed_record_file_saves_nothing(tmp_path):
    path = tmp_path / "game.txt"
    held = RecordFile.create(path, parse_record(FIRST))
    held.close()
    with pytest.raises(WriteError, match=r"the record .*game\.txt is closed"):
        held.save(parse_record(SECOND))
    assert path.read_text() == FIRST


@pytest.mark.parametrize("how", ["replaced", "removed"])
def test_a_record_replaced_or_removed_by_another_program_is_left_as_it_is(tmp_path, how):
    path = tmp_path / "game.txt"
    with RecordFile.create(path, parse_record(FIRST)) as held:
        if how == "replaced":
            other = tmp_path / "other.txt"
            other.write_text("# another program's file\n")
            os.replace(other, path)
        else:
            path.unlink()
        with pytest.raises(WriteError, match="was replaced or removed by another program "
                                             "since this game opened it; nothing was written"):
            held.save(parse_record(SECOND))
    if how == "replaced":
        assert path.read_text() == "# another program's file\n"
    else:
        assert not path.exists()


@pytest.mark.parametrize("thing", ["rules official\nplayers Ann\n", None, {"players": ["Ann"]}])
def test_write_record_takes_only_a_record(tmp_path, thing):
    path = tmp_path / "game.txt"
    with pytest.raises(InvalidRecordError, match="write_record takes a GameRecord, not "):
        write_record(path, thing)
    assert not path.exists()


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
        assert words in one_error_line(run_cli("analyze", path))


def test_play_resume_refuses_devices_fifos_and_huge_files(odd_record_files) -> None:
    for path, words in odd_record_files.items():
        assert words in one_error_line(CliRunner().invoke(cli, ["play", "--resume", path],
                                                          input="quit\n"))


def test_analyze_from_stdin_is_bounded_and_quotes_little() -> None:
    line = one_error_line(CliRunner().invoke(cli, ["analyze", "-"], input="2" * 1_500_000))
    assert "too large" in line
    line = one_error_line(CliRunner().invoke(cli, ["analyze", "-"], input="[" * 100_000))
    assert len(line) < 300
