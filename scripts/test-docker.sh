#!/usr/bin/env bash
# make test-docker: builds the image, runs it on a free loopback port with a fresh volume,
# waits until it is healthy, plays a short solo game over WebSocket, stops it with SIGTERM
# (exit code 0 expected), starts a new container on the same volume and checks the finished
# game is still on the leaderboard. Then brings up docker/compose.cluster.yml (nginx, two
# nodes, Redis, PostgreSQL) with nginx on a free loopback port and races two players who land
# on different nodes, watched by a spectator. Last the public files, docker/compose.public.yml
# and docker/compose.public-cluster.yml: Caddy with its own CA (TLS_ISSUER=internal) for
# localhost on free ports, http:// redirected, and a race over wss:// verified against that CA.
# Needs a docker CLI and docker-compose that reach an engine (here:
# ../shared/tools/container-build.sh env, with its caddy, redis and postgres stand-ins).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=./${BUILD:-build}/tilerace-smoke
tag=tilerace:test
name=tilerace-test-$$
volume=tilerace-test-$$
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
scratch=$(mktemp -d)

project=tilerace-test-$$
compose() { docker-compose -p "$project" -f docker/compose.cluster.yml "$@"; }
public_project=tilerace-public-$$
public_file=""
public() { docker-compose -p "$public_project" -f "docker/$public_file" "$@"; }

cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  compose down -v >/dev/null 2>&1 || true
  [ -z "$public_file" ] || public down -v >/dev/null 2>&1 || true
  rm -rf "$scratch"
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
TILERACE_PORT=$(free_port)
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
compose down -v >/dev/null

# The public files: Caddy's own CA for localhost, on free ports. The race goes over wss://,
# verified against that CA as a browser that trusts it would.
export SITE_ADDRESS=localhost TLS_ISSUER=internal HTTP_PORT HTTPS_PORT
try_public() {  # compose file, then the smoke race's flags
  public_file=$1; shift
  HTTP_PORT=$(free_port) HTTPS_PORT=$(free_port)
  local started=$SECONDS deadline=$((SECONDS + 180)) root=$scratch/root.crt
  local https=(curl -s --cacert "$root" --resolve "localhost:$HTTPS_PORT:127.0.0.1")
  public up -d --no-build
  until public exec -T caddy cat /data/caddy/pki/authorities/local/root.crt >"$root" 2>/dev/null &&
        [ "$("${https[@]}" -o /dev/null -w '%{http_code}' "https://localhost:$HTTPS_PORT/healthz")" = 200 ]; do
    if [ $SECONDS -ge $deadline ]; then echo "test-docker: $public_file did not come up"; public ps; public logs; return 1; fi
    sleep 1  # polling interval while the containers start, bounded by the deadline
  done
  echo "test-docker: $public_file up behind Caddy on https://localhost:$HTTPS_PORT after $((SECONDS - started)) s"
  local redirect
  redirect=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$HTTP_PORT/?room=ABCDEF" -H 'Host: localhost')
  [ "$redirect" = "308 https://localhost/?room=ABCDEF" ] || { echo "test-docker: http:// answered $redirect"; return 1; }
  local headers
  headers=$("${https[@]}" -D - -o /dev/null "https://localhost:$HTTPS_PORT/")
  for header in strict-transport-security content-security-policy x-content-type-options; do
    grep -qi "^$header:" <<<"$headers" || { echo "test-docker: no $header over https:"; echo "$headers"; return 1; }
  done
  "$smoke" race "$HTTPS_PORT" "$@" --tls localhost "$root" || { public logs; return 1; }
  public down -v >/dev/null
  public_file=""
}
try_public compose.public.yml --one-node
try_public compose.public-cluster.yml
echo "test-docker: OK"
