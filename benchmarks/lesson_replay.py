"""What one answer of the lesson costs the server (``POST /api/learn``, routes/learn.py).

The server keeps no lesson between calls: every answer replays the learner's moves so far on
the engine with the lesson's bots. This times the longest replay there is — the whole
lesson, from the first step to the scoring — alone and as the route's whole answer (pydantic
model, the view, the words in German), median and 95th percentile over ``--rounds`` runs.

    python benchmarks/lesson_replay.py [--rounds 300]
"""

from __future__ import annotations

import argparse
import statistics
import time

from kingsbreakfast.engine import Action
from kingsbreakfast.lesson import LessonGame
from kingsbreakfast.server.routes.learn import LessonAsk, answer


def whole_lesson() -> list[Action]:
    game = LessonGame()
    moves: list[Action] = []
    while not game.over:
        step = game.lesson.step
        assert step is not None
        legal = game.view().legal_actions()
        move = step.example if step.example in legal else legal[0]
        assert game.offer(move) is None
        moves.append(move)
    return moves


def replay(moves: list[Action]) -> None:
    game = LessonGame()
    for move in moves:
        game.offer(move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    rounds = parser.parse_args().rounds
    moves = whole_lesson()
    texts = [str(move) for move in moves]
    ask = LessonAsk(language="de", moves=texts[:-1], move=texts[-1])
    timings: dict[str, list[float]] = {"replay": [], "answer": []}
    for _ in range(rounds):  # the two interleaved, so a shared machine's load hits both
        start = time.perf_counter()
        replay(moves)
        timings["replay"].append(time.perf_counter() - start)
        start = time.perf_counter()
        answer(ask)
        timings["answer"].append(time.perf_counter() - start)
    print(f"the whole lesson: {len(moves)} learner's moves, {rounds} rounds")
    for name, values in timings.items():
        values.sort()
        p95 = values[int(0.95 * (len(values) - 1))]
        print(f"{name:>7}: median {1000 * statistics.median(values):.2f} ms, "
              f"95th percentile {1000 * p95:.2f} ms")


if __name__ == "__main__":
    main()
