"""Strength figures: one player of a level against the others of another level, seat-rotated,
on several seeds, each seed's share and the pooled share with 95% Wilson intervals.

    python benchmarks/strength.py --upper master --lower hard --players 4 \\
        --seeds 4242,4243 --games 2000 --out benchmarks/results/ladder/master-vs-hard-4p.json

Where both levels play in compiled code the games are the kernels' (fast): ``master`` against
``hard`` (or ``hard`` against ``master``) in :mod:`kingsbreakfast.compiled.network`, whose
network seats choose what the bot chooses (``tests/sim/test_master_kernel_differential.py``),
and the levels with a batch policy (``easy``, ``medium``, ``hard``, ``random``) in the batch
simulator, whose policies ``tests/sim/test_batch_greedy_is_the_bot.py`` and
``tests/sim/test_batch_card_counter_is_the_bot.py`` hold to the bots. Any other pairing
(``expert``) is played by the real bots on the rules engine, as a tournament does, the
seeds taking turns, twenty seat rotations at a time; ``OUT.partial.json`` holds the
figures so far, so a run stopped early still says what it played, and ``--resume`` goes on
from it: each seed's games already played are skipped (a game is a function of its seed and
number) and its shares so far are added to the rest, so a run stopped and resumed writes the
row an unbroken run writes. The partial file names the pairing, the games a seed and the
network's SHA-256; a resume with anything else is refused.

The engine's games are slow (``expert`` searches in Python), so a pairing can be measured one
seed per process, a core each, and the rows joined afterwards:

    python benchmarks/strength.py --upper master --lower expert --seeds 4242 --games 2000 \
        --out a.json &
    python benchmarks/strength.py --upper master --lower expert --seeds 4243 --games 2000 \
        --out b.json
    python benchmarks/strength.py --combine a.json b.json --out master-expert-4p.json

Each seed's games are the same whichever process plays them, so the joined row is the one a
single run on both seeds writes, to the rounding of each seed's share (``seconds`` becomes
the rows' sum).

Seat rotation: each deck is dealt ``players`` times, the upper level in a different seat each
time (the first cook is always seat 0, so it plays from every place in the turn order). A
shared win (R12) counts 1/k; the Wilson interval treats a game's share as one trial, which a
deck played in every seat makes, if anything, wider than it needs to be. ``--weights A,B``
measures several master networks on the same games. ``seeds_spread_chi2_p`` is the chance that seeds
disagree as much as they do if every game had the same chance (a test of the spread).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

KERNEL_MASTER = {"master"}
BATCH = {"random": "random", "easy": "greedy", "medium": "medium", "hard": "heuristic"}


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share measured over ``games`` games."""
    denominator = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denominator
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return max(0.0, centre - half / denominator), min(1.0, centre + half / denominator)


def spread_p(shares: list[float], games: list[int]) -> float | None:
    """Chi-square test that the seeds' shares are one share (None for a single seed)."""
    if len(shares) < 2:
        return None
    from scipy.stats import chi2

    pooled = sum(s * g for s, g in zip(shares, games, strict=True)) / sum(games)
    var = pooled * (1 - pooled)
    if var == 0:
        return 1.0
    stat = sum((s - pooled) ** 2 / (var / g) for s, g in zip(shares, games, strict=True))
    return float(chi2.sf(stat, len(shares) - 1))


def master_games(layers: list[Any], upper_is_net: bool, n: int, games: int,
                 seed: int) -> np.ndarray[Any, Any]:
    """The upper seat's share in each game: ``games`` / n decks, each dealt n times."""
    from kingsbreakfast.compiled import network as kernel
    from kingsbreakfast.sim.train import play_batch

    decks = games // n
    out = []
    for seat in range(n):
        kind = np.full((decks, n), kernel.SEAT_COUNTER if upper_is_net else kernel.SEAT_NET,
                       np.int64)
        kind[:, seat] = kernel.SEAT_NET if upper_is_net else kernel.SEAT_COUNTER
        played = play_batch(layers, decks, n, seed, kind, 0.0)
        out.append(played["share"][:, seat])
    return np.concatenate(out)


def batch_games(upper: str, lower: str, n: int, games: int, seed: int) -> np.ndarray[Any, Any]:
    from kingsbreakfast.sim.batch import simulate

    decks = games // n
    out = []
    for seat in range(n):
        policies = [BATCH[lower]] * n
        policies[seat] = BATCH[upper]
        result = simulate(decks, n, policies, seed=seed)
        winners = result.winners.astype(float)
        out.append(winners[:, seat] / winners.sum(axis=1))
    return np.concatenate(out)


CHUNK_ROTATIONS = 20
"""Seat rotations an engine run plays between two writes of its partial file."""


