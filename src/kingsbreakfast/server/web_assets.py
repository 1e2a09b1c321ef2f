"""The browser client delivered quickly and safely: versioned static URLs, one page that
names everything it needs up front, compressed answers and the security headers.

Why each piece:

- Every static file is served under ``/assets/<version>/``, where the version is a digest of
  all the client's files. An upgrade changes every URL at once, so a page never mixes old
  and new modules, and each file can be cached for a year.
- The page (``index.html``) is filled in per request: the module graph is preloaded, and the
  language list, the player's language and the catalogue URLs are written into a JSON data
  block, so the client fetches its catalogues in parallel instead of one request after
  another. The page itself is never cached (``no-cache``), since it names the version.
- Text answers are compressed (brotli when the browser takes it and the library is present,
  else gzip); static files are compressed once and kept.
- A strict Content-Security-Policy (scripts, styles and connections from this origin only, no
  inline script, no framing), ``X-Content-Type-Options``, ``Referrer-Policy``.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import importlib
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable, MutableMapping
from functools import cache
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from kingsbreakfast.i18n import UnknownLanguageError
from kingsbreakfast.i18n import accept_language as i18n_accept_language

from . import matching, strings

_brotli: Any
try:  # brotli is optional (it ships untyped): gzip alone is fine
    _brotli = importlib.import_module("brotli")
except ImportError:  # pragma: no cover - depends on the install
    _brotli = None

__all__ = ["LANGUAGE_COOKIE", "SECURITY_HEADERS", "WebAssets", "install"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LANGUAGE_COOKIE: Final = "kb_lang"
"""The language the player picked (not a credential: it only chooses the catalogue)."""

IMMUTABLE: Final = "public, max-age=31536000, immutable"
CSP: Final = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "media-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
])
SECURITY_HEADERS: Final = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
# FastAPI's own API pages load their viewer from a CDN: they keep working without our CSP.
_NO_CSP_PATHS: Final = ("/docs", "/redoc")
_COMPRESSIBLE: Final = re.compile(rb"^(text/|application/(json|javascript)|image/svg)")
_MIN_COMPRESS: Final = 512
_IMPORT: Final = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^"';]*?from\s*["']\./([\w./-]+)["']"""
)
_STATIC_REF: Final = re.compile(r'(["\'])/static/')
_REPLAY_PAGE: Final = re.compile(r"/replay/([\w-]+)")  # as the client routes it


def _encoding(accept: str) -> str | None:
    """The best encoding the browser accepts that we can make."""
    offered = {part.split(";")[0].strip().lower() for part in accept.split(",")}
    if _brotli is not None and "br" in offered:
        return "br"
    if "gzip" in offered:
        return "gzip"
    return None


def _compress(data: bytes, encoding: str, *, once: bool = True) -> bytes:
    """``once``: a static file, compressed once and kept, so as small as can be; otherwise
    an answer made per request (the JSON API, the page), compressed at a level whose cost
    stays in microseconds. Brotli's 9 took 1–5 ms for a half-kilobyte answer, about as
    long as the rest of the request, for a few bytes less than its 5 with a small window."""
    if encoding == "br" and _brotli is not None:
        if once:
            return bytes(_brotli.compress(data, quality=9))
        return bytes(_brotli.compress(data, quality=5, lgwin=18))
    return gzip.compress(data, compresslevel=9 if once else 6, mtime=0)


