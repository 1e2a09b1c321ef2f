# The project's virtual environment in .venv, made (or made anew) so that it works: sourced by
# scripts/play.sh and scripts/test.sh, which then install into it.
#
#   source scripts/venv.sh && kb_venv NAME     (NAME: the calling script, for its messages)
#
# Debian ships Python's venv module separately (python3-venv): as root it is installed with
# apt when missing; as a normal user the one line printed says what to install. A .venv left
# half made by an earlier attempt (a python without pip, an interpreter that no longer runs,
# another Python version than the one asked for) is removed and made again. PYTHON names
# the interpreter to use (default: python3).

kb_venv() {
  local name=$1 python=${PYTHON:-python3}
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "$name: $python is not installed; install Python 3.11 or newer (Debian: apt-get install python3)" >&2
    return 1
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "$name: kingsbreakfast needs Python 3.11 or newer, $python is $("$python" -V 2>&1)" >&2
    return 1
  fi
  if ! "$python" -c "import ensurepip, venv" 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "$name: installing python3-venv (Python's venv module, packaged apart on Debian)" >&2
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        python3-venv >/dev/null 2> >(grep -v '^debconf: delaying' >&2)
    else
      echo "$name: Python's venv module is missing: install python3-venv (e.g. sudo apt-get install python3-venv), then run this again" >&2
      return 1
    fi
  fi
  local wanted problem=""
  wanted=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  if [ -e .venv ] || [ -L .venv/bin/python ]; then
    if [ ! -f .venv/pyvenv.cfg ]; then
      problem="it is not a virtual environment"
    elif ! .venv/bin/python -c 'pass' 2>/dev/null; then
      problem="its python does not run"
    elif [ "$(.venv/bin/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != "$wanted" ]; then
      problem="it is for another Python than $python ($wanted)"
    elif ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
      problem="it has no pip"
    fi
    if [ -n "$problem" ]; then
      echo "$name: making .venv again: $problem" >&2
      rm -rf .venv
    fi
  fi
  if [ ! -e .venv ]; then
    echo "$name: making the virtual environment .venv" >&2
    "$python" -m venv .venv
  fi
}