def engine_chunks(upper: str, lower: str, n: int, games: int, seed: int,
                  start: int = 0) -> Any:
    """The real bots on the rules engine, as ``kingsbreakfast tournament`` seats them (game
    i: the upper level in seat i mod n, each block of n games on one deck): the upper
    level's shares, ``CHUNK_ROTATIONS`` seat rotations at a time, from game ``start`` on."""
    from kingsbreakfast.sim import TournamentConfig, parse_lineup
    from kingsbreakfast.sim.tournament import play_chunk

    config = TournamentConfig(parse_lineup(f"{upper},{lower}*{n - 1}", n), games, seed)
    for first in range(start, games, CHUNK_ROTATIONS * n):
        results = play_chunk(config, first, min(games, first + CHUNK_ROTATIONS * n))
        yield [r.win_share[(first + i) % n] for i, r in enumerate(results)]


def tally(share_sum: float, games: int) -> dict[str, Any]:
    """Games, share and Wilson interval from the sum of the games' shares (a shared win
    counts 1/k, R12)."""
    mean = share_sum / games
    low, high = wilson(mean, games)
    return {"games": games, "win_share": round(mean, 4),
            "wilson95": [round(low, 4), round(high, 4)]}


def weights_digest(weights: str) -> str:
    """SHA-256 of the network a run plays (the shipped file when ``weights`` is empty)."""
    from importlib import resources

    data = (Path(weights).read_bytes() if weights else
            resources.files("kingsbreakfast.bots.weights").joinpath("master.npz").read_bytes())
    return hashlib.sha256(data).hexdigest()


def resumed(path: Path, row: dict[str, Any], seeds: list[int],
            games: int) -> tuple[dict[int, tuple[float, int]], float]:
    """Each seed's share sum and games from a partial file of the same run, and its
    seconds; anything else is refused with what differs."""
    old = json.loads(path.read_text())
    differs = [key for key in ("pairing", "players", "weights", "weights_sha256", "played_by")
               if old.get(key) != row.get(key)]
    if old.get("games_per_seed") != games:
        differs.append(f"games a seed ({old.get('games_per_seed')} there, {games} asked)")
    if differs:
        raise SystemExit(f"{path}: another run, cannot resume it (differs in: "
                         f"{', '.join(differs)})")
    tallies = {seed: (0.0, 0) for seed in seeds}
    for seed_row in old["per_seed"]:
        if seed_row["seed"] not in tallies:
            raise SystemExit(f"{path}: seed {seed_row['seed']} is not among --seeds {seeds}")
        tallies[seed_row["seed"]] = (float(seed_row["share_sum"]), int(seed_row["games"]))
    return tallies, float(old.get("seconds", 0.0))


def measure(upper: str, lower: str, n: int, seeds: list[int], games: int, out: Path,
            weights: str = "", resume: bool = False) -> dict[str, Any]:
    """Play the pairing on every seed (``games`` each) and write its figures to ``out``;
    a partial file beside it follows an engine run as it goes (and ``resume`` goes on
    from it)."""
    if any(s in (0, 1) for s in seeds):
        raise SystemExit("seeds 0 and 1 are the project's development seeds: choose others")
    if games % n:
        raise SystemExit(f"games must be a multiple of {n} (whole seat rotations)")
    uses_master = "master" in (upper, lower)
    kernel_master = uses_master and {upper, lower} == {"master", "hard"}
    kernel_batch = upper in BATCH and lower in BATCH
    row: dict[str, Any] = {"pairing": f"{upper} vs {n - 1}x {lower}, {n} players",
                           "upper": upper, "lower": lower, "players": n,
                           "parity": round(1 / n, 4)}
    if uses_master:
        row["weights"] = weights or "shipped"
    row["played_by"] = ("master kernel" if kernel_master else "batch kernel"
                        if kernel_batch else "rules engine (the bots)")
    start = time.perf_counter()
    out.parent.mkdir(parents=True, exist_ok=True)
    partial_path = out.with_suffix(".partial.json")
    engine = not kernel_master and not kernel_batch
    if resume and not engine:
        raise SystemExit("--resume is for runs on the rules engine (a kernel run takes "
                         "seconds: start it again)")
    # each seed's sum of the upper level's shares and its games
    tallies: dict[int, tuple[float, int]] = {seed: (0.0, 0) for seed in seeds}
    seconds_before = 0.0
    if engine:
        if weights:
            raise SystemExit("the rules engine plays the shipped weights only")
        if uses_master:
            row["weights_sha256"] = weights_digest(weights)
        if resume and partial_path.exists():
            tallies, seconds_before = resumed(partial_path, row, seeds, games)
        # the seeds take turns, a chunk each, so that a run stopped early is balanced
        chunks = {seed: engine_chunks(upper, lower, n, games, seed, tallies[seed][1])
                  for seed in seeds}
        while chunks:
            for seed in list(chunks):
                chunk = next(chunks[seed], None)
                if chunk is None:
                    del chunks[seed]
                    continue
                share_sum, played = tallies[seed]
                tallies[seed] = (share_sum + sum(chunk), played + len(chunk))
                seconds = round(seconds_before + time.perf_counter() - start, 1)
                partial = {**row, "partial": True, "games_per_seed": games,
                           "seconds": seconds, "per_seed": [
                               {"seed": s, **tally(*t), "share_sum": t[0]}
                               for s, t in tallies.items() if t[1]]}
                print(json.dumps({"seed": seed, **tally(*tallies[seed]), "seconds": seconds}),
                      flush=True)
                partial_path.write_text(json.dumps(partial, indent=1) + "\n")
    for seed in seeds if not engine else []:
        if kernel_master:
            from kingsbreakfast.bots.master import load_weights

            layers = list(load_weights(weights or None).arrays())
            shares = master_games(layers, upper == "master", n, games, seed)
        else:
            shares = batch_games(upper, lower, n, games, seed)
        tallies[seed] = (float(shares.sum()), len(shares))
    per_seed = [{"seed": seed, **tally(*tallies[seed])} for seed in seeds]
    row.update(tally(sum(t[0] for t in tallies.values()), sum(t[1] for t in tallies.values())))
    row["per_seed"] = per_seed
    row["seeds_spread_chi2_p"] = spread_p([t[0] / t[1] for t in tallies.values()],
                                          [t[1] for t in tallies.values()])
    row["seconds"] = round(seconds_before + time.perf_counter() - start, 1)
    out.write_text(json.dumps(row, indent=1) + "\n")
    partial_path.unlink(missing_ok=True)
    print(json.dumps(row), flush=True)
    return row


