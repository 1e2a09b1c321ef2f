"""Play now against a real site, on SQLite, on PostgreSQL and on three processes behind
HAProxy: strangers who ask at the same moment are seated together and dealt, whichever
process each reached; the same browser gets the same seat from any process; a seat is held
only by someone whose socket came, joins count against the address's bound, and a table is
never dealt to absent players; the lobby sweep survives an account switching table size."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest

from kingsbreakfast.server.names import look_alike_key
from server.conftest import POSTGRES_URL
from server.kb_play_now import Player, Site, dealt, poll, start_site

KINDS = ["sqlite", "postgresql", "cluster"]
LIMITS = ("--tables-per-minute", "6", "--lobby-expiry", "4")
"""Ten seats an address at once, then six a minute (joins count as tables opened), and a
short lobby expiry so the sweep can be watched."""


@pytest.fixture(scope="module", params=KINDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
         ) -> Iterator[Site]:
    kind = str(request.param)
    if kind != "sqlite" and not POSTGRES_URL:
        pytest.skip("needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)")
    live = start_site(kind, tmp_path_factory.mktemp(f"play-now-{kind}"), POSTGRES_URL, LIMITS)
    yield live
    live.stop()


def test_six_strangers_at_the_same_moment_all_play(site: Site) -> None:
    """Six lone players press Play now together (the proxy spreads them over the
    processes): two tables of three, each dealt as soon as its three are present, nobody
    left waiting."""
    players = [Player(site) for _ in range(6)]

    async def main() -> list[str]:
        answers = await asyncio.gather(*(
            asyncio.to_thread(p.play_now, f"Stranger {n}", 3) for n, p in enumerate(players)
        ))
        assert all(status == 201 for status, _ in answers), answers
        tables = [body["table"] for _, body in answers]
        await asyncio.gather(*(p.sit(t) for p, t in zip(players, tables, strict=True)))
        frames = await asyncio.gather(*(p.state(dealt) for p in players))
        for player, frame, (_, body) in zip(players, frames, answers, strict=True):
            assert frame["you"] is not None, "a player was left to watch"
            assert frame["table"]["seats"][frame["you"]]["kind"] == "human"
            assert frame["table"]["id"] == body["table"]
            await player.close()
        return tables

    tables = asyncio.run(main())
    assert sorted(tables.count(t) for t in set(tables)) == [3, 3]


def test_strangers_who_chose_one_name_play_together_told_apart(site: Site) -> None:
    """Three guests all called Alex (one typed it in capitals) press Play now: one table,
    dealt as soon as all three are there, the names made distinct at the table."""
    players = [Player(site) for _ in range(3)]

    async def main() -> list[str]:
        answers = [p.play_now(name, 3) for p, name in zip(players, ["Alex", "ALEX", "Alex"],
                                                           strict=True)]
        assert all(status == 201 for status, _ in answers), answers
        tables = {body["table"] for _, body in answers}
        assert len(tables) == 1, "strangers with one name were kept apart"
        (table,) = tables
        await asyncio.gather(*(p.sit(table) for p in players))
        frames = await asyncio.gather(*(p.state(dealt) for p in players))
        for player in players:
            await player.close()
        return [seat["name"] for seat in frames[0]["table"]["seats"]]

    names = asyncio.run(main())
    assert len({look_alike_key(name) for name in names}) == 3, names  # told apart
    assert all(re.fullmatch(r"(Alex|ALEX)( \([23]\))?", name) for name in names), names
    assert sum(" (" not in name for name in names) == 1, names  # the first keeps the name


def test_the_same_browser_gets_its_seat_back_from_any_process(site: Site) -> None:
    """Asking again (each call may reach another process) gives the same table and seat,
    and every process answers the waiting page; another size gives the seat up."""
    ann = Player(site)

    async def main() -> None:
        status, first = ann.play_now("Ann", 5, "turn")
        assert status == 201
        await ann.sit(first["table"])
        await ann.state(lambda f: f["you"] == first["seat"])
        for _again in range(4):
            status, again = ann.play_now("Ann", 5, "turn")
            assert (status, again["table"], again["seat"]) == (201, first["table"],
                                                               first["seat"])
        for _ask in range(6):  # round robin in a cluster: every process knows the group
            status, wait = ann.call("GET", f"/api/play-now/tables/{first['table']}")
            assert (status, wait["deadline_ms"], wait["players"]) == (
                200, first["deadline_ms"], 1)
        status, other = ann.play_now("Ann", 4, "turn")
        assert status == 201 and other["table"] != first["table"]
        poll(lambda: ann.call("GET", f"/api/play-now/tables/{first['table']}")[0] == 204,
             what="the group nobody waits in any more forgotten")
        await ann.close()

    asyncio.run(main())


def test_the_same_account_gets_its_seat_back_from_another_device(site: Site) -> None:
    """An account waiting at a table asks again from another device (another address,
    another browser, maybe another process): the same table and seat."""
    phone, laptop = Player(site), Player(site)
    phone.register("Leontine")
    laptop.call("GET", "/api/account")
    status, _ = laptop.call("POST", "/api/account/login",
                            {"name": "Leontine", "password": "correct horse battery"})
    assert status == 200

    async def main() -> None:
        status, first = phone.play_now("ignored", 4, "turn")
        assert status == 201
        await phone.sit(first["table"])
        await phone.state(lambda f: f["you"] == first["seat"])
        for _again in range(4):
            status, again = laptop.play_now("ignored", 4, "turn")
            assert (status, again["table"], again["seat"]) == (201, first["table"],
                                                               first["seat"])
        await phone.close()

    asyncio.run(main())


def test_a_seat_whose_player_never_came_is_given_back(site: Site) -> None:
    """Two requests without a socket take the two free seats of a stranger's table: the
    table is not dealt to them; their seats come back, and at the deadline the stranger
    plays with bots."""
    vic = Player(site)

    async def main() -> None:
        status, mine = vic.play_now("Victim", 3, "turn")
        assert status == 201
        await vic.sit(mine["table"])
        await vic.state(lambda f: f["you"] == mine["seat"])
        for n in range(2):
            status, ghost = Player(site).play_now(f"Ghost {n}", 3, "turn")
            assert status == 201 and ghost["table"] == mine["table"]
        status, wait = vic.call("GET", f"/api/play-now/tables/{mine['table']}")
        assert wait["players"] == 3
        poll(lambda: vic.call("GET", f"/api/play-now/tables/{mine['table']}")[1]["players"]
             == 1, what="the ghosts' seats given back")
        frame = await vic.state(dealt)
        kinds = [s["kind"] for s in frame["table"]["seats"]]
        assert kinds == ["human", "bot", "bot"]
        await vic.close()

    asyncio.run(main())


def test_seats_taken_from_one_address_count_against_its_bound(site: Site) -> None:
    """One address asking for seat after seat (a new browser each time) is stopped after
    its burst of ten, whichever process each call reached."""
    address = Player(site).address
    answers = [Player(site, address).play_now(f"Many {n}", 3, "live")[0] for n in range(14)]
    assert answers[:10] == [201] * 10
    assert 429 in answers[10:]


def test_the_lobby_sweep_survives_an_account_switching_table_size(site: Site) -> None:
    """An account waiting in play now asks for another size: its first table (no one
    left in it) expires, and so do a public table its host left and one nobody ever came
    to; every later sweep still runs (a seat row left behind used to fail them all)."""
    kim = Player(site)
    kim.register("Kimberly")

    async def main() -> str:
        status, first = kim.play_now("Kimberly", 3, "live")
        assert status == 201
        await kim.sit(first["table"])
        await kim.state(lambda f: f["you"] == first["seat"])
        status, second = kim.play_now("Kimberly", 5, "live")
        assert status == 201 and second["table"] != first["table"]
        await kim.close()
        return str(first["table"])

    first = asyncio.run(main())
    host = Player(site)
    status, opened = host.call("POST", "/api/tables", {"name": "Host", "seats": 3,
                                                      "bot_level": "random", "public": True})
    assert status == 201
    public = opened["table"]["id"]
    status, _ = host.call("POST", f"/api/tables/{public}/leave", None,
                          {"x-seat-token": opened["token"]})
    assert status == 204

    status, never = Player(site).call("POST", "/api/tables", {
        "name": "Gone", "seats": 3, "bot_level": "random", "public": True})
    assert status == 201  # opened, and nobody ever came (no process holds it in a cluster)

    def listed() -> list[str]:
        return [t["id"] for t in host.call("GET", "/api/tables")[1]]

    assert never["table"]["id"] in listed()
    poll(lambda: public not in listed(), what="the abandoned public table expired")
    poll(lambda: never["table"]["id"] not in listed(),
         what="the public table nobody came to expired")
    poll(lambda: host.call("GET", f"/api/tables/{first}")[0] == 404,
         what="the switched-from table expired")
