#!/bin/sh
# The learning curves of docs/baselines.md: the numpy vector PPO against three random and
# three `hard` (heuristic) seats, three seeds each, and PPO on the JAX environment against
# three random seats, three seeds. Results in benchmarks/results/baselines/. Run niced on a
# shared machine:  nice -n 10 sh benchmarks/baselines.sh
set -e
here=$(dirname "$0")
out="$here/results/baselines"
mkdir -p "$out"
python=${PYTHON:-python}
for opponents in random heuristic; do
    for seed in 1 2 3; do
        "$python" "$here/vector_ppo.py" --opponents "$opponents" --seed "$seed" --target 2 \
            --max-updates 40 --curve-every 5 --curve-games 4096 --eval-games 4096 \
            --json "$out/vector-ppo-$opponents-$seed.json" > "$out/vector-ppo-$opponents-$seed.log"
    done
done
"$python" "$here/../examples/jax_ppo.py" --seeds 1 2 3 --chunks 8 --updates 25 \
    --eval-games 4096 --json "$out/jax-ppo-random.json" > "$out/jax-ppo-random.log"
