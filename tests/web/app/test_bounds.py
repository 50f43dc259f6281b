"""Issue 32: the server refuses what the CLI and the library refuse, with the same
message (HTTP 400): ``win_from`` beyond the rules' boxes, more than seven opponents."""

from __future__ import annotations

import urllib.parse

import pytest

from advisor.objective import Objective
from advisor.play_win import choose_judging

RECORD = b"players Ann,Bob\nAnn: 22256 twos\nBob: 33345 threes\n"


@pytest.mark.parametrize("value", ["16", "99999", "99999999999999999999", "0"])
def test_win_from_beyond_the_boxes_is_400_with_the_library_message(server, value):
    with pytest.raises(ValueError) as caught:
        choose_judging(objective_name="win", win_from=int(value), target=None, beat=None,
                       opponent=None, players=("Ann", "Bob"), rules="official")
    for path in ("/api/analyze", "/api/jobs/analyze"):
        query = urllib.parse.urlencode({"objective": "win", "win_from": value})
        status, body = server.request("POST", f"{path}?{query}", RECORD)
        assert status == 400 and body == {"error": str(caught.value)}, (path, body)


@pytest.mark.parametrize("count", [8, 50])
def test_more_than_seven_opponents_is_400_with_the_library_message(server, count):
    cards = ";".join(["twos=6"] * count)
    with pytest.raises(ValueError) as caught:
        Objective.parse_options(opponents=cards)
    late = "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"
    status, body = server.request(
        "POST", "/api/jobs/turn?" + urllib.parse.urlencode({"card": late, "opponents": cards}))
    assert status == 400 and body == {"error": str(caught.value)}
    status, body = server.get("/api/advise", {"dice": "22256", "card": late,
                                              "opponents": cards})
    assert status == 400 and body == {"error": str(caught.value)}
