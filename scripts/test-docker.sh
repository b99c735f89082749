#!/usr/bin/env bash
# make test-docker: builds the image, runs it on a free loopback port with a fresh volume,
# waits until it is healthy, plays a short solo game over WebSocket, stops it with SIGTERM
# (exit code 0 expected), starts a new container on the same volume and checks the finished
# game is still on the leaderboard. Then brings up docker/compose.cluster.yml (nginx, two
# nodes, Redis, PostgreSQL) with nginx on a free loopback port and races two players who land
# on different nodes, watched by a spectator. Needs a docker CLI and docker-compose that reach
# an engine (here: ../shared/tools/container-build.sh env).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=./${BUILD:-build}/tilerace-smoke
tag=tilerace:test
name=tilerace-test-$$
volume=tilerace-test-$$
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

project=tilerace-test-$$
compose() { docker-compose -p "$project" -f docker/compose.cluster.yml "$@"; }

cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  compose down -v >/dev/null 2>&1 || true
}
trap cleanup EXIT

wait_healthy() {
  local status="" deadline=$((SECONDS + 90))
  while [ $SECONDS -lt $deadline ]; do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$name")
    [ "$status" = healthy ] && return 0
    sleep 1  # polling interval while waiting for the healthcheck, bounded by the deadline
  done
  echo "test-docker: container not healthy ($status)"; docker logs "$name"; return 1
}

start_container() {
  docker run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$volume:/data" "$tag" >/dev/null
  local started=$SECONDS
  wait_healthy
  echo "test-docker: healthy after $((SECONDS - started)) s on 127.0.0.1:$port"
}

docker build -t "$tag" .
size=$(docker image inspect -f '{{.Size}}' "$tag")
echo "test-docker: image $tag is $((size / 1000000)) MB"
docker volume create "$volume" >/dev/null

start_container
game=$("$smoke" play "$port")

stopping=$SECONDS
docker stop -t 10 "$name" >/dev/null
code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
echo "test-docker: stopped with SIGTERM in $((SECONDS - stopping)) s, exit code $code"
[ "$code" = 0 ] || { docker logs "$name"; exit 1; }
docker logs "$name" 2>&1 | tail -3
docker rm "$name" >/dev/null

start_container  # a new container on the same volume
"$smoke" check "$port" "$game"
docker rm -f "$name" >/dev/null

# The cluster: the image just built, nginx on a free port.
docker tag "$tag" tilerace
export TILERACE_PORT
TILERACE_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
started=$SECONDS
compose up -d --no-build
deadline=$((SECONDS + 180))
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$TILERACE_PORT/healthz")" = 200 ]; do
  if [ $SECONDS -ge $deadline ]; then echo "test-docker: the cluster did not come up"; compose ps; compose logs; exit 1; fi
  sleep 1  # polling interval while the cluster starts, bounded by the deadline
done
echo "test-docker: cluster up behind nginx on 127.0.0.1:$TILERACE_PORT after $((SECONDS - started)) s"
"$smoke" race "$TILERACE_PORT" || { compose logs; exit 1; }
compose stop -t 15 node1 node2
compose ps
echo "test-docker: OK"
