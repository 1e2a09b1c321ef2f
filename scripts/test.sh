#!/usr/bin/env bash
# The whole test run, from a bare Debian machine (as root) or a developer's checkout:
#   1. a virtual environment in .venv with the package and every extra the tests use;
#   2. the services the tests talk to (a real PostgreSQL server, Debian's chromium),
#      installed with apt when missing and started (scripts/ci-services.sh);
#   3. the layer contracts, the linter, the type checker, then pytest.
# Extra arguments go to pytest:  bash scripts/test.sh tests/engine -x
# CI runs exactly this command (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
  # Debian ships venv support separately from python3.
  echo "test.sh: installing python3-venv" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[all,test]"

# Installs and starts PostgreSQL and chromium; exports KINGSBREAKFAST_TEST_POSTGRES_URL.
# shellcheck source=scripts/ci-services.sh
source scripts/ci-services.sh
set -euo pipefail

.venv/bin/lint-imports
.venv/bin/ruff check src tests
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