class WebAssets:
    """The client's files read once at startup: their version and their compressed forms."""

    def __init__(self, static: Path) -> None:
        self.static = static
        digest = hashlib.sha256()
        for path in sorted(static.rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(static).as_posix().encode())
                digest.update(path.read_bytes())
        self.version = digest.hexdigest()[:12]
        self.prefix = f"/assets/{self.version}/"
        self._cache: dict[tuple[str, str | None], bytes] = {}

    def file(self, relative: str) -> Path | None:
        """The static file at ``relative``, or None if there is none (or it lies outside)."""
        path = (self.static / relative).resolve()
        root = self.static.resolve()
        if root not in path.parents or not path.is_file():
            return None
        return path

    def body(self, relative: str, data: bytes, encoding: str | None) -> bytes:
        key = (relative, encoding)
        if key not in self._cache:
            self._cache[key] = data if encoding is None else _compress(data, encoding)
        return self._cache[key]

    def modules(self) -> list[str]:
        """Every module the client imports, entry point first (for ``modulepreload``)."""
        return _module_graph(self.static)

    def catalogue_url(self, language: str) -> str:
        return f"{self.prefix}lang/{language}.json"

    def page(self, language: str, fetches: tuple[str, ...] = ()) -> str:
        """The index page for a player whose language is ``language``; ``fetches`` are API
        answers the page will ask for at once, preloaded with the modules so that they do
        not wait for them."""
        text = (self.static / "index.html").read_text(encoding="utf-8")
        text = _STATIC_REF.sub(lambda m: f"{m.group(1)}{self.prefix}", text)
        wanted = ["en"] if language == "en" else ["en", language]
        preload = [
            f'<link rel="modulepreload" href="{self.prefix}{module}">'
            for module in self.modules()[1:]
        ] + [
            f'<link rel="preload" as="fetch" crossorigin="anonymous" '
            f'href="{self.catalogue_url(code)}">'
            for code in wanted
        ] + [
            f'<link rel="preload" as="fetch" crossorigin="anonymous" href="{html.escape(url)}">'
            for url in fetches
        ]
        boot = {
            "version": self.version,
            "assets": self.prefix,
            "language": language,
            "languages": strings.languages(),
            "catalogues": {code: self.catalogue_url(code) for code in wanted},
            "play_now_wait": round(matching.WAIT),  # said in the lobby before anyone asks
        }
        # a data block is never run, so the CSP needs no exception for it; "<" is escaped so
        # nothing in it can close the element
        data = json.dumps(boot, separators=(",", ":")).replace("<", "\\u003c")
        block = f'<script type="application/json" id="boot">{data}</script>'
        extra = "\n  ".join([*preload, block])
        text = text.replace("</head>", f"  {extra}\n</head>", 1)
        # the tab's title and the search engines' description in the player's language
        words = strings.catalog(self.static, language)
        text = _TITLE.sub(f"<title>{html.escape(words['app.title'])}</title>", text, count=1)
        text = _DESCRIPTION.sub(
            f'<meta name="description" content="{html.escape(words["app.description"])}">',
            text, count=1,
        )
        return text.replace('<html lang="en">', f'<html lang="{html.escape(language)}">', 1)


_TITLE: Final = re.compile(r"<title>[^<]*</title>")
_DESCRIPTION: Final = re.compile(r'<meta name="description" content="[^"]*">')


@cache
def _module_graph(static: Path) -> list[str]:
    order: list[str] = []
    pending = ["app.js"]
    while pending:
        name = pending.pop(0)
        if name in order or not (static / name).is_file():
            continue
        order.append(name)
        source = (static / name).read_text(encoding="utf-8")
        base = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        pending.extend(base + found for found in _IMPORT.findall(source))
    return order


def player_language(request: Request) -> str:
    """The language the player picked (a cookie), else the browser's preferred one."""
    picked = request.cookies.get(LANGUAGE_COOKIE, "")
    codes = [entry["code"] for entry in strings.languages()]
    if picked in codes:
        return picked
    return i18n_accept_language(request.headers.get("accept-language"))


