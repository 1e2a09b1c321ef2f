#!/usr/bin/env bash
# The README's first command: install the game into .venv and play it in the terminal.
#   bash scripts/play.sh                 # you against three bots
#   bash scripts/play.sh --hotseat 3     # arguments go to `kingsbreakfast play`
# Works from a bare Debian machine as root (it installs python3-venv with apt when missing)
# and as a normal user wherever Python's venv module is there; a half-made .venv is made
# again (scripts/venv.sh). The package is installed again only when the sources changed.
set -euo pipefail
start=$PWD
cd "$(dirname "$0")/.."
root=$PWD

# shellcheck source=scripts/venv.sh
source scripts/venv.sh
kb_venv play.sh

stamp=$(
  {
    git rev-parse HEAD 2>/dev/null || true
    git status --porcelain -- src pyproject.toml 2>/dev/null || true
    .venv/bin/python -V
  } | cksum
)
if [ ! -x .venv/bin/kingsbreakfast ] || [ "$(cat .venv/.kingsbreakfast-installed 2>/dev/null)" != "$stamp" ]; then
  echo "play.sh: installing kingsbreakfast with the terminal game into .venv (a minute the first time)" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check ".[tui]"
  echo "$stamp" > .venv/.kingsbreakfast-installed
fi

# Started from the player's own folder (saves go there), by a path they can type again:
# the game's "resume it with" line names the program as it was started. (Not with bash's
# exec, which would hand the program its absolute path.)
cd "$start"
launcher="$root/.venv/bin/kingsbreakfast"
[ "$start" = "$root" ] && launcher=.venv/bin/kingsbreakfast
# the unfinished games are offered before a new one, unless the arguments name what to play
offer=(--offer-saved)
for arg in "$@"; do
  case $arg in --resume | --resume=* | --help) offer=() ;; esac
done
status=0
"$launcher" play "${offer[@]}" "$@" || status=$?
exit "$status"
