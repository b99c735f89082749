// The server's HTTP API (docs/protocol.md, "HTTP"): each call resolves to the parsed answer,
// or rejects with an Error saying what could not be found.
async function getJson(path, missing) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(missing);
  return response.json();
}

// A player's profile: record, bests, rating history, recent races, achievements.
export function fetchProfile(id) {
  return getJson(`/api/players/${encodeURIComponent(id)}`, 'no such player');
}

// A finished game with its config and moves, to be replayed.
export function fetchReplay(id) {
  return getJson(`/api/replays/${encodeURIComponent(id)}`, 'no such finished game');
}
