#!/usr/bin/env bash
# The README's two commands on a bare Debian 12, from a fresh clone, as a newcomer runs them:
# exit status, wall time and the number of Debian packages each one installs.
#
#   sudo bash benchmarks/bare_debian.sh [CHROOT] [BRANCH]
#
# Builds CHROOT (default /var/tmp/kingsbreakfast-bookworm) with debootstrap --variant=minbase
# and only python3, git and ca-certificates (or unpacks CHROOT.tar.gz when it exists: the
# same bare system, kept from a first run), mounts /proc, /sys, /dev, /dev/pts and /dev/shm,
# clones this repository's BRANCH (default: the current one) and runs in order:
#   1. scripts/play.sh as a normal user while python3-venv is missing (one line, status 1);
#   2. scripts/play.sh as root, the game in plain mode with its input closed at once;
#   3. half-made .venv cases (no pip, a broken interpreter, another Python), each remade;
#   4. scripts/test.sh as root (under nice), the whole suite.
# The results go to CHROOT/root/bare-run.log and to standard output; the chroot is kept
# (its PostgreSQL cluster listens on a port of its own when the host's 5432 is taken).
# Run it on an otherwise quiet machine: the test run takes both cores for 10-20 minutes.
# When the network reaches PyPI through a TLS proxy, PIP_CERT names its CA bundle.
# STEPS=123 leaves out the test run (default: STEPS=1234).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/kingsbreakfast-bookworm}
branch=${2:-$(git -C "$here" rev-parse --abbrev-ref HEAD)}

if [ ! -x "$root/usr/bin/python3" ]; then
  mkdir -p "$root"
  if [ -f "$root.tar.gz" ]; then
    tar -C "$root" -xzf "$root.tar.gz"
  else
    command -v debootstrap >/dev/null || apt-get install -y --no-install-recommends debootstrap
    debootstrap --variant=minbase --include=python3,git,ca-certificates bookworm "$root" \
      http://deb.debian.org/debian
    tar -C "$root" -czf "$root.tar.gz" .
  fi
fi

mounted=()
mount_one() {  # TYPE SOURCE TARGET
  mountpoint -q "$root/$3" && return
  if [ "$1" = bind ]; then mount --bind "$2" "$root/$3"; else mount -t "$1" "$2" "$root/$3"; fi
  mounted=("$3" "${mounted[@]}")
}
unmount_all() {
  local target
  for target in "${mounted[@]}"; do umount "$root/$target" || true; done
}
trap unmount_all EXIT
mount_one proc proc proc
mount_one sysfs sysfs sys
mount_one bind /dev dev
mount_one bind /dev/pts dev/pts
mount_one tmpfs tmpfs dev/shm
cp /etc/resolv.conf "$root/etc/resolv.conf"
cert_env=()
if [ -n "${PIP_CERT:-}" ]; then
  cp "$PIP_CERT" "$root/root/pip-ca.pem"
  cert_env=(PIP_CERT=/root/pip-ca.pem)
fi

rm -rf "$root/root/kingsbreakfast"
git clone -q --branch "$branch" "$here" "$root/root/kingsbreakfast"

cat > "$root/root/bare-run.sh" <<'EOF'
#!/bin/bash
log=/root/bare-run.log
: > $log
say() { echo "$*" | tee -a $log; }
count() { dpkg -l | grep -c ^ii; }
if [[ $STEPS == *1* ]] && ! python3 -c 'import ensurepip' 2>/dev/null; then
  id player >/dev/null 2>&1 || useradd -m player
  rm -rf /srv/kingsbreakfast.git
  git clone -q --bare /root/kingsbreakfast /srv/kingsbreakfast.git
  chown -R player:player /srv/kingsbreakfast.git
  runuser -u player -- bash -c 'cd ~ && rm -rf kingsbreakfast &&
    git clone -q /srv/kingsbreakfast.git kingsbreakfast && cd kingsbreakfast &&
    bash scripts/play.sh; echo "exit status $?"' 2>&1 | tee -a $log
  say "== 1. play.sh as a normal user without python3-venv (above)"
fi

cd /root/kingsbreakfast
before=$(count); start=$(date +%s)
bash scripts/play.sh --plain --seed 1 < /dev/null > /root/play.out 2> /root/play.err
status=$?
say "== 2. play.sh as root: exit status $status, $(( $(date +%s) - start )) s," \
  "packages $before -> $(count)"
cat /root/play.err >> $log; tail -1 /root/play.out | tee -a $log

cp -a .venv /root/venv-good
for case in nopip broken other; do
  rm -rf .venv
  case $case in
    nopip) python3 -m venv --without-pip .venv ;;
    broken) cp -a /root/venv-good .venv && ln -sf /nonexistent/python3 .venv/bin/python ;;
    other) cp -a /root/venv-good .venv && rm .venv/bin/python &&
      printf '#!/bin/sh\necho 3.9\n' > .venv/bin/python && chmod +x .venv/bin/python ;;
  esac
  start=$(date +%s)
  bash scripts/play.sh --plain --seed 1 < /dev/null > /root/play.out 2> /root/play.err
  status=$?
  say "== 3. half-made .venv ($case): exit status $status, $(( $(date +%s) - start )) s;" \
    "$(grep 'making .venv again' /root/play.err)"
done
rm -rf /root/venv-good
[[ $STEPS == *4* ]] || exit 0

before=$(count); start=$(date +%s)
nice -n 10 bash scripts/test.sh > /root/test.out 2>&1
status=$?
say "== 4. test.sh as root: exit status $status, $(( $(date +%s) - start )) s," \
  "packages $before -> $(count)"
grep -E "^(ci-services|test.sh):|PASSED|passed|failed" /root/test.out | tee -a $log
EOF
env -i HOME=/root TERM="${TERM:-xterm}" LANG=C.UTF-8 "${cert_env[@]}" STEPS="${STEPS:-1234}" \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  chroot "$root" /bin/bash /root/bare-run.sh