def combine(paths: list[Path], out: Path) -> dict[str, Any]:
    """One row from rows of the same pairing measured on different seeds: the pooled share is
    the games-weighted mean of the seeds' shares (each game one trial, as in ``measure``)."""
    rows = [json.loads(path.read_text()) for path in paths]
    keys = ("pairing", "upper", "lower", "players", "weights", "played_by")
    for path, row in zip(paths, rows, strict=True):
        if row.get("partial"):
            raise SystemExit(f"{path}: a partial row (its run did not finish)")
        if any(row.get(k) != rows[0].get(k) for k in keys):
            raise SystemExit(f"{path}: another pairing than {paths[0]} ({row['pairing']})")
        if row.get("weights_sha256") != rows[0].get("weights_sha256"):
            raise SystemExit(f"{path}: another network than {paths[0]} (weights_sha256 "
                             f"{row.get('weights_sha256')} against "
                             f"{rows[0].get('weights_sha256')})")
    per_seed = [p for row in rows for p in row["per_seed"]]
    seeds = [p["seed"] for p in per_seed]
    if len(set(seeds)) != len(seeds):
        raise SystemExit(f"a seed is measured twice: {sorted(seeds)}")
    games = [int(p["games"]) for p in per_seed]
    shares = [float(p["win_share"]) for p in per_seed]
    total = sum(games)
    mean = sum(s * g for s, g in zip(shares, games, strict=True)) / total
    low, high = wilson(mean, total)
    joined: dict[str, Any] = {k: rows[0][k] for k in ("pairing", "upper", "lower", "players",
                                                      "parity") if k in rows[0]}
    for k in ("weights", "played_by", "weights_sha256"):
        if k in rows[0]:
            joined[k] = rows[0][k]
    joined.update({"games": total, "win_share": round(mean, 4),
                   "wilson95": [round(low, 4), round(high, 4)], "per_seed": per_seed,
                   "seeds_spread_chi2_p": spread_p(shares, games),
                   "seconds": round(sum(float(row["seconds"]) for row in rows), 1),
                   "combined_from": [path.name for path in paths]})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(joined, indent=1) + "\n")
    return joined


def table_line(row: dict[str, Any]) -> str:
    """One Markdown table line: pairing, games, pooled share [Wilson], per-seed shares."""
    low, high = row["wilson95"]
    seeds = ", ".join(f"{100 * p['win_share']:.1f}%" for p in row["per_seed"])
    return (f"| {row['pairing']} | {row['games']:,} | {100 * row['win_share']:.1f}% "
            f"[{100 * low:.1f}–{100 * high:.1f}] | {seeds} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upper", default="master")
    parser.add_argument("--lower", default="hard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seeds", default="4242,4243")
    parser.add_argument("--games", type=int, default=2000, help="games per seed")
    parser.add_argument("--weights", default="",
                        help="master weights files, comma-separated (default: the shipped); "
                        "with several, OUT gets each file's name as a suffix")
    parser.add_argument("--combine", type=Path, nargs="+", metavar="ROW",
                        help="join rows of one pairing measured on different seeds into OUT")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--resume", action="store_true",
                        help="go on from OUT.partial.json, the run's own partial file "
                        "(rules engine runs; a partial file of another run is refused)")
    args = parser.parse_args()
    if args.combine:
        print(table_line(combine(args.combine, args.out)))
        return
    seeds = [int(s) for s in args.seeds.split(",")]
    weights = [w for w in args.weights.split(",") if w] or [""]
    rows = []
    for path in weights:
        out = args.out
        if len(weights) > 1:
            out = args.out.with_name(f"{args.out.stem}-{Path(path).stem}{args.out.suffix}")
        rows.append(measure(args.upper, args.lower, args.players, seeds, args.games, out, path,
                            args.resume))
    for row in rows:
        print(row.get("weights", ""), table_line(row))


if __name__ == "__main__":
    main()
