"""The installable app's service worker, served from the site's root so that its scope is the
whole site (a worker under ``/assets/<version>/`` could control only that folder).

The worker is written for the client version being served: it keeps that version's static
shell (the modules, stylesheets, English strings and icons, all under ``/assets/<version>/``,
which never change) and the page, and drops the caches of older versions. Play itself needs
the server: the worker never answers an API call or the socket, and claims no offline play,
with one exception: the rules, in every language, are kept too (fresh from the network while
there is one), so a player without a connection can still read them.
"""

from __future__ import annotations

import json
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from .. import strings
from ..web_assets import WebAssets

router = APIRouter()

_SHELL_FILES: Final = ("style.css", "pages.css", "strings/en.json", "favicon.svg",
                       "manifest.json", "icon-192.png", "icon-512.png")

_WORKER: Final = """// King's Breakfast: the static shell of client version {version}.
const CACHE = "kb-shell-{version}";
const PREFIX = {prefix};
const SHELL = {shell};
const RULES = "/api/rules/";
self.addEventListener("install", (event) => {{
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
}});
self.addEventListener("activate", (event) => {{
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys
      .filter((k) => k.startsWith("kb-shell-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
}});
self.addEventListener("fetch", (event) => {{
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (url.pathname.startsWith(PREFIX)) {{
    // a versioned file never changes: the kept copy, else the network (and keep it)
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request)
      .then((hit) => hit || fetch(request).then((reply) => {{
        if (reply.ok) cache.put(request, reply.clone());
        return reply;
      }}))));
  }} else if (url.pathname.startsWith(RULES)) {{
    // the rules: the network's, kept for later; the kept copy without a network
    event.respondWith(fetch(request).then((reply) => {{
      if (reply.ok) {{
        const copy = reply.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }}
      return reply;
    }}).catch(() => caches.open(CACHE).then((cache) => cache.match(request))
      .then((hit) => hit || Response.error())));
  }} else if (request.mode === "navigate") {{
    // the page names the current version: always the network's, the kept one only without it
    event.respondWith(fetch(request).catch(() => caches.open(CACHE)
      .then((cache) => cache.match("/"))
      .then((hit) => hit || Response.error())));
  }}
}});
// Notices (server/notices.py): a push shows the message; a click opens its table here.
const sameSite = (path) => {{
  try {{
    const url = new URL(typeof path === "string" ? path : "/", location.origin);
    return url.origin === location.origin ? url.href : location.origin + "/";
  }} catch (_) {{ return location.origin + "/"; }}
}};
self.addEventListener("push", (event) => {{
  let note = {{}};
  try {{ note = event.data ? event.data.json() : {{}}; }} catch (_) {{ note = {{}}; }}
  const url = sameSite(note.url);
  event.waitUntil(self.registration.showNotification(
    typeof note.title === "string" ? note.title : "King's Breakfast", {{
      body: typeof note.body === "string" ? note.body : "",
      tag: typeof note.tag === "string" ? note.tag : url,
      data: {{ url }}, icon: PREFIX + "icon-192.png",
    }}));
}});
self.addEventListener("notificationclick", (event) => {{
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({{ type: "window", includeUncontrolled: true }})
    .then((windows) => {{
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }}));
}});
"""


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    assets: WebAssets = request.app.state.web_assets
    shell = ["/", *(f"{assets.prefix}{name}" for name in (*assets.modules(), *_SHELL_FILES)),
             *(f"/api/rules/{entry['code']}" for entry in strings.languages())]
    body = _WORKER.format(
        version=assets.version, prefix=json.dumps(assets.prefix), shell=json.dumps(shell)
    )
    return Response(body, media_type="text/javascript", headers={
        "Cache-Control": "no-cache", "Service-Worker-Allowed": "/",
    })
