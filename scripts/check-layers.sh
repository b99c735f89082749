#!/usr/bin/env bash
# The layering rule of docs/architecture.md, checked from the includes: each folder of the
# product code may include its own folder and the folders below it, never one above, and no
# two units (a .hpp with its .cpp) include each other, directly or around a loop. Above the
# store, only the composition root sees every surface at once (server/store/store.hpp): the
# rest include the domains they work on (server/store/<domain>_store.hpp).
# Floors, lowest first: engine, protocol, server/rules, server/base, server/store, server/game,
# server/cluster, server/play, server/net, server (the composition root). The pure floors
# include no Boost header, but for server/rules' Boost.Container (inline vectors: no I/O).
# Prints every violation and exits 1 if there is one. Usage: scripts/check-layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

floors=(engine protocol server/rules server/base server/store server/game server/cluster server/play server/net server)
floor_of() {  # the floor number of a file's folder
  local dir=${1%/*}
  for i in "${!floors[@]}"; do
    [ "${floors[$i]}" = "$dir" ] && { echo "$i"; return; }
  done
  echo "?"
}

store=$(floor_of server/store/x)
root=$(floor_of server/x)
status=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
while IFS= read -r file; do
  from=$(floor_of "$file")
  if [ "$from" = "?" ]; then
    echo "layers: $file is in no floor (a new folder belongs in this script and in docs/architecture.md)"
    status=1
    continue
  fi
  case "$file" in
    engine/*) pure='^#include <boost/' ;;
    server/rules/*) pure='^#include <boost/(?!container/)' ;;
    *) pure='' ;;
  esac
  if [ -n "$pure" ] && grep -qP "$pure" "$file"; then
    echo "layers: $file includes Boost beyond what its floor allows; its floor is pure"
    status=1
  fi
  while IFS= read -r included; do
    [ -f "$included" ] || continue  # a system or library header
    to=$(floor_of "$included")
    if [ "$to" = "?" ] || [ "$to" -gt "$from" ]; then
      echo "layers: $file includes $included, a floor above it"
      status=1
    fi
    if [ "$included" = server/store/store.hpp ] && [ "$from" -gt "$store" ] && [ "$from" -lt "$root" ]; then
      echo "layers: $file includes server/store/store.hpp; include its domains' headers instead"
      status=1
    fi
    [ "${file%.*}" = "${included%.*}" ] || echo "${file%.*} ${included%.*}" >> "$edges"
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files 'engine/*.[ch]pp' 'protocol/*.[ch]pp' 'server/*.[ch]pp')

if ! loop=$(tsort "$edges" 2>&1 >/dev/null) || [ -n "$loop" ]; then
  echo "layers: units include each other around a loop:"
  echo "$loop" | grep -v 'input contains a loop' | sed 's/^tsort: /  /'
  status=1
fi
[ $status -eq 0 ] && echo "layers: $(wc -l < "$edges") includes, every one downward, no loop"
exit $status
