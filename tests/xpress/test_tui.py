"""The Xpress terminal app, driven by Textual's pilot: a full round against a bot, and a
replay stepped through."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from rummikub.bots.simulate import simulate as simulate_games
from rummikub.tui import xpress_app
from rummikub.tui.xpress_app import DieWidget, TableView, XpressApp
from rummikub.xpress import XpressRecord, XpressRules, load_xpress, read_xpress, verify_xpress
from rummikub.xpress.actions import Place, XpressAction
from rummikub.xpress.bots import get_bot, place_best
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.observation import XpressObservation

from .tui_driver import PATIENCE, play_round, until, until_my_turn


async def _play_round(app: XpressApp) -> None:
    async with app.run_test(size=(110, 50)) as pilot:
        match = app.match
        assert match is not None
        await play_round(app, pilot)
        assert match.state.end is not None
        assert "Round 1" in str(app.query_one("#message").render())
        hand_dice = list(app.query("#hand DieWidget"))
        assert len(hand_dice) == len(match.state.hands[0])


def test_play_a_round_against_greedy(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    app = XpressApp.for_play(bot="greedy", seed=11, save=save, delay=0.0)
    asyncio.run(_play_round(app))
    rec = read_xpress(save)
    assert verify_xpress(rec) > 0
    assert rec.rounds[0].end is not None


def test_select_by_click_and_keys_and_illegal_place() -> None:
    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=3, delay=0.0)
        async with app.run_test(size=(110, 50)) as pilot:
            match = app.match
            assert match is not None
            await until_my_turn(app, pilot)
            # the deal (seed 3) gives the person at the keyboard a turn to place, the table empty
            assert match.state.current == app.human and match.state.phase == "place"
            table_before = match.state.table
            assert not table_before.melds
            hand = match.state.hands[app.human]
            await pilot.press("1")
            assert app.selected == {hand[0].die}
            await pilot.press("1")
            assert app.selected == set()
            widget = app.query("#hand DieWidget").first(DieWidget)
            await pilot.click(widget)
            await pilot.pause()
            assert app.selected == {hand[0].die}
            # a single die alone can never form a set on an empty table
            await pilot.press("p")
            assert match.state.table == table_before
            assert "cannot" in str(app.query_one("#message").render())

    asyncio.run(run())


class _Held:
    """``greedy``, deciding only once the test lets it (``go``); ``asked`` when asked."""

    name = "greedy"

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.go = threading.Event()
        self.greedy = get_bot("greedy")

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        self.asked.set()
        assert self.go.wait(PATIENCE), "the test never let the bot decide"
        return self.greedy.act(obs, time_limit)


def test_the_interface_stays_live_while_the_bot_thinks() -> None:
    """The bot decides on a thread: while it thinks (an expert takes up to its time limit)
    the app redraws and says whose turn it is; its action lands once decided."""

    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=11, delay=0.0)
        held = _Held()
        app.bot = held
        async with app.run_test(size=(110, 50)) as pilot:
            match = app.match
            assert match is not None
            await until_my_turn(app, pilot)
            assert match.state.phase == "place" and not match.state.can_place
            await pilot.press("e")  # nothing to place: the turn goes to the bot
            await until(pilot, held.asked.is_set, "the bot to be asked")
            before = match.state
            await pilot.resize_terminal(90, 40)
            await pilot.pause()
            assert app.size.width == 90
            assert match.state is before and app._my_turn() is False
            assert "greedy is playing..." in str(app.query_one("#message").render())
            held.go.set()
            await until(pilot, lambda: match.state is not before, "the bot's action")
            assert any(line.startswith("greedy placed") for line in app.logged), app.logged

    asyncio.run(run())


def test_the_interface_answers_keys_while_the_hint_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hint searches on a thread (up to a second): meanwhile the app says so and answers
    the keys; the hint's dice are selected once it is found (here the hint is held until the
    test lets it go, and gives greedy's placement)."""
    asked, go = threading.Event(), threading.Event()

    def held(game: object, obs: XpressObservation, seconds: float) -> XpressAction:
        asked.set()
        assert go.wait(PATIENCE), "the test never let the hint finish"
        return place_best(obs)

    monkeypatch.setattr(xpress_app, "hint", held)

    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=13, delay=0.0)
        async with app.run_test(size=(110, 50)) as pilot:
            match = app.match
            assert match is not None
            await until_my_turn(app, pilot)
            # the deal (seed 13) lets the person at the keyboard place at once
            assert match.state.phase == "place" and match.state.can_place
            best = place_best(match.observation(app.human))
            assert isinstance(best, Place)
            await pilot.press("h")
            await until(pilot, asked.is_set, "the hint to be asked")
            assert app.hinting
            assert "Looking for a hint" in str(app.query_one("#message").render())
            first = match.state.hands[app.human][0].die
            await pilot.press("1")  # a key answered while the hint searches
            assert app.selected == {first}
            go.set()
            await until(pilot, lambda: not app.hinting, "the hint")
            assert app.selected == set(best.dice)
            assert str(app.query_one("#message").render()).startswith("Hint")

    asyncio.run(run())


