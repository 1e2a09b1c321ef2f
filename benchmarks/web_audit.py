"""The browser client measured with the standard tools: axe-core and Lighthouse 12.8 on the
lobby, a table, a replay and a finished game's review, on a phone and a desktop, and the
page's weight and time until playable on a slow phone network.

Goals (issue: "accessible and quick"): axe 0 violations on every page; Lighthouse at least
95 in each of performance, accessibility, best practices and SEO, mobile and desktop, for
lobby, table, replay and review. Lighthouse is a measurement, not a test: the axe checks also run in
the browser tests (tests/web).

How:

- A server is started on 127.0.0.1 (``--port``) with a fresh SQLite file. A full 3-seat game
  is played in the browser (so the replay exists), and a second table is left at its human
  player's turn (so the table page does not change while it is measured; it is seen as a
  spectator, as Lighthouse has no seat token).
- Lighthouse 12.8 runs from npm, installed into ``--lighthouse-dir`` (outside the
  repository), against Debian's chromium (``CHROME_PATH``, flags ``--headless --no-sandbox
  --disable-gpu``); mobile is Lighthouse's default (simulated Slow 4G, 4× CPU), desktop is
  its ``desktop`` preset.
- Weight and time until playable: Playwright's chromium with the network throttled through
  the DevTools protocol to DevTools' "Slow 4G" (562.5 ms latency, 1.6 Mbit/s down,
  750 kbit/s up, each ×0.9 as DevTools does) and the CPU slowed 4×, cold cache. Weight is
  the bytes on the wire (headers included) of every request until the page is playable;
  playable is the moment the page's controls are drawn and filled in: the lobby's form and
  both lists, the table's cards, the replay's step controls. The median of ``--runs``.

    python benchmarks/web_audit.py [--port 18650] [--runs 3] [--skip-lighthouse]
        [--source DIR]   # measure another checkout's client (e.g. main) with the same method
        [--screens docs/screens --languages en de]   # and save the screenshots
        [--pages review]   # only some of lobby, table, replay, review
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("KINGSBREAKFAST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu"]
LIGHTHOUSE = "lighthouse@12.8"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SLOW_4G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
    "uploadThroughput": 750 * 1024 / 8 * 0.9,
}
PLAYABLE = {
    "lobby": "form#create button[type=submit]",
    "table": ".game .stacks .stack",
    "replay": ".replay-controls button",
    "review": ".review-table tbody tr",
}
# the lobby is playable once both lists are filled in too (they shift the page otherwise)
LOBBY_LISTS = "#tables li, #archive li"


def free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class Server:
    """The game server as a child process (stopped by ``stop``)."""

    def __init__(self, port: int, source: Path | None) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.dir = Path(tempfile.mkdtemp(prefix="kb-audit-"))
        env = dict(os.environ)
        if source is not None:
            env["PYTHONPATH"] = str(source / "src")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kingsbreakfast", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", f"sqlite:///{self.dir / 'audit.db'}",
             "--bot-delay", "0.02", "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/api/tables", timeout=2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)  # a child process starting: nothing to wait on but the port
        self.process.terminate()  # not left running on the port
        raise RuntimeError("the server did not answer in 30 s")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def create_and_start(page: Any, base: str) -> str:
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=seats]", "3")
    page.select_option("select[name=bot_level]", "random")
    page.click("form#create button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    page.wait_for_selector("#start")
    table = str(page.url.rsplit("/", 1)[1])
    page.click("#start")
    page.wait_for_selector(".game")
    return table


def play_to_the_end(page: Any) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        page.wait_for_selector(".game.my-turn, #score", timeout=60_000)
        if page.locator("#score").count():
            return
        for target in (
            "dialog[open] button[data-dragon=place]", "button.stack.legal[data-take]",
            "button[data-act=draw]:not([disabled])", "button[data-act=pass]",
        ):
            found = page.locator(target).first
            if found.count():
                try:
                    found.click(timeout=2000)
                    page.wait_for_selector(".game:not(.my-turn), dialog[open], #score",
                                           timeout=5000)
                except Exception:
                    pass
                break
    raise RuntimeError("the game did not finish")


def prepare(browser: Any, base: str) -> dict[str, str]:
    """A finished game (for the replay) and a table waiting on its human (for the table)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    finished = create_and_start(page, base)
    play_to_the_end(page)
    waiting = create_and_start(page, base)
    page.wait_for_selector(".game.my-turn", timeout=60_000)
    context.close()
    return {"lobby": "/", "table": f"/t/{waiting}", "replay": f"/replay/{finished}",
            "review": f"/review/{finished}?seat=0"}