def install(app: FastAPI, static: Path) -> WebAssets:
    """Add the versioned asset routes and the header and compression middleware to ``app``;
    returns what ``client_page`` needs."""
    assets = WebAssets(static)
    app.state.web_assets = assets

    @app.get("/assets/{version}/lang/{language}.json", include_in_schema=False)
    async def catalogue(version: str, language: str, request: Request) -> Response:
        try:
            table = strings.catalog(static, language[:16])
        except UnknownLanguageError:
            return JSONResponse(
                {"error": {"code": "unknown_language", "message": "there is no catalogue "
                           "for this language", "params": {"language": language[:16]}}},
                status_code=404,
            )
        data = json.dumps(table, ensure_ascii=False, sort_keys=True).encode()
        return _asset_response(
            assets, f"lang/{language}.json", data, "application/json", version, request
        )

    @app.get("/assets/{version}/{relative:path}", include_in_schema=False)
    async def asset(version: str, relative: str, request: Request) -> Response:
        path = assets.file(relative)
        if path is None:
            return PlainTextResponse("not found", status_code=404)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            kind = "text/javascript"
        if kind.startswith("text/") or kind.endswith("json") or kind.endswith("xml"):
            kind += "; charset=utf-8"
        return _asset_response(assets, relative, path.read_bytes(), kind, version, request)

    @app.get("/robots.txt", include_in_schema=False)
    async def robots() -> PlainTextResponse:
        return PlainTextResponse("User-agent: *\nDisallow: /api/\nDisallow: /ws/\n")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(
            (static / "favicon.svg").read_bytes(), media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=86400"},
        )

    app.add_middleware(_WebMiddleware)
    return assets


def client_page(request: Request) -> Response:
    """The client's single page, for every route it draws itself."""
    assets: WebAssets = request.app.state.web_assets
    language = player_language(request)
    return Response(
        assets.page(language, _first_fetches(request)).encode(),
        media_type="text/html; charset=utf-8",
        headers={"cache-control": "no-cache", "vary": "Accept-Language, Cookie"},
    )


def _first_fetches(request: Request) -> tuple[str, ...]:
    """The API answers the client asks for as soon as it starts on this route: who is
    logged in (where the server has accounts), in the lobby both lists, in a replay its
    first step."""
    has_accounts = getattr(request.app.state, "site", None) is not None
    wanted = ["/api/account"] if has_accounts else []
    path = request.url.path
    if path == "/":
        wanted += ["/api/tables", "/api/archive"]
    replay = _REPLAY_PAGE.fullmatch(path)
    if replay:
        wanted.append(f"/games/{replay.group(1)}/replay/0")
    return tuple(wanted)


def _asset_response(
    assets: WebAssets, relative: str, data: bytes, kind: str, version: str, request: Request
) -> Response:
    # an old page asking for its own version after an upgrade gets today's file, but must
    # not keep it: only the current version is cached for long
    cache_control = IMMUTABLE if version == assets.version else "no-cache"
    encoding = _encoding(request.headers.get("accept-encoding", "")) if (
        _COMPRESSIBLE.match(kind.encode()) and len(data) >= _MIN_COMPRESS
    ) else None
    headers = {"cache-control": cache_control, "vary": "Accept-Encoding"}
    if encoding is not None:
        headers["content-encoding"] = encoding
    return Response(assets.body(relative, data, encoding), media_type=kind, headers=headers)


class _WebMiddleware:
    """Security headers on every HTTP answer; compression of text answers not already
    compressed (the JSON API, the page)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = not path.startswith(_NO_CSP_PATHS)
        accept = ""
        for name, value in scope.get("headers", []):
            if name == b"accept-encoding":
                accept = value.decode("latin-1")
        encoding = _encoding(accept)
        start: Message | None = None
        chunks: list[bytes] = []

        async def wrapped(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in names:
                        headers.append((name.encode(), value.encode()))
                if csp and b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                message["headers"] = headers
                kind = next((v for n, v in headers if n.lower() == b"content-type"), b"")
                if encoding is None or b"content-encoding" in names or not _COMPRESSIBLE.match(
                    kind
                ):
                    await send(message)
                    return
                start = message  # held until the body is known
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await _send_compressed(send, start, b"".join(chunks), encoding)

        await self.app(scope, receive, wrapped)


async def _send_compressed(send: Send, start: Message, body: bytes, encoding: str | None) -> None:
    headers = [(n, v) for n, v in start["headers"] if n.lower() != b"content-length"]
    if encoding is not None and len(body) >= _MIN_COMPRESS:
        body = _compress(body, encoding, once=False)
        headers.append((b"content-encoding", encoding.encode()))
        vary = [v for n, v in headers if n.lower() == b"vary"]
        headers = [(n, v) for n, v in headers if n.lower() != b"vary"]
        merged = b", ".join([*vary, b"Accept-Encoding"])
        headers.append((b"vary", merged))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({**start, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})
