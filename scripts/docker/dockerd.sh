#!/usr/bin/env bash
# A Docker engine for the container tests and the compose smoke test, on machines that have none
# running (docs/deploy.md "Docker here"): Debian's docker.io, started without a bridge network
# (--bridge=none --iptables=false: containers use the host's network, every connection stays on
# 127.0.0.1).
#
#   scripts/docker/dockerd.sh install   apt-get install docker.io docker-compose debootstrap (if missing)
#   scripts/docker/dockerd.sh start     start one unless DOCKER_HOST answers; last line:
#                                       export DOCKER_HOST=unix://<socket>
#   scripts/docker/dockerd.sh stop      stop the engine this script started (its pid file)
#
# ROUTE_DOCKERD_NAME=<name> gives the engine its own socket (/run/docker-<name>.sock), data root
# (/var/lib/docker-<name>), exec root and pid file, so it is seen only by the shells that export
# its DOCKER_HOST (on a machine shared with other test runs, theirs keep the jar broker). Without
# it the engine takes Docker's default paths (CI). Needs root.
source "$(dirname "$0")/lib.sh"

NAME="${ROUTE_DOCKERD_NAME:-}"
if [ -n "$NAME" ]; then
  SOCKET="/run/docker-$NAME.sock"
  ARGS=(--data-root "/var/lib/docker-$NAME" --exec-root "/run/docker-$NAME" --pidfile "/run/docker-$NAME.pid")
  PIDFILE="/run/docker-$NAME.pid"
else
  SOCKET=/var/run/docker.sock
  ARGS=()
  PIDFILE=/var/run/docker.pid
fi
LOG="${ROUTE_DOCKERD_LOG:-/tmp/dockerd${NAME:+-$NAME}.log}"
export DOCKER_HOST="unix://$SOCKET"

answers() { timeout 10 docker version >/dev/null 2>&1; }

case "${1:-}" in
  install)
    missing=()
    command -v dockerd >/dev/null || missing+=(docker.io)
    command -v docker-compose >/dev/null || missing+=(docker-compose)
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    if [ ${#missing[@]} -gt 0 ]; then
      say "installing ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    ;;
  start)
    if answers; then
      say "an engine already answers on $SOCKET"
    else
      command -v dockerd >/dev/null || die "dockerd is missing: scripts/docker/dockerd.sh install"
      say "starting dockerd on $SOCKET (log: $LOG)"
      # setsid: the engine outlives this shell; `stop` ends it by its pid file.
      setsid dockerd --bridge=none --iptables=false -H "unix://$SOCKET" "${ARGS[@]}" >"$LOG" 2>&1 </dev/null &
      for _ in $(seq 1 60); do
        answers && break
        sleep 1
      done
      answers || { tail -20 "$LOG" >&2; die "dockerd did not answer in 60 s"; }
    fi
    echo "export DOCKER_HOST=$DOCKER_HOST"
    ;;
  stop)
    [ -s "$PIDFILE" ] || { say "no engine started here ($PIDFILE)"; exit 0; }
    pid="$(cat "$PIDFILE")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    kill -0 "$pid" 2>/dev/null && { say "dockerd $pid still running after 30 s; killing"; kill -9 "$pid"; }
    # containerd, started by dockerd, stops with it.
    say "stopped dockerd $pid"
    ;;
  *) die "usage: dockerd.sh install|start|stop" ;;
esac
