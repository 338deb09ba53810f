"""The chat in a finished game's replay, in the browser: stepping through the game (7 Wonders and
Duel alike), the messages said up to each step's time appear beside the table (a deleted one stays
deleted, what was said before the game is not there), on a desktop and on a phone."""

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import DESKTOP, PHONE, SHOTS, serious_violations, shot, sideways_overflow, watch_errors
from tests.server.helpers import bearer, create_room, join
from tests.server.live import LiveServer
from tests.server.test_replay_chat import play, say

pytestmark = pytest.mark.browser


async def finished_game_with_a_chat(url: str, game: str) -> tuple[str, list[str]]:
    """Ada (host), Bob (and Cy in 7 Wonders) play a whole game over REST in a room without
    spectators, and talk: "good luck" before the first step, two messages after the second (the
    host deletes one), "well played" after the end. The room's code and the seats' tokens."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        players = 2 if game == "duel" else 3
        # players only: the replay asks for the history with the seat's token
        code, ada = await create_room(http, game=game, players=players, seed=11, spectators="off")
        tokens = [ada] + [(await join(http, code, name))[1] for name in ("Bob", "Cy")[: players - 1]]
        await say(http, code, ada, "before the game")
        assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(ada))).status_code == 200
        await say(http, code, ada, "good luck")
        assert await play(http, code, tokens, 2) == 2
        await say(http, code, tokens[1], "that was a bluff")
        rude = await say(http, code, tokens[1], "something rude")
        assert (await http.delete(f"/api/rooms/{code}/chat/{rude['id']}", headers=bearer(ada))).status_code == 200
        await play(http, code, tokens)
        await say(http, code, tokens[1], "well played")
    return code, tokens


async def open_replay(page: Page, url: str, code: str, token: str, seat: int) -> None:
    await page.context.add_init_script(
        f"localStorage.setItem('wonders.seat.{code}', JSON.stringify({{seat: {seat}, token: '{token}'}}))"
    )
    await page.goto(f"{url}/room.html?code={code}")
    await page.get_by_role("button", name="Replay").click()


def said(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_role("list", name="Messages said by this step").get_by_role("listitem")


@pytest.mark.parametrize("game", ["classic", "duel"])
async def test_stepping_through_a_replay_shows_each_message_at_its_step(
    web_server: LiveServer, chromium: Browser, game: str
) -> None:
    code, tokens = await finished_game_with_a_chat(web_server.url, game)
    page = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(page)
    await open_replay(page, web_server.url, code, tokens[0], 0)
    chat = page.get_by_role("region", name="Chat at this step")
    # the replay opens at the end: everything said during the game and after it, nothing before
    await expect(said(page)).to_have_count(4)
    assert "before the game" not in await chat.inner_text()
    await expect(said(page).last).to_contain_text("well played")
    await expect(said(page).nth(2)).to_contain_text("deleted by the host")
    assert "something rude" not in await chat.inner_text()

    slider = page.get_by_role("slider", name="Step of the game")
    await slider.press("Home")  # the start
    await expect(page.locator(".replay-where")).to_contain_text("Step 0 of")
    await expect(said(page)).to_have_count(1)
    await expect(said(page).first).to_contain_text("Ada")
    await expect(said(page).first).to_contain_text("good luck")
    await expect(chat).to_contain_text("1 message said at this step.")
    await page.get_by_role("button", name="Next step").click()
    await expect(page.locator(".replay-where")).to_contain_text("Step 1 of")
    await expect(said(page)).to_have_count(1)  # nothing said between the first and the second step
    assert "said at this step" not in await chat.inner_text()
    await page.get_by_role("button", name="Next step").click()
    await expect(page.locator(".replay-where")).to_contain_text("Step 2 of")
    await expect(said(page)).to_have_count(3)  # Bob's two messages, said after the second step
    await expect(said(page).nth(1)).to_contain_text("that was a bluff")
    await expect(said(page).nth(2)).to_contain_text("deleted by the host")
    await expect(chat).to_contain_text("2 messages said at this step.")
    await shot(page, f"replay-chat-{game}-desktop")
    await page.locator("#history-panel").screenshot(path=str(SHOTS / f"replay-chat-{game}-desktop-panel.png"))
    assert await serious_violations(page) == []
    await page.get_by_role("button", name="Previous step").click()
    await expect(said(page)).to_have_count(1)  # and back
    assert errors == []

    phone = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors = watch_errors(phone)
    await open_replay(phone, web_server.url, code, tokens[1], 1)
    await expect(said(phone)).to_have_count(4)
    await phone.get_by_role("slider", name="Step of the game").press("Home")
    await phone.get_by_role("button", name="Next step").click()
    await phone.get_by_role("button", name="Next step").click()
    await expect(said(phone)).to_have_count(3)
    await phone.get_by_role("region", name="Chat at this step").scroll_into_view_if_needed()
    assert await sideways_overflow(phone) == 0
    await shot(phone, f"replay-chat-{game}-phone")
    await phone.locator("#history-panel").screenshot(path=str(SHOTS / f"replay-chat-{game}-phone-panel.png"))
    assert errors == []
