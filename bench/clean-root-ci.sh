#!/usr/bin/env bash
# Prove `.ci/run` on a clean Debian 12 root: nothing of the test machine's apt packages,
# only a minimal bookworm (debootstrap), this machine's Node copied in, a fresh clone.
#
#   sudo bash bench/clean-root-ci.sh                 # clones main of this repository
#   BRANCH=my-branch ROOT=/srv/deb12 sudo bash bench/clean-root-ci.sh
#
# Writes the whole log to $ROOT.log and prints the closing "Tests: …" line and the time.
# Safe to re-run: an existing root is reused (delete $ROOT for a really clean run), the
# mounts are undone on exit. Needs root (debootstrap, chroot, mount, unshare) and network access
# to deb.debian.org and the npm registry.
set -euo pipefail

ROOT=${ROOT:-/srv/deb12}
REPO=${REPO:-$(git -C "$(dirname "$0")/.." rev-parse --path-format=absolute --git-common-dir)}
BRANCH=${BRANCH:-main}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
LOG=${LOG:-$ROOT.log}

command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap; }

# 1. A minimal Debian 12. minbase has apt, bash, coreutils and libstdc++ (Node needs it) — no X, no fonts.
if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# Behind a TLS-inspecting proxy the host trusts an extra CA (NODE_EXTRA_CA_CERTS); npm in
# the root needs it too (without it: npm ci → SELF_SIGNED_CERT_IN_CHAIN).
EXTRA_CA=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" "$ROOT/root/host-extra-ca.crt"
  EXTRA_CA=(NODE_EXTRA_CA_CERTS=/root/host-extra-ca.crt)
fi

# 2. Node and npm from this machine (Node 20 from NodeSource or nodejs.org is one binary + npm's folder).
NODE_BIN=$(readlink -f "$(command -v node)")
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")   # …/lib/node_modules/npm
mkdir -p "$ROOT/usr/local/bin" "$ROOT/usr/local/lib/node_modules"
cp "$NODE_BIN" "$ROOT/usr/local/bin/node"
rm -rf "$ROOT/usr/local/lib/node_modules/npm"
cp -a "$NPM_DIR" "$ROOT/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"

# 3. Mounts. /tmp is the host's: X servers take their display numbers by lock files in
# /tmp while their abstract sockets live in the (shared) network namespace, so a
# private /tmp would hand out display numbers the host already uses.
# A run killed before its trap (a session ended, kill -9) leaves its mounts behind, and the
# next run then stopped at `mount: … sys already mounted` (exit 32). Leftovers are undone
# first — deepest first — unless a process still runs inside the root (a run in progress).
for p in /proc/[0-9]*; do
  case "$(readlink "$p/root" 2>/dev/null)" in
    "$ROOT"|"$ROOT"/*) echo "clean-root-ci: process ${p#/proc/} runs inside $ROOT; is another run in progress?" >&2; exit 1 ;;
  esac
done
awk -v root="$ROOT/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
mounted=()
mountit() { mount "$@"; mounted=("${!#}" "${mounted[@]}"); }
cleanup() { for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
mountit -t proc proc "$ROOT/proc"
mountit --rbind /dev "$ROOT/dev"
mountit -t sysfs sys "$ROOT/sys"
mountit --bind /tmp "$ROOT/tmp"
mkdir -p "$ROOT/dev/shm"

# 4. A fresh clone of the branch, no node_modules.
rm -rf "$ROOT/root/deskpilot"
git clone --quiet --branch "$BRANCH" "$REPO" "$ROOT/root/deskpilot"
echo "clean-root-ci: $(git -C "$ROOT/root/deskpilot" log -1 --format='%h %s') on $(chroot "$ROOT" cat /etc/debian_version), node $(chroot "$ROOT" /usr/local/bin/node --version)" | tee "$LOG"

# 5. CI, exactly as CI runs it (niced: on a shared machine the others keep their share of the CPU).
# The root is entered with pivot_root in a mount namespace of its own, not chroot: inside
# a plain chroot bubblewrap fails — as root "Failed to make / slave: Invalid argument"
# (the root is no mount point), as any other user "No permissions to create new
# namespace" (the kernel refuses user namespaces to a chrooted process; bubblewrap issues
# 135 and 689) — and the sandbox tests run bwrap both ways. The mounts of step 3 come along
# (--rbind); the host's root is detached inside the namespace only.
enter_root() {
  unshare --mount --fork /bin/sh -c 'set -e
    mount --make-rprivate /
    mount --rbind "$1" "$1"
    cd "$1"
    mkdir -p .oldroot
    pivot_root . .oldroot
    cd /
    umount -l /.oldroot
    rmdir /.oldroot
    shift
    exec "$@"' enter-root "$@"
}
start=$(date +%s)
set +e
enter_root "$ROOT" /usr/bin/nice -n "${NICE:-10}" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 "${EXTRA_CA[@]}" \
  bash -c 'cd /root/deskpilot && bash .ci/run' 2>&1 | tee -a "$LOG"
status=${PIPESTATUS[0]}
set -e
echo "clean-root-ci: .ci/run exited $status after $(( $(date +%s) - start )) s; log: $LOG" | tee -a "$LOG"
exit "$status"
