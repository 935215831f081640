#!/usr/bin/env bash
# The image and the compose file, tested end to end (CI runs it; so can a developer):
#   1. build the images (scripts/docker/images.sh; cached);
#   2. the project's image alone: it runs as its non-root user, and `npm start --replay` inside it
#      writes the embedded log and the journal's requestId index on a fresh volume (/data) and
#      quotes from it; the container turns healthy (HEALTHCHECK: GET /ready);
#   3. docker-compose up of Kafka + the ingestor replaying replay-data/ + the API: every service
#      turns healthy in order, and a real quote comes back through the API (fresh books, routable);
#   4. docker-compose down -v: no container, volume or network of the project is left.
# Prints each step's wall time, the image's size, the container's user and the volume's owner.
#
#   scripts/docker/smoke.sh
# Environment: ROUTE_API_PORT (3000), ROUTE_KAFKA_PORT (29092; its controller the next port),
# ROUTE_SMOKE_PORT (the lone container's port, 3100). On an engine without a bridge network the
# services run in the host's network (docker-compose.host.yml).
source "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

PROJECT=route-smoke
API_PORT="${ROUTE_API_PORT:-3000}"
SOLO_PORT="${ROUTE_SMOKE_PORT:-3100}"
export ROUTE_API_PORT="$API_PORT" ROUTE_KAFKA_PORT="${ROUTE_KAFKA_PORT:-29092}"
export ROUTE_KAFKA_CONTROLLER_PORT=$((ROUTE_KAFKA_PORT + 1))
# The locally built images (lib.sh) stand in for the official ones.
export KAFKA_IMAGE NODE_IMAGE ROUTE_IMAGE="$APP_IMAGE"
SOLO="$PROJECT-solo"
SOLO_VOLUME="$PROJECT-data"
COMPOSE=(docker-compose -p "$PROJECT" -f docker-compose.yml)
HOST_NET=false
if docker network inspect bridge >/dev/null 2>&1; then
  COMPOSE+=(-f docker-compose.override.yml)
else
  HOST_NET=true
  COMPOSE+=(-f docker-compose.host.yml)
fi
T_ALL=$(date +%s)
timings=()
step() { timings+=("$(printf '%-52s %4d s' "$1" "$(elapsed "$2")")"); }

cleanup() {
  docker rm -f "$SOLO" >/dev/null 2>&1 || true
  docker volume rm -f "$SOLO_VOLUME" >/dev/null 2>&1 || true
  "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
}
# On a failure, what the services said first, then the same cleanup.
on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    docker logs --tail 30 "$SOLO" 2>&1 | sed 's/^/solo | /' >&2 || true
    "${COMPOSE[@]}" ps >&2 || true
    "${COMPOSE[@]}" logs --no-color --tail=40 >&2 || true
  fi
  cleanup
}
trap on_exit EXIT

# GET a URL from the host; prints the body, fails on a non-2xx answer.
get() { node -e 'fetch(process.argv[1]).then(async (r) => { const t = await r.text(); console.log(t); process.exit(r.ok ? 0 : 1); }, (e) => { console.error(e.message); process.exit(1); })' "$1"; }

# Wait until container $1 is healthy (its HEALTHCHECK), at most $2 seconds.
wait_healthy() {
  local deadline=$(($(date +%s) + $2)) state
  while :; do
    state="$(docker inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null || echo gone)"
    [ "$state" = healthy ] && return 0
    if [ "$state" = gone ] || [ "$(date +%s)" -gt "$deadline" ]; then
      docker logs --tail 40 "$1" >&2 || true
      die "$1 is $state after $2 s"
    fi
    sleep 1
  done
}

# A routable quote: 200 and no unroutableReason.
quote() {
  local body
  body="$(get "$1/route?from=USDT&to=BTC&amountIn=1000")" || die "GET /route failed: $body"
  node -e 'const r = JSON.parse(process.argv[1]); if (r.unroutableReason) { console.error("unroutable: " + r.unroutableReason); process.exit(1); } console.log(`quote ${r.requestId}: ${r.amountIn} ${r.from} -> ${r.amountOut} ${r.to} on ${r.hops.map((h) => h.pair + " (" + h.legs.map((l) => l.exchangeId).join(", ") + ")").join(" then ")}`);' "$body"
}

