"""The practice history at its edges: a file whose last line has no newline (written by
an editor, or cut short), appended to; the file's own text read back line by line."""

from __future__ import annotations

import datetime
import json

from advisor.train_history import append_session, read_history

HEADER = '{"format": "yahtzee-train-history", "version": 1}'
WHEN = datetime.datetime(2026, 12, 3, 12, 0, tzinfo=datetime.UTC)


def test_a_last_line_without_newline_is_kept_whole_when_a_session_is_added(tmp_path):
    path = tmp_path / "history.jsonl"
    first = {"date": "2026-12-01T10:00:00+00:00", "mean_loss": 0.25, "rules": "official"}
    path.write_text(HEADER + "\n" + json.dumps(first))  # no newline at the end
    sessions = append_session(path, {"mean_loss": 0.5, "rules": "official"}, when=WHEN)
    assert [s["mean_loss"] for s in sessions] == [0.25, 0.5]
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # the file ends with a newline
    assert json.loads(lines[0]) == json.loads(HEADER)
    assert json.loads(lines[1]) == first
    assert json.loads(lines[2]) == {"date": "2026-12-03T12:00:00+00:00", "mean_loss": 0.5,
                                    "rules": "official"}
    assert len(lines) == 4
    assert [s["mean_loss"] for s in read_history(path)] == [0.25, 0.5]


def test_a_header_alone_without_newline_takes_a_first_session(tmp_path):
    path = tmp_path / "history.jsonl"
    path.write_text(HEADER)
    append_session(path, {"mean_loss": 1.0}, when=WHEN)
    assert path.read_text(encoding="utf-8") == (
        HEADER + "\n" + '{"date":"2026-12-03T12:00:00+00:00","mean_loss":1.0}\n')
