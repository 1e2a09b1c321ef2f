"""The top entries of a py-spy profile (``server_load.py --profile FILE``, raw collapsed
stacks): by own time (the function on top of the stack, lines of one function together)
and by inclusive time (the function anywhere on the stack).

    python benchmarks/profile_top.py FILE [--top 10] [--only kingsbreakfast/ uvicorn/ …]
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

_LINE = re.compile(r":\d+\)")


def function(frame: str) -> str:
    """``name (path:line)`` → ``name (path)``, the site-packages prefix dropped."""
    frame = _LINE.sub(")", frame)
    return re.sub(r"\(/\S*?(site-packages|python3\.\d+|src)/", "(", frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--only", nargs="*", default=["kingsbreakfast/", "uvicorn/",
                                                      "websockets/", "sqlalchemy/"],
                        help="inclusive entries only from these packages")
    options = parser.parse_args()
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in options.profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [function(f) for f in stack.split(";")
                  if not f.startswith(("process ", "thread "))]
        if not frames or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        own[frames[-1]] += samples
        for frame in set(frames):
            inclusive[frame] += samples
    print(f"{total} samples")
    print("own time:")
    for frame, samples in own.most_common(options.top):
        print(f"  {100 * samples / total:5.1f} %  {frame}")
    print("inclusive:")
    outer = ("serve_commands", "uvicorn/main", "uvicorn/server", "uvicorn/_compat")
    shown = [(f, n) for f, n in inclusive.most_common()
             if any(package in f for package in options.only)
             and not any(top in f for top in outer)]
    for frame, samples in shown[:options.top]:
        print(f"  {100 * samples / total:5.1f} %  {frame}")


if __name__ == "__main__":
    main()