cleanup
t=$(date +%s)
bash "$DOCKER_DIR/images.sh" all
step "build images (cached: base, node, kafka, app)" "$t"
IMAGE_SIZE="$(docker image inspect -f '{{.Size}}' "$APP_IMAGE" | awk '{printf "%.0f MB", $1/1e6}')"
IMAGE_USER="$(docker image inspect -f '{{.Config.User}}' "$APP_IMAGE")"

# 2. The image alone, on a fresh named volume, the embedded log.
t=$(date +%s)
docker volume create "$SOLO_VOLUME" >/dev/null
net=(-p "127.0.0.1:$SOLO_PORT:$SOLO_PORT")
$HOST_NET && net=(--network host)
docker run -d --name "$SOLO" "${net[@]}" -v "$SOLO_VOLUME:/data" "$APP_IMAGE" \
  node dist/apps/api/src/start.js --replay replay-data/ --speed max --port "$SOLO_PORT" --host 127.0.0.1 >/dev/null
# The image's HEALTHCHECK asks port 3000: this one runs on another, so ask it the same way here.
deadline=$(($(date +%s) + 120))
until docker exec "$SOLO" node scripts/healthcheck.mjs api "$SOLO_PORT" >/dev/null 2>&1; do
  [ "$(date +%s)" -lt "$deadline" ] || { docker logs --tail 40 "$SOLO" >&2; die "the lone container never got ready"; }
  sleep 1
done
SOLO_ID="$(docker exec "$SOLO" id)"
quote "http://127.0.0.1:$SOLO_PORT" >/dev/null || die "no quote from the lone container"
VOLUME_OWNER="$(docker exec "$SOLO" stat -c '%U:%G (uid %u) mode %a' /data)"
# What it wrote there: the embedded log and the journal's requestId index, owned by its user.
docker exec "$SOLO" sh -c 'ls /data' | tr '\n' ' ' >&2 && echo >&2
docker exec "$SOLO" sh -c 'test -z "$(find /data ! -user node)"' || die "files under /data not owned by node"
docker stop -t 15 "$SOLO" >/dev/null
SOLO_EXIT="$(docker inspect -f '{{.State.ExitCode}}' "$SOLO")"
[ "$SOLO_EXIT" = 0 ] || { docker logs --tail 20 "$SOLO" >&2; die "the lone container exited $SOLO_EXIT on SIGTERM"; }
docker logs "$SOLO" 2>&1 | grep '"message":"stopped"' >&2 || die "no 'stopped' line"
docker rm "$SOLO" >/dev/null && docker volume rm "$SOLO_VOLUME" >/dev/null
step "image alone: embedded log on a volume, quote, stop" "$t"

# 3. Compose: Kafka + ingestor (replay) + API.
t=$(date +%s)
"${COMPOSE[@]}" up -d --no-build
for service in kafka ingestor api; do
  wait_healthy "$("${COMPOSE[@]}" ps -q "$service")" 240
  step "compose up: $service healthy (since up)" "$t"
done
API="http://127.0.0.1:$API_PORT"
[ "$HOST_NET" = true ] || API="http://127.0.0.1:3000"
t=$(date +%s)
QUOTE="$(quote "$API")" || die "no routable quote through compose"
get "$API/health" >&2
step "compose: a quote through the API" "$t"

# 4. Down, leaving nothing behind.
t=$(date +%s)
"${COMPOSE[@]}" down -v --remove-orphans
left="$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT")"
left+="$(docker volume ls -q --filter "label=com.docker.compose.project=$PROJECT")"
left+="$(docker network ls -q --filter "label=com.docker.compose.project=$PROJECT")"
[ -z "$left" ] || die "compose down left: $left"
step "compose down -v (nothing left)" "$t"
trap - EXIT

echo "compose smoke test passed in $(elapsed "$T_ALL") s"
printf '  %s\n' "${timings[@]}"
echo "  $QUOTE"
echo "  image $APP_IMAGE: $IMAGE_SIZE, user '$IMAGE_USER'; in the container: $SOLO_ID"
echo "  volume /data: owner $VOLUME_OWNER"
