"""Pictures of a tournament and of an analysis (matplotlib, Agg backend), labelled in the
player's language."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.words import dish_name

from .analyze import TableRow
from .match import GameResult
from .report import Report
from .tournament import TournamentConfig, game_plan


def plot_tournament(
    config: TournamentConfig,
    games: Sequence[GameResult],
    report: Report,
    path: Path,
    title: str | None = None,
) -> None:
    """Left: each bot's final scores; right: win shares with 95% intervals and parity."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError(_("plots need matplotlib: pip install 'kingsbreakfast[sim]'")) from None
    points: dict[str, list[int]] = {label: [] for label in config.labels}
    for index, game in enumerate(games):
        for seat, entry in enumerate(game_plan(config, index).seats):
            points[config.lineup[entry].label].append(game.points[seat])
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    top = max(max(p) for p in points.values())
    bins = list(range(0, top + 10, 5))
    for label, pts in points.items():
        # each game weighs 1/n, so a bar's height is the share of games in its bin (a
        # density would divide again by the bin's width)
        left.hist(pts, bins=bins, histtype="step", linewidth=1.5, label=label,
                  weights=[1 / len(pts)] * len(pts))
    left.set_xlabel(_("final points (R11)"))
    left.set_ylabel(_("share of games (5-point bins)"))
    left.set_title(_("Score distributions"))
    left.legend(fontsize=8)
    bots = report["bots"]
    labels = [b["label"] for b in bots]
    means = [b["win_share"]["mean"] for b in bots]
    errors = [
        [b["win_share"]["mean"] - b["win_share"]["low"] for b in bots],
        [b["win_share"]["high"] - b["win_share"]["mean"] for b in bots],
    ]
    right.bar(range(len(labels)), means, yerr=errors, capsize=4, color="tab:blue")
    right.axhline(1 / config.players, color="grey", linestyle="--", label=_("parity"))
    right.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
    right.set_ylabel(_("win share per seat played"))
    right.set_title(_("Win shares (95% CI)"))
    right.legend(fontsize=8)
    fig.suptitle(title or _("{players} players, {games} games, seed {seed}").format(
        players=config.players, games=len(games), seed=config.seed))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_seats(rows: Sequence[TableRow], path: Path) -> None:
    """Win share by seat (0 = first cook) for each table size, from :mod:`.analyze`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.25
    for k, row in enumerate(rows):
        n = row["players"]
        seats = row["seats"]
        xs = [s + (k - 1) * width for s in range(n)]
        means = [s["win_share"]["mean"] for s in seats]
        errs = [
            [s["win_share"]["mean"] - s["win_share"]["low"] for s in seats],
            [s["win_share"]["high"] - s["win_share"]["mean"] for s in seats],
        ]
        bars = ax.bar(xs, means, width=width, yerr=errs, capsize=3, label=_players(n))
        ax.hlines(1 / n, xs[0] - width / 2, xs[-1] + width / 2, colors=bars[0].get_facecolor(),
                  linestyles="--", linewidth=1)
    most = max(row["players"] for row in rows)
    ax.set_xticks(range(most), [str(seat) for seat in range(most)])  # seats are whole numbers
    ax.set_xlabel(_("seat (0 = first cook)"))
    ax.set_ylabel(_("win share (95% CI)"))
    ax.set_title(_("Seat advantage, dashed: parity"))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_king(rows: Sequence[TableRow], path: Path) -> None:
    """The king's mean final plate by dish for each table size, from :mod:`.analyze`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.25
    for k, row in enumerate(rows):
        by_dish = row["game"]["mean_king_by_dish"]
        xs = [d + (k - 1) * width for d in range(len(by_dish))]
        ax.bar(xs, list(by_dish.values()), width=width, label=_players(row["players"]))
    dishes = [dish_name(dish) for dish in range(len(rows[0]["game"]["mean_king_by_dish"]))]
    ax.set_xticks(range(len(dishes)), dishes)
    ax.set_ylabel(_("king's cards at the end (mean)"))
    ax.set_title(_("The king's final plate"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the bars, hiding none
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _players(count: int) -> str:
    return ngettext("{count} player", "{count} players", count).format(count=count)
