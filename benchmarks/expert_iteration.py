"""Expert iteration, one step: fine-tune the master network toward the chef's search.

    nice -n 10 .venv/bin/python benchmarks/expert_iteration.py --games 1000 --worlds 16 \\
        --label-seeds 23,24 --loss mse --out /tmp/tuned-mse.npz
    .venv/bin/python benchmarks/strength.py --upper master --lower hard --players 4 \\
        --seeds 4242,4243 --games 4000 --weights SHIPPED,/tmp/tuned-mse.npz --out ...

1. Label (:func:`kingsbreakfast.sim.search_targets.label`, one process a seed): four-player
   games in which one seat searches every legal action in ``--worlds`` dealt worlds with the
   shipped network and plays the best, against three ``hard`` seats; every legal action of
   every decision is a row with the search's mean share of the win and mean points.
2. Fine-tune the shipped network on those rows (PyTorch, the ``train`` extra): mean squared
   error on both outputs, and with ``--loss pair`` also a logistic loss on the order of the
   network's two favourites at each decision, whose target is the search's order of the two
   (softened by ``--tau``): the choice the chef makes, which the shipped net gets wrong.
   ``--playout counter`` has the other cooks of the search's play-outs answer as the card
   counter does instead of as the master network: the labels then value an action against
   the players the goal is measured against.
3. Print, on the decisions held out (a tenth), how often the network's favourite is the
   search's and how much search value its choice gives up (*regret*), before and after.

The strength is then measured by ``benchmarks/strength.py`` on the usual seeds, the shipped
and the tuned network on the same games. docs/analysis.md, *Expert iteration*, has the
figures.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np


def label_one(seed: int, games: int, worlds: int, playout: str) -> dict[str, Any]:
    from kingsbreakfast.bots.master import MasterBot
    from kingsbreakfast.compiled import search as kernel
    from kingsbreakfast.sim.search_targets import label

    start = time.process_time()
    opponent = kernel.SEAT_MASTER if playout == "master" else kernel.SEAT_COUNTER
    got = label(MasterBot().weights, games, 4, seed, worlds, playout_opponent=opponent)
    return {"rows": got.rows, "values": got.values, "decision": got.decision,
            "cpu": time.process_time() - start}


def decisions_of(decision: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], ...]:
    """A (decisions, widest) matrix of row indices and its mask."""
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    ends = np.r_[starts[1:], len(decision)]
    width = int((ends - starts).max())
    index = np.zeros((len(starts), width), np.int64)
    mask = np.zeros((len(starts), width), bool)
    for i, (s, e) in enumerate(zip(starts, ends, strict=True)):
        index[i, : e - s] = np.arange(s, e)
        mask[i, : e - s] = True
    return index, mask


Array = np.ndarray[Any, Any]


def fine_tune(x: Array, y: Array, decision: Array,
              args: argparse.Namespace) -> tuple[list[Array], list[dict[str, float]]]:
    import torch
    from torch import nn

    from kingsbreakfast.bots.master import MasterBot

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    weights = MasterBot().weights
    hidden = weights.w1.shape[1]
    net = nn.Sequential(nn.Linear(x.shape[1], hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                        nn.ReLU(), nn.Linear(hidden, 2))
    with torch.no_grad():
        for layer, (w, b) in zip((net[0], net[2], net[4]), ((weights.w1, weights.b1),
                                 (weights.w2, weights.b2), (weights.w3, weights.b3)),
                                 strict=True):
            layer.weight.copy_(torch.tensor(w.T))
            layer.bias.copy_(torch.tensor(b))
    xs = torch.tensor(x, dtype=torch.float32)
    ys = torch.tensor(y, dtype=torch.float32)
    index_np, mask_np = decisions_of(decision)
    index, mask = torch.tensor(index_np), torch.tensor(mask_np)
    low = torch.tensor(-1e9)
    with torch.no_grad():  # the shipped network's two favourites at each decision
        prior = torch.where(mask, net(xs)[:, 0][index], low)
        favourites = prior.topk(2, -1).indices
        two = mask.sum(-1) >= 2
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(index_np))
    held, train = order[: len(order) // 10], order[len(order) // 10 :]

    def losses(ds: Any) -> tuple[Any, Any, Any, Any]:
        ii, mm = index[ds], mask[ds]
        out = net(xs[ii.reshape(-1)]).reshape(len(ds), ii.shape[1], 2)
        target = ys[ii]
        mse = (((out - target) ** 2).sum(-1) * mm).sum() / mm.sum() / 2
        pick = torch.where(mm, out[..., 0], low).argmax(-1, keepdim=True)
        best = torch.where(mm, target[..., 0], low)
        agree = (pick.squeeze(1) == best.argmax(-1)).float().mean()
        regret = (best.max(-1).values - target[..., 0].gather(1, pick).squeeze(1)).mean()
        f, t2 = favourites[ds], two[ds]
        q, v = out[..., 0].gather(1, f), target[..., 0].gather(1, f)
        pair = nn.functional.binary_cross_entropy_with_logits(
            (q[:, 0] - q[:, 1]) / args.tau, torch.sigmoid((v[:, 0] - v[:, 1]) / args.tau),
            reduction="none")
        pair = (pair * t2).sum() / t2.sum().clamp(min=1)
        return mse, pair, agree, regret

    log = []

    def report(epoch: int) -> None:
        with torch.no_grad():
            mse, pair, agree, regret = losses(torch.tensor(held))
        row = {"epoch": epoch, "mse": float(mse), "pair": float(pair), "agree": float(agree),
               "regret": float(regret)}
        log.append(row)
        print(json.dumps(row), flush=True)

    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    report(0)
    for epoch in range(args.epochs):
        rng.shuffle(train)
        for i in range(0, len(train) - 127, 128):
            mse, pair, _, _ = losses(torch.tensor(train[i : i + 128]))
            loss = mse + (args.pair_weight * pair if args.loss == "pair" else 0.0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        report(epoch + 1)
    layers = []
    for layer in (net[0], net[2], net[4]):
        layers.append(layer.weight.detach().numpy().T.astype(np.float64).copy())
        layers.append(layer.bias.detach().numpy().astype(np.float64).copy())
    return layers, log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="labelled games a seed")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--playout", choices=("master", "counter"), default="master",
                        help="who the other cooks are in the search's play-outs: the master "
                        "network (as the chef assumes) or the card counter (as hard plays)")
    parser.add_argument("--label-seeds", default="23,24")
    parser.add_argument("--loss", choices=("mse", "pair"), default="mse")
    parser.add_argument("--pair-weight", type=float, default=0.05)
    parser.add_argument("--tau", type=float, default=0.02)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0, help="the fine-tuning's seed")
    parser.add_argument("--labels", type=Path, help="read the labels from (or keep them in) "
                        "this .npz instead of labelling again")
    parser.add_argument("--out", type=Path, required=True, help="the tuned weights")
    args = parser.parse_args()

    from kingsbreakfast.bots.master import save_weights

    if args.labels is not None and args.labels.exists():
        data = dict(np.load(args.labels))
        print(f"labels from {args.labels}: {len(data['rows'])} rows", flush=True)
    else:
        seeds = [int(s) for s in args.label_seeds.split(",")]
        start = time.monotonic()
        with ProcessPoolExecutor(len(seeds)) as pool:
            parts = list(pool.map(label_one, seeds, [args.games] * len(seeds),
                                  [args.worlds] * len(seeds), [args.playout] * len(seeds)))
        offset = 0
        for part in parts:
            part["decision"] = part["decision"] + offset
            offset = int(part["decision"].max()) + 1
        data = {key: np.concatenate([p[key] for p in parts])
                for key in ("rows", "values", "decision")}
        cpu = sum(p["cpu"] for p in parts)
        print(f"labelled {len(data['rows'])} rows ({offset} decisions) in "
              f"{time.monotonic() - start:.0f} s, {cpu:.0f} s of CPU "
              f"({1e3 * cpu / offset:.1f} ms a decision)", flush=True)
        if args.labels is not None:
            np.savez_compressed(args.labels, **data)
    layers, log = fine_tune(data["rows"], data["values"], data["decision"], args)
    header = {"note": "one step of expert iteration (benchmarks/expert_iteration.py)",
              "config": {k: str(v) for k, v in vars(args).items()}, "held_out": log}
    save_weights(args.out, dict(zip(("w1", "b1", "w2", "b2", "w3", "b3"), layers, strict=True)),
                 header)
    print(f"tuned weights in {args.out}")


if __name__ == "__main__":
    main()
