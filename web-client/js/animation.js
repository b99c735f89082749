// Plans a move's animation from the server's `moved` (or race_update): which tiles slide
// where, which pop because they merged, which appear. Pure; board_view.js plays the plan.

// before, after: boards (rows); motions and spawned as the server sends them.
// Returns {sliding: [{value, from, to}], settled: [{value, at, effect}]} where effect is
// 'merged', 'new' or null, and every non-empty cell of `after` appears once in settled.
export function planAnimation(before, after, motions, spawned) {
  const key = ([r, c]) => `${r},${c}`;
  const moved = new Set(motions.map((m) => key(m.from)));
  const mergedAt = new Set(motions.filter((m) => m.merged).map((m) => key(m.to)));
  const spawnedAt = new Set(spawned.map((s) => key(s.at)));
  const sliding = motions.map((m) => ({ value: m.value, from: m.from, to: m.to }));
  // Tiles that stayed put still show during the slide.
  for (let r = 0; r < before.length; ++r) {
    for (let c = 0; c < before.length; ++c) {
      const v = before[r][c];
      if (v !== 0 && !moved.has(key([r, c]))) sliding.push({ value: v, from: [r, c], to: [r, c] });
    }
  }
  const settled = [];
  for (let r = 0; r < after.length; ++r) {
    for (let c = 0; c < after.length; ++c) {
      const v = after[r][c];
      if (v === 0) continue;
      const at = key([r, c]);
      settled.push({ value: v, at: [r, c], effect: spawnedAt.has(at) ? 'new' : mergedAt.has(at) ? 'merged' : null });
    }
  }
  return { sliding, settled };
}