def screenshots(browser: Any, base: str, out: Path, languages: tuple[str, ...]) -> None:
    """The closing note's pictures: lobby, table and score on a desktop, the table at your
    turn and the score on a phone (the first screen only, as a player sees it), per language."""
    out.mkdir(parents=True, exist_ok=True)
    for code in languages:
        desktop = browser.new_context(locale=code, viewport={"width": 1280, "height": 860})
        page = desktop.new_page()
        page.goto(base + "/")
        page.wait_for_selector(LOBBY_LISTS)
        page.screenshot(path=str(out / f"lobby-{code}.png"))
        create_and_start(page, base)
        page.wait_for_selector(".game.my-turn", timeout=60_000)
        page.mouse.move(0, 0)
        page.screenshot(path=str(out / f"table-{code}.png"))
        play_to_the_end(page)
        page.locator("#score").scroll_into_view_if_needed()
        page.locator("#score").screenshot(path=str(out / f"score-{code}.png"))
        desktop.close()
        phone = browser.new_context(
            locale=code, viewport={"width": 390, "height": 844}, is_mobile=True,
            has_touch=True, device_scale_factor=2,
        )
        page = phone.new_page()
        create_and_start(page, base)
        page.wait_for_selector(".game.my-turn", timeout=60_000)
        page.screenshot(path=str(out / f"phone-table-{code}.png"))
        play_to_the_end(page)
        page.locator("#score").screenshot(path=str(out / f"phone-score-{code}.png"))
        phone.close()


def axe(browser: Any, url: str, kind: str, mobile: bool) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    options: dict[str, Any] = (
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
        if mobile else {"viewport": {"width": 1350, "height": 940}}
    )
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(PLAYABLE[kind])
    if kind == "lobby":
        page.wait_for_selector(LOBBY_LISTS)
    results = Axe().run(page, options={
        "resultTypes": ["violations"],
        "rules": {"label-content-name-mismatch": {"enabled": True}},
    })
    context.close()
    return [f"{v['id']} ×{len(v['nodes'])}" for v in results.response["violations"]]


