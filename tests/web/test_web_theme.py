"""Dark colours and the installable app: the site follows the system's dark mode, the player
may switch either way (remembered), axe finds no contrast problem in the dark lobby, table
and leave dialog; the page names a web app manifest with icons, a service worker keeps the
static shell, and chromium reports the site installable."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.auditing import assert_accessible  # noqa: E402
from web.browsing import shot  # noqa: E402
from web.playing import open_solo_table  # noqa: E402

BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}


def lightness(rgb: str) -> float:
    parts = [int(p) for p in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    return sum(parts) / (3 * 255)


@pytest.mark.parametrize("phone", [False, True])
def test_dark_mode_follows_the_system_and_stays_readable(
    server: LiveServer, browser: Any, phone: bool
) -> None:
    options = PHONE if phone else {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(color_scheme="dark", **options)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    assert lightness(page.evaluate(BACKGROUND)) < 0.2
    assert_accessible(page, "the dark lobby")
    where = "phone-" if phone else ""
    shot(page, f"dark-lobby-{where}en")
    open_solo_table(page, server.base)
    page.wait_for_selector(".game.my-turn", timeout=30_000)
    assert_accessible(page, "the dark table at the player's turn")
    shot(page, f"dark-table-{where}en")
    page.click("#leave-game")
    page.locator("dialog#leave-dialog[open]").wait_for()
    assert_accessible(page, "the dark leave dialog")
    page.locator("dialog#leave-dialog[open] [data-leave=stay]").click()
    page.select_option("#lang", "de")
    page.wait_for_selector("html[lang=de]")
    shot(page, f"dark-table-{where}de")
    page.goto(server.base + "/")  # the lobby in the language just chosen
    page.wait_for_selector("html[lang=de] form#create")
    shot(page, f"dark-lobby-{where}de")
    context.close()


def test_the_player_switches_colours_and_the_choice_is_kept(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#theme")
    page.select_option("#theme", "light")
    assert lightness(page.evaluate(BACKGROUND)) > 0.8
    page.reload()
    page.wait_for_selector("#theme")
    assert lightness(page.evaluate(BACKGROUND)) > 0.8
    assert page.locator("#theme").input_value() == "light"
    page.select_option("#theme", "dark")
    assert lightness(page.evaluate(BACKGROUND)) < 0.2
    assert_accessible(page, "the lobby switched to dark")
    page.select_option("#theme", "auto")
    assert lightness(page.evaluate(BACKGROUND)) < 0.2  # the system's dark again
    context.close()


def test_the_site_installs_as_an_app(server: LiveServer, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    manifest = page.request.get(server.base + href).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        reply = page.request.get(server.base + href.rsplit("/", 1)[0] + "/" + icon["src"])
        assert reply.ok and reply.headers["content-type"].startswith(icon["type"]), icon
    # the worker controls the site and keeps the static shell of this version
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    kept = page.evaluate("caches.keys()")
    version = href.split("/")[2]
    assert f"kb-shell-{version}" in kept, kept
    shell = page.evaluate(f"caches.open('kb-shell-{version}').then((c) => c.keys())"
                          ".then((ks) => ks.map((r) => new URL(r.url).pathname))")
    assert "/" in shell and any(path.endswith("/app.js") for path in shell), shell
    # no game data is kept: of the API, only the rules (readable offline), in every language
    kept_api = sorted(path for path in shell if path.startswith("/api/"))
    assert kept_api == [f"/api/rules/{code}" for code in ("de", "en", "fr", "hu", "vi")], kept_api
    context.close()


def test_chromium_finds_the_site_installable(
    server: LiveServer, browser: Any, tmp_path: Any
) -> None:
    """Chromium's own installability check (what its install prompt and Lighthouse's former
    installable audit use), in a profile kept on disk: an incognito window never installs."""
    from web.browsing import ARGS, CHROMIUM

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True
    )
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    page.reload()
    page.wait_for_selector("form#create")
    session = context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    context.close()