def _greedy_game() -> XpressRecord:
    """A seeded match of greedy against greedy, as a record to replay."""
    games = simulate_games(XPRESS, XpressRules(), ["greedy", "greedy"], games=1, seed=4, players=2)
    return load_xpress(next(games))


def test_replay_steps_through_a_record() -> None:
    rec = _greedy_game()

    async def run() -> None:
        app = XpressApp.for_replay(rec, lang="sv")
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.press("right")
            assert app.step_index == 0
            assert "Steg 1/" in str(app.query_one("#message").render())
            for _ in range(5):
                await pilot.press("space")
            assert app.step_index == 5
            await pilot.press("left")
            assert app.step_index == 4
            shown = len(app.query("#hand DieWidget"))
            assert shown == len(app.steps[4].after.hands[0])

    asyncio.run(run())


def test_replay_viewer_shows_each_turns_verdict() -> None:
    from rummikub.analysis import analyse
    from rummikub.games import load_any

    doc = next(
        simulate_games(
            XPRESS, XpressRules(rounds=2), ["greedy", "random"], games=1, seed=4, players=2
        )
    )
    rec = load_xpress(doc)
    app = XpressApp.for_replay(rec, lang="en")
    # the first turn whose throw lost win chance (seeded: random keeps dice at random), found
    # by the viewer's own judgement turn by turn (judging the whole game costs many times that)
    turns = sorted({(s.round, s.turn) for s in app.steps})
    miss = next(
        t
        for t in (app.judged(ri, ti) for ri, ti in turns)
        if t is not None
        and t.throw is not None
        and t.throw.loss > 2.0
        and t.throw.kept != t.throw.best_kept
    )
    # the viewer's judgement is the analysis's (of the game up to that turn: the same position)
    assert miss.round == 0
    cut = {**doc, "totals": None, "rounds": [{**doc["rounds"][0], "end": None}]}
    cut["rounds"][0]["turns"] = doc["rounds"][0]["turns"][: miss.turn + 1]
    assert analyse(load_any(cut)).turns[-1] == miss

    async def run() -> None:
        async with app.run_test(size=(110, 50)) as pilot:
            index = next(
                i for i, s in enumerate(app.steps) if (s.round, s.turn) == (miss.round, miss.turn)
            )
            for _ in range(index + 1):
                await pilot.press("right")
            message = str(app.query_one("#message").render())
            assert "Analysis:" not in message  # off until asked for
            await pilot.press("v")
            message = str(app.query_one("#message").render())
            assert miss.win_chance is not None and miss.loss is not None and miss.throw
            before, after = miss.win_chance
            said = (
                f"Analysis: {miss.verdict} · win chance {before:.0%} → {after:.0%} "
                f"({miss.loss:.1f} points of win chance lost)"
            )
            assert said in message.replace("\n", " ")
            kept = " ".join(miss.throw.best_kept) or "nothing"
            better = f"Better to keep {kept} and throw the rest ({miss.throw.loss:.1f} points"
            assert better in message.replace("\n", " ")
            await pilot.press("v")
            assert "Analysis:" not in str(app.query_one("#message").render())

    asyncio.run(run())


