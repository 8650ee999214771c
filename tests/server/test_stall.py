"""No room can stall the server: a stand-in bot holding a huge rack answers within its budget,
and while it thinks the bots of other rooms keep moving (issue 35: a guest who drew until his
rack held 56 tiles and left pinned a bot thread for minutes, and every other room waited)."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from .helpers import (
    SMALL,
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)

#: the rack the guest draws up to before he leaves
HUGE = 56


def _draw_up_to(c: Client, size: int) -> dict[str, object]:
    """Draw on every turn of ``c`` until its rack holds ``size`` tiles."""
    while True:
        state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
        g = game(state)
        assert not g["round_over"], "the round ended before the rack was full"
        if g["rack_sizes"][state["you"]] >= size:
            return state
        draw_and_wait(c, g)


def test_a_stand_in_with_a_huge_rack_answers_and_other_rooms_go_on(
    seeded_server: ServerProcess, clients: list[Client]
) -> None:
    guest = Client(seeded_server.ws_url)
    watcher = Client(seeded_server.ws_url)
    other = Client(seeded_server.ws_url)
    clients.extend([guest, watcher, other])
    # three copies of each tile: the pool lasts until the guest's rack is huge; a match of two
    # rounds with a long pause between them: however fast the bots play on before the restart,
    # the room is still open when the server comes back
    joined = create_vs_bots(
        guest,
        rules={"preset": "xp", "match": {"rounds": 2}},
        grace_seconds=0,
        standin="beginner",
        round_pause=600,
    )
    code = joined["room"]
    state = _draw_up_to(guest, HUGE)
    seat = state["you"]
    turn = game(state)["turn"]
    assert watcher.request(type="watch", room=code)["type"] == "watching"
    # another room, its bot to answer every draw while the stand-in thinks
    create_vs_bots(other, bots=1)
    other.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    # the guest leaves on his turn: the stand-in bot takes his seat and his 56 tiles
    guest.close()
    left_at = time.monotonic()
    for _ in range(3):  # the other room's bot answers each draw while the stand-in plays
        g = game(other.state)
        if g["round_over"]:
            break
        draw_and_wait(other, g)
        other.wait_state(
            lambda s: s["game"]["round_over"] or s["game"]["current"] == s["you"], timeout=10
        )
    moved = watcher.wait_state(
        lambda s: (
            s["game"] is not None
            and s["room"]["seats"][seat]["standin"]
            and (s["game"]["turn"] > turn or s["game"]["current"] != seat)
        ),
        timeout=30,
    )
    assert moved["room"]["seats"][seat]["standin"]
    # it answered well within the budget of a bot (5 s) and the stop after it (9.5 s)
    assert time.monotonic() - left_at < 30
    # a restart with the room stored plays it on: the bots go on moving in it
    at = game(moved)["turn"]
    watcher.close()
    other.close()
    seeded_server.stop()
    seeded_server.start()
    again = Client(seeded_server.ws_url)
    clients.append(again)
    watching = again.request(type="watch", room=code)
    assert watching["type"] == "watching", watching
    after = again.wait_state(
        lambda s: s["game"] is not None and (s["game"]["turn"] > at + 2 or s["game"]["round_over"])
    )
    assert after["room"]["seats"][seat]["standin"]


def _get(base: str, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """GET ``path`` from the loopback address ``source`` (budgets are per address)."""
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=120, source_address=(source, 0))
    try:
        conn.request("GET", path)
        res = conn.getresponse()
        return res.status, res.read()
    finally:
        conn.close()


def _metric(base: str, name: str) -> float:
    text = _get(base, "/metrics")[1].decode()
    lines = [ln for ln in text.splitlines() if ln.startswith(name + " ") or ln.startswith(name)]
    found = [ln for ln in lines if ln.split(" ")[0] == name]
    assert found, f"no metric {name}"
    return float(found[0].split(" ")[1])


def test_an_analysis_asked_forty_times_at_once_is_made_once(
    seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    code = create_vs_bots(c, bots=1, rules=SMALL)["room"]  # a short game: any will do
    draw_until_round_over(c)
    made = 'rummikub_jobs_total{pool="review"}'
    before = _metric(seeded_server.base, made)
    with ThreadPoolExecutor(40) as pool:
        answers = list(
            pool.map(lambda _: _get(seeded_server.base, f"/api/rooms/{code}/analysis"), range(40))
        )
    assert {status for status, _ in answers} == {200}
    assert len({body for _, body in answers}) == 1
    assert json.loads(answers[0][1])["turns"]
    assert _metric(seeded_server.base, made) == before + 1


#: a position the assistant thinks over for a while (every view searched)
_TABLE = "R1 R2 R3 R4 | K5 B5 O5 | B9 B10 B11 B12 | K7 K8 K9 | O1 O2 O3 | R10 K10 B10 O10"
_RACK = "R5 R6 J K6 O4 B13 K11 O11 R11 B8 K12 O12 R12 O6 B6 K4"


def test_one_address_asking_the_assistant_in_loops_leaves_room_for_others(
    sqlite_server: ServerProcess,
) -> None:
    query = "/api/assist?" + urllib.parse.urlencode({"table": _TABLE, "rack": _RACK})
    others: list[int] = []
    flooding = threading.Event()
    flooding.set()

    def flood() -> None:  # three loops from one address, as long as the other asks
        while flooding.is_set():
            _get(sqlite_server.base, query, source="127.0.0.2")

    loops = [threading.Thread(target=flood) for _ in range(3)]
    for t in loops:
        t.start()
    try:
        for _ in range(6):
            others.append(_get(sqlite_server.base, query, source="127.0.0.3")[0])
    finally:
        flooding.clear()
        for t in loops:
            t.join()
    assert others == [200] * 6
