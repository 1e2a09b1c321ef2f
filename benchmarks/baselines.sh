#!/bin/sh
# The learning curves of docs/baselines.md, three seeds each (2, 3, 4), into
# benchmarks/results/baselines/, then its tables, CSV and plot (baselines_table.py):
#   nice -n 10 sh benchmarks/baselines.sh                 # everything, one run after another
#   nice -n 10 sh benchmarks/baselines.sh maskable-hard   # one part: maskable-random,
#       maskable-hard, vector-random, vector-hard, jax-random, table
# Parts are independent: two may run side by side (the machine these ran on has 2 cores), the
# same part too: a seed whose log exists is taken (done or being done) and skipped, so remove
# benchmarks/results/baselines/ to measure everything afresh.
set -e
here=$(dirname "$0")
out="$here/results/baselines"
mkdir -p "$out"
python=${PYTHON:-python}
seeds="2 3 4"
part=${1:-all}

maskable() {  # opponents, learner steps, steps between points, final evaluation games
    for seed in $seeds; do
        [ -e "$out/maskable-ppo-$1-$seed.log" ] && continue
        "$python" "$here/maskable_ppo.py" --opponents "$1" --seed "$seed" --steps "$2" \
            --curve-every "$3" --curve-games 200 --final-games "$4" \
            --json "$out/maskable-ppo-$1-$seed.json" > "$out/maskable-ppo-$1-$seed.log"
    done
}

vector() {  # opponents
    for seed in $seeds; do
        [ -e "$out/vector-ppo-$1-$seed.log" ] && continue
        "$python" "$here/vector_ppo.py" --opponents "$1" --seed "$seed" --target 2 \
            --max-updates 20 --curve-every 4 --curve-games 1024 --eval-games 4096 \
            --json "$out/vector-ppo-$1-$seed.json" > "$out/vector-ppo-$1-$seed.log"
    done
}

case "$part" in all|maskable-random) maskable random 40960 10240 1336 ;; esac
case "$part" in all|maskable-hard) maskable hard 16384 4096 1336 ;; esac
case "$part" in all|vector-random) vector random ;; esac
case "$part" in all|vector-hard) vector hard ;; esac
case "$part" in all|jax-random)
    # shellcheck disable=SC2086
    "$python" "$here/../examples/jax_ppo.py" --seeds $seeds --chunks 8 --updates 25 \
        --eval-games 4096 --json "$out/jax-ppo-random.json" > "$out/jax-ppo-random.log" ;;
esac
case "$part" in all|table) "$python" "$here/baselines_table.py" "$out" ;; esac
