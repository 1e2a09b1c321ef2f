"""Play now measured in real browsers: the clicks from the lobby to a dealt game with
strangers, and the wait until bots fill the empty seats.

Two strangers (two browser contexts, one a phone) each open the lobby and press the play-now
button with its defaults (4 seats, live); nobody else comes, so at the group's deadline bots
take the two empty seats and the game is dealt. Reported: the clicks each player made (page
loads are not clicks), the seconds from the first player's click to the dealt table for each
of them, and the wait the lobby stated beforehand. A third run has four strangers fill a
table, which then starts without waiting.

    python benchmarks/play_now.py [--port 18660] [--wait 30]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("KINGSBREAKFAST_CHROMIUM", "/usr/bin/chromium")


def serve(port: int, wait: int, folder: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "KINGSBREAKFAST_PLAY_NOW_WAIT": str(wait)}
    process = subprocess.Popen(
        [sys.executable, "-m", "kingsbreakfast", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", f"sqlite:///{folder / 'play-now.db'}", "--bot-delay", "0.2",
         "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2).close()
            return process
        except OSError:
            time.sleep(0.2)  # a child process starting: nothing to wait on but the port
    process.terminate()
    raise RuntimeError("the server did not answer in 30 s")


def ask(page: Any, base: str, name: str) -> int:
    """Open the lobby, type a name and press the button: the clicks it took."""
    page.goto(base + "/")
    page.wait_for_selector("#play-text:not(:empty)")
    page.fill("form#play-now input[name=player]", name)  # typing, not a click
    page.click("form#play-now button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18660)
    parser.add_argument("--wait", type=int, default=30, help="the server's play-now wait (s)")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="kb-play-now-"))
    server = serve(options.port, options.wait, folder)
    base = f"http://127.0.0.1:{options.port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                     "has_touch": True}
            pages = [browser.new_context().new_page(), browser.new_context(**phone).new_page()]
            pages[0].goto(base + "/")
            stated = pages[0].locator("#play-text")
            stated.wait_for()
            pages[0].wait_for_selector("#play-text:not(:empty)")
            print(f"lobby says: {stated.inner_text()}")
            start = time.monotonic()
            names = ("Ann", "Bob")
            clicks = [ask(page, base, name) for page, name in zip(pages, names, strict=True)]
            dealt = []
            for page in pages:
                page.wait_for_selector(".game", timeout=(options.wait + 30) * 1000)
                dealt.append(time.monotonic() - start)
            bots = pages[0].locator(".players li.player strong", has_text="Bot").count()
            print(f"two strangers, 4 seats: {clicks} click(s) each; dealt after "
                  f"{dealt[0]:.1f} s and {dealt[1]:.1f} s with {bots} bots filling "
                  f"(stated wait {options.wait} s)")
            four = [browser.new_context().new_page() for _ in range(4)]
            start = time.monotonic()
            for page, name in zip(four, ("Cy", "Dee", "Eve", "Fay"), strict=True):
                ask(page, base, name)
            for page in four:
                page.wait_for_selector(".game", timeout=(options.wait + 30) * 1000)
            print(f"four strangers, 4 seats: dealt {time.monotonic() - start:.1f} s after the "
                  "first click, without waiting for the deadline")
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
