"""The full-screen game's layout and colours (Textual CSS), apart from its code."""

from __future__ import annotations

from dataclasses import replace

from textual.theme import Theme

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

SIXTEEN_COLOUR_PRIMARY = "#1A3FB0"
"""The primary colour where the terminal shows only 16 colours. The themes' own blues
(hex 0178D4 and 004578) come out there as cyan and grey, under which the white of the highlighted
move and of the status line reads at about 2:1; this blue comes out as the terminal's blue,
white on it well above 4.5:1."""


def sixteen_colour_variables(theme: Theme) -> dict[str, str]:
    """The theme's CSS variables with :data:`SIXTEEN_COLOUR_PRIMARY` for its primary, for a
    terminal of 16 colours (the block cursor, the status line and the borders follow it)."""
    recoloured = replace(theme, primary=SIXTEEN_COLOUR_PRIMARY)
    return {**recoloured.to_color_system().generate(), **recoloured.variables}


def few_colours(color_system: str | None) -> bool:
    """Whether the terminal shows only the 16 standard colours (Rich's colour system)."""
    return color_system in ("standard", "windows")
