"""The full-screen game's layout and colours (Textual CSS), apart from its code."""

from __future__ import annotations

CSS = """
Screen { layout: vertical; }
#status { height: 1; padding: 0 1; background: $primary; color: auto 90%; }
#board { height: auto; padding: 0 1; }
#lesson { height: auto; padding: 0 1; border: round $accent; }
#lesson.compact { border: none; padding: 0 1; }
#lesson-text { height: auto; max-height: 4; }
#lesson-scoring { margin-bottom: 1; }
#bottom { height: 1fr; min-height: 5; }
#moves { width: 36; max-width: 45%; height: 1fr; border: round $primary; }
#log { width: 1fr; height: 1fr; border: round $primary; }
#message { height: auto; max-height: 3; padding: 0 1; color: $warning; text-style: bold; }
.dialog {
    width: 72; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
    border: thick $accent; background: $surface;
}
DragonScreen, FeedScreen, HintScreen, HelpScreen, QuitScreen, HandoverScreen, DrawnCardScreen {
    align: center middle;
}
HandoverScreen { background: $background; }
.dialog OptionList { height: auto; max-height: 12; }
#hint-moves { scrollbar-gutter: stable; max-height: 14; }
#hint-status { padding: 0 0 0 2; }
.hint { color: $text-muted; }
.title { text-style: bold; }
#help-dialog { height: auto; max-height: 100%; }
#help-keys { height: auto; max-height: 1fr; }
#score { padding: 0 1; height: 1fr; }
#score Static { margin-bottom: 1; }
#score-keys { height: auto; padding: 0 1; }
"""
