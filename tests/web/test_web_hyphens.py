"""A dish name on a phone's card that needs two lines breaks between syllables with a
hyphen ("Schin-ken", "sár-kány"), never mid-syllable without one ("Chicke|n", "Sárkán|y"),
in all five languages."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer
from web.browsing import shot
from web.playing import open_solo_table

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "device_scale_factor": 2,
}

# Each shown card name's line breaks: where a new line starts, what ends the line before it.
# A break is right after a soft hyphen (drawn as "-") or at a space; anything else is a word
# cut in two without a hyphen.
BAD_BREAKS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.game .card-name')) {
    if (el.offsetParent === null) continue;
    const node = el.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    const text = node.data;
    const range = document.createRange();
    let lastTop = null;
    for (let i = 0; i < text.length; i += 1) {
      if (text[i] === '\\u00ad' || text[i] === ' ') continue;
      range.setStart(node, i); range.setEnd(node, i + 1);
      // a character at a line's start may also report an empty box at the line before's
      // end: its own box is the one with a width
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
      if (!boxes.length) continue;
      const top = boxes[boxes.length - 1].top;
      if (lastTop !== null && top > lastTop + 2) {
        const before = text.slice(0, i).replace(/ +$/, '');
        const plain = (part) => part.replaceAll('\\u00ad', '');
        if (!before.endsWith('\\u00ad') && !/ $/.test(text.slice(0, i)))
          out.push(plain(text.slice(0, i)) + '|' + plain(text.slice(i)));
      }
      lastTop = top;
    }
  }
  return out;
}"""


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_a_dish_name_breaks_only_at_a_hyphen_or_a_space(
    server: LiveServer, browser: Any, code: str,
) -> None:
    context = browser.new_context(locale=code, **PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector(f"html[lang={code}]")
    open_solo_table(page, server.base, seats=5)
    page.wait_for_selector(".game .stack .card-name")
    bad = page.evaluate(BAD_BREAKS)
    shot(page, f"hyphens-phone-{code}")
    assert bad == [], bad
    context.close()