def test_the_replay_steps_on_while_a_verdict_is_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn's verdict is judged on a thread (the first takes about a second): meanwhile the
    viewer says so and steps on; the verdict appears once judged, each turn judged once (here
    the judgement is held until the test lets it go)."""
    from rummikub.analysis.xpress import judge_xpress_steps as real

    asked: list[tuple[int, int]] = []
    go = threading.Event()

    def held(steps: list[Any], **options: Any) -> Any:
        asked.append((steps[0].round, steps[0].turn))
        assert go.wait(PATIENCE), "the test never let the judgement finish"
        return real(steps, **options)

    monkeypatch.setattr(xpress_app, "judge_xpress_steps", held)
    rec = _greedy_game()

    async def run() -> None:
        app = XpressApp.for_replay(rec, lang="en")
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.press("right", "v")
            first = (app.steps[0].round, app.steps[0].turn)
            await until(pilot, lambda: asked == [first], "the first turn to be judged")
            assert "judging this turn" in str(app.query_one("#message").render())
            # the seeded game's first turn places and ends: its second step is the same turn
            await pilot.press("right")  # the viewer steps on while the judgement is held
            assert app.step_index == 1
            assert (app.steps[1].round, app.steps[1].turn) == first
            assert "judging this turn" in str(app.query_one("#message").render())
            go.set()
            await until(pilot, lambda: first in app._judged, "the verdict")
            verdict = app.judged(*first)
            assert verdict is not None
            await until(
                pilot,
                lambda: "judging" not in str(app.query_one("#message").render()),
                "the verdict to be shown",
            )
            message = str(app.query_one("#message").render()).replace("\n", " ")
            assert app.verdict_text(app.steps[1]) in message
            assert asked == [first]  # judged once, though shown on two steps
            # the thread's judgement is the analysis's: the turn judged as `rummikub analyse`
            steps = [s for s in app.steps if (s.round, s.turn) == first]
            assert verdict == real(steps, ms=rec.rounds[0].turns[0].ms, scores=(0, 0))

    asyncio.run(run())


def _screen(app: XpressApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def test_the_key_line_lists_the_dice_keys_in_the_interface_language() -> None:
    """At 80x24 in Swedish the key line at the bottom names the dice keys (1–9, a, c) and the
    others in Swedish (Textual's footer showed English names, and no dice keys)."""

    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=3, lang="sv", delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            bottom = " ".join(line.strip() for line in _screen(app)[-3:])
            for words in ("1–9 välj en tärning", "a alla", "c rensa", "t slå", "q lämna"):
                assert words in bottom
            screen = "\n".join(_screen(app))
            assert "Throw" not in screen and "Quit" not in screen

    asyncio.run(run())


def test_sets_on_the_table_are_numbered_between_bars_as_in_the_tile_game() -> None:
    rec = _greedy_game()
    steps = XpressApp.for_replay(rec).steps
    index = next(i for i, step in enumerate(steps) if len(step.after.table.melds) >= 2)
    melds = steps[index].after.table.melds

    async def run() -> None:
        app = XpressApp.for_replay(rec, lang="en")
        async with app.run_test(size=(110, 50)) as pilot:
            for _ in range(index + 1):
                await pilot.press("right")
            await pilot.pause()
            assert app.step_index == index
            shown = "\n".join(line.plain for line in app.query_one("#sets", TableView).lines(100))
            assert shown.count("│") == 2 * len(melds)
            for number in range(1, len(melds) + 1):
                assert f"{number:>2}│ " in shown

    asyncio.run(run())
