"""How the client is delivered: versioned asset URLs cached for a year, a page that names
its modules and catalogues up front, compressed answers, and the security headers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.server import strings
from kingsbreakfast.server.app import create_app, static_dir
from kingsbreakfast.server.web_assets import CSP, LANGUAGE_COOKIE

brotli = pytest.importorskip("brotli")

BOOT = re.compile(r'<script type="application/json" id="boot">(.*?)</script>')


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('assets') / 'web.db'}"
    with TestClient(create_app(url, bot_delay=0.0)) as test_client:
        yield test_client


def boot(page: str) -> dict[str, object]:
    found = BOOT.search(page)
    assert found, "the page has no boot data"
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_every_page_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/replay/abc", "/rules", "/api/tables", "/robots.txt"):
        reply = client.get(path)
        assert reply.headers["x-content-type-options"] == "nosniff", path
        assert reply.headers["referrer-policy"] == "same-origin", path
        policy = reply.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
    assert CSP.startswith("default-src 'none'")


def test_the_page_names_versioned_modules_and_catalogues(client: TestClient) -> None:
    reply = client.get("/", headers={"accept-language": "hu-HU,hu;q=0.9"})
    assert reply.headers["cache-control"] == "no-cache"
    page = reply.text
    data = boot(page)
    prefix = str(data["assets"])
    assert re.fullmatch(r"/assets/[0-9a-f]{12}/", prefix)
    assert f'<script type="module" src="{prefix}app.js">' in page
    for module in ("strings.js", "cards.js", "focus.js"):
        assert f'<link rel="modulepreload" href="{prefix}{module}">' in page
    assert data["language"] == "hu" and '<html lang="hu">' in page
    assert data["catalogues"] == {"en": f"{prefix}lang/en.json", "hu": f"{prefix}lang/hu.json"}
    assert "/static/" not in page  # every URL is versioned
    # the lobby's lists and the account are asked for with the modules, not after them
    for url in ("/api/account", "/api/tables", "/api/archive"):
        assert f'<link rel="preload" as="fetch" crossorigin="anonymous" href="{url}">' in page
    assert "/api/tables" not in client.get("/t/abc").text
    assert 'href="/games/abc/replay/0"' in client.get("/replay/abc").text
    # the player's pick (a cookie) wins over the browser's language
    client.cookies.set(LANGUAGE_COOKIE, "vi")
    try:
        assert boot(client.get("/", headers={"accept-language": "de"}).text)["language"] == "vi"
    finally:
        client.cookies.clear()


def test_assets_are_cached_for_a_year_and_compressed(client: TestClient) -> None:
    prefix = str(boot(client.get("/").text)["assets"])
    source = (static_dir() / "app.js").read_bytes()
    for encoding in ("br", "gzip"):
        reply = client.get(
            f"{prefix}app.js", headers={"accept-encoding": encoding}
        )
        assert reply.status_code == 200
        assert reply.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert reply.headers["content-encoding"] == encoding
        assert reply.headers["content-type"].startswith("text/javascript")
        # the test client undoes the encoding itself; the length is what was sent
        assert reply.content == source
        assert int(reply.headers["content-length"]) < len(source) / 2
    stale = client.get("/assets/000000000000/app.js")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
    assert client.get(f"{prefix}nothing.js").status_code == 404
    catalogue = client.get(f"{prefix}lang/de.json").json()
    assert catalogue == strings.catalog(static_dir(), "de")
    assert client.get(f"{prefix}lang/xx.json").status_code == 404


def test_api_answers_are_compressed_when_large(client: TestClient) -> None:
    reply = client.get("/api/strings/en", headers={"accept-encoding": "gzip"})
    assert reply.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in reply.headers["vary"]
    assert reply.json() == strings.catalog(static_dir(), "en")
    plain = client.get("/api/strings/en", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="./%abcdefghijklmnopqrstuvwxyz_-0123456789", min_size=1, max_size=40))
def test_no_asset_path_reaches_outside_the_client(client: TestClient, relative: str) -> None:
    reply = client.get(f"/assets/v/{relative}")
    inside = Path(static_dir()).resolve()
    if reply.status_code == 200 and not relative.startswith("lang/"):
        target = (inside / relative).resolve()
        assert inside in target.parents, relative
