"""The full-screen game's layout and colours (Textual CSS), apart from its code."""

from __future__ import annotations

CSS = """
Screen { layout: vertical; }
#status { height: 1; padding: 0 1; background: $primary; color: auto 90%; }
#board { height: auto; padding: 0 1; }
#bottom { height: 1fr; min-height: 5; }
#moves { width: 36; height: 1fr; border: round $primary; }
#log { width: 1fr; height: 1fr; border: round $primary; }
#message { height: auto; max-height: 3; padding: 0 1; color: $warning; text-style: bold; }
.dialog {
    width: 72; height: auto; max-height: 100%; padding: 1 2;
    border: thick $accent; background: $surface;
}
DragonScreen, FeedScreen, HintScreen, HelpScreen, QuitScreen, HandoverScreen, DrawnCardScreen {
    align: center middle;
}
HandoverScreen { background: $background; }
.dialog OptionList { height: auto; max-height: 12; }
.hint { color: $text-muted; }
.title { text-style: bold; }
#score { padding: 0 1; height: auto; }
#score Static { margin-bottom: 1; }
"""
