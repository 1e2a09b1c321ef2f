#!/usr/bin/env bash
# The whole test run, from a bare Debian machine (as root) or a developer's checkout:
#   1. a virtual environment in .venv with the package and every extra the tests use
#      (made again when an earlier attempt left it half made: scripts/venv.sh);
#   2. the services the tests talk to (a real PostgreSQL server, Debian's chromium),
#      installed with apt when missing and started (scripts/ci-services.sh);
#   3. the release: the sdist and the wheel built and checked with twine, as uploaded;
#   4. the layer contracts, the linter, the type checker, then pytest.
# Extra arguments go to pytest:  bash scripts/test.sh tests/engine -x
# CI runs exactly this command (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

# Step 2 installs and starts system services: say so now, not after minutes of pip.
if [ "$(id -u)" != 0 ]; then
  echo "test.sh: needs root for the test services (apt, PostgreSQL, chromium, HAProxy): sudo bash scripts/test.sh" >&2
  exit 2
fi

# shellcheck source=scripts/venv.sh
source scripts/venv.sh
kb_venv test.sh
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[all,test]"

# numba compiles the simulators' and the chef's kernels on first use (minutes of CPU from a
# cold cache). Compile them now, beside the services, the build and the linters, which leave
# a core idle, so that no test pays for it (and no two workers compile the same kernel).
WARM_LOG=$(mktemp "${TMPDIR:-/tmp}/kingsbreakfast-warm.XXXXXX")
.venv/bin/python -m kingsbreakfast.sim.warm >"$WARM_LOG" 2>&1 &
WARM_PID=$!

# Installs and starts PostgreSQL and chromium; exports KINGSBREAKFAST_TEST_POSTGRES_URL.
# shellcheck source=scripts/ci-services.sh
source scripts/ci-services.sh
set -euo pipefail

# The distributions as they would be uploaded; tests/test_release.py reads these same files.
KINGSBREAKFAST_DIST=$(mktemp -d "${TMPDIR:-/tmp}/kingsbreakfast-dist.XXXXXX")
export KINGSBREAKFAST_DIST
# JAX compiles the same environment step, search and network in several test modules and on
# both workers, each with a fresh jax.jit; one compilation cache for the run compiles each
# computation once (every entry kept, however quick its compilation was).
JAX_COMPILATION_CACHE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kingsbreakfast-jax.XXXXXX")
export JAX_COMPILATION_CACHE_DIR JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0 \
  JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES=0
trap 'kill "$WARM_PID" 2>/dev/null || true; rm -rf "$KINGSBREAKFAST_DIST" "$WARM_LOG" "$JAX_COMPILATION_CACHE_DIR"' EXIT
.venv/bin/python -m build --outdir "$KINGSBREAKFAST_DIST" . >"$KINGSBREAKFAST_DIST/build.log" 2>&1 || {
  cat "$KINGSBREAKFAST_DIST/build.log" >&2
  exit 1
}
.venv/bin/twine check --strict "$KINGSBREAKFAST_DIST"/*.whl "$KINGSBREAKFAST_DIST"/*.tar.gz

.venv/bin/lint-imports
.venv/bin/ruff check src tests
.venv/bin/mypy
wait "$WARM_PID" || {
  cat "$WARM_LOG" >&2
  exit 1
}
rm -f "$WARM_LOG"
# Two workers (pytest-xdist) by default, each test module kept on one worker (its module
# fixtures, a server or a cluster, start once, and a numba kernel compiles once, not on both
# workers at the same time); KINGSBREAKFAST_TEST_WORKERS=0 runs serially. loadfile, not
# loadgroup: under pytest 9, xdist 3.8's loadgroup no longer reads the xdist_group marks (it
# renames item._nodeid, which pytest 9 ignores) and splits every module over both workers.
# The 25 slowest tests are listed at the end, so CI shows which to make smaller or split.
.venv/bin/python -m pytest -n "${KINGSBREAKFAST_TEST_WORKERS:-2}" --dist loadfile \
  --durations=25 "$@"