def weight_and_time(browser: Any, url: str, kind: str) -> tuple[int, int, float]:
    """(bytes on the wire, requests, seconds until playable) on a throttled phone."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    sizes: dict[str, float] = {}
    cdp.on("Network.loadingFinished",
           lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]))
    page.goto(url, wait_until="commit")
    page.wait_for_selector(PLAYABLE[kind], timeout=60_000)
    if kind == "lobby":
        page.wait_for_selector(LOBBY_LISTS, timeout=60_000)
    playable = float(page.evaluate("performance.now()")) / 1000
    total = int(sum(sizes.values()))
    count = len(sizes)
    context.close()
    return total, count, playable


def lighthouse_bin(directory: Path) -> Path:
    binary = directory / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(directory), LIGHTHOUSE],
                       check=True, stdout=subprocess.DEVNULL)
    return binary


def lighthouse(binary: Path, url: str, desktop: bool, out: Path) -> dict[str, int]:
    command = [
        str(binary), url, "--quiet", "--output=json", f"--output-path={out}",
        "--chrome-flags=--headless --no-sandbox --disable-gpu",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    if desktop:
        command.append("--preset=desktop")
    for attempt in range(3):  # chromium now and then fails to start on a busy machine
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM},
                              capture_output=True, text=True)
        if done.returncode == 0:
            break
        if attempt == 2:
            raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-800:]}")
    report = json.loads(out.read_text())
    scores = {name: round(100 * (report["categories"][name]["score"] or 0))
              for name in CATEGORIES}
    failing = [
        f"{audit_id} ({audit.get('score')})" for audit_id, audit in report["audits"].items()
        if audit.get("score") is not None and audit["score"] < 0.9
        and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
    ]
    scores["_failing"] = failing  # type: ignore[assignment]
    metrics = report["audits"]
    scores["_cls"] = metrics["cumulative-layout-shift"]["numericValue"]  # type: ignore[assignment]
    scores["_lcp_ms"] = round(metrics["largest-contentful-paint"]["numericValue"])
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18650)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-lighthouse", action="store_true")
    parser.add_argument("--source", type=Path, default=None,
                        help="a checkout whose src/ to serve instead of the installed one")
    parser.add_argument("--lighthouse-dir", type=Path,
                        default=Path.home() / ".cache" / "kingsbreakfast-lighthouse")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    parser.add_argument("--screens", type=Path, default=None,
                        help="save screenshots here (docs/screens), in --languages")
    parser.add_argument("--languages", nargs="+", default=["en", "de"])
    parser.add_argument("--pages", nargs="+", default=list(PLAYABLE), choices=list(PLAYABLE),
                        help="measure only these pages")
    options = parser.parse_args()
    if not free(options.port):
        sys.exit(f"port {options.port} is taken: pick another with --port")

    from playwright.sync_api import sync_playwright

    server = Server(options.port, options.source)
    figures: dict[str, Any] = {"axe": {}, "lighthouse": {}, "slow_4g": {}}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            if options.screens is not None:
                screenshots(browser, server.base, options.screens, tuple(options.languages))
            paths = {kind: path for kind, path in prepare(browser, server.base).items()
                     if kind in options.pages}
            for kind, path in paths.items():
                for mobile in (True, False):
                    found = axe(browser, server.base + path, kind, mobile)
                    figures["axe"][f"{kind} {'mobile' if mobile else 'desktop'}"] = found
                runs = [weight_and_time(browser, server.base + path, kind)
                        for _ in range(options.runs)]
                figures["slow_4g"][kind] = {
                    "bytes": int(statistics.median(r[0] for r in runs)),
                    "requests": int(statistics.median(r[1] for r in runs)),
                    "playable_s": round(statistics.median(r[2] for r in runs), 2),
                }
            browser.close()
        if not options.skip_lighthouse:
            binary = lighthouse_bin(options.lighthouse_dir)
            with tempfile.TemporaryDirectory() as scratch:
                for kind, path in paths.items():
                    for desktop in (False, True):
                        name = f"{kind} {'desktop' if desktop else 'mobile'}"
                        out = Path(scratch) / f"{kind}-{int(desktop)}.json"
                        figures["lighthouse"][name] = lighthouse(
                            binary, server.base + path, desktop, out
                        )
    finally:
        server.stop()
    report(figures)
    if options.json:
        options.json.write_text(json.dumps(figures, indent=2))


def report(figures: dict[str, Any]) -> None:
    print("axe-core violations")
    for name, found in figures["axe"].items():
        print(f"  {name:16} {len(found)} {' '.join(found)}")
    print("Slow 4G, 4× CPU, cold cache (median)")
    for kind, row in figures["slow_4g"].items():
        print(f"  {kind:8} {row['bytes'] / 1000:7.1f} kB in {row['requests']:2} requests, "
              f"playable after {row['playable_s']:.2f} s")
    if figures["lighthouse"]:
        print("Lighthouse 12.8 " + " / ".join(CATEGORIES))
        for name, row in figures["lighthouse"].items():
            scores = " / ".join(str(row[c]) for c in CATEGORIES)
            low = ", ".join(row["_failing"][:6])
            print(f"  {name:16} {scores}   CLS {row['_cls']:.3f} LCP {row['_lcp_ms']} ms"
                  + (f"   below 0.9: {low}" if low else ""))


if __name__ == "__main__":
    main()
