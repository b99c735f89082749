// A player's profile (GET /api/players/<id>): rating, record, games, a chart of the rating
// over time (an SVG line drawn here, no library), best results and recent races with their
// replays. Names and numbers are text, never HTML.

// The chart's polyline points ("x,y x,y …") for ratings [{at, rating}] oldest first, in a
// width × height box with pad pixels of margin; higher ratings are higher up. One point is
// drawn level in the middle; none gives ''.
export function chartPoints(ratings, width, height, pad = 10) {
  if (ratings.length === 0) return '';
  const values = ratings.map((r) => r.rating);
  const low = Math.min(...values), high = Math.max(...values);
  const span = high - low || 1;
  const step = ratings.length > 1 ? (width - 2 * pad) / (ratings.length - 1) : 0;
  return ratings.map((r, i) => {
    const x = ratings.length > 1 ? pad + i * step : width / 2;
    const y = high === low ? height / 2 : pad + ((high - r.rating) / span) * (height - 2 * pad);
    return `${Math.round(x * 10) / 10},${Math.round(y * 10) / 10}`;
  }).join(' ');
}

function text(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (className) node.className = className;
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';

// A game's links: its replay, and racing it as a ghost.
function gameLinks(li, game, onReplay, onRace) {
  const replay = text('button', 'replay', 'link');
  replay.addEventListener('click', () => onReplay(game));
  const race = text('button', 'race this run', 'link');
  race.addEventListener('click', () => onRace(game));
  li.append(replay, ' ', race);
}

// Draws profile p into el: {name, stats, chart, achievements, bests, races}; onReplay(gameId)
// opens a replay, onRace(gameId) races the game as a ghost.
export function renderProfile(el, p, onReplay, onRace) {
  el.name.textContent = p.name;
  el.stats.textContent = `Rating ${p.rating} · ${p.wins} wins, ${p.losses} losses · ${p.games} games`;
  // The rating starts at 1500 when the player is created; each rated race adds a point.
  const ratings = [{ at: p.created_at, rating: 1500 }, ...p.rating_history];
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', chartPoints(ratings, 300, 100));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', '#6f5e4f');
  line.setAttribute('stroke-width', '2');
  el.chart.replaceChildren(line);
  el.chart.setAttribute('aria-label', `Rating over time: ${ratings.map((r) => r.rating).join(', ')}`);
  const held = p.achievements ?? [];
  el.achievements.replaceChildren(...(held.length === 0 ? [text('li', 'None yet.')] : held.map((a) => {
    const li = text('li', '');
    li.append(text('strong', a.title), ` · ${a.description} · ${new Date(a.at).toLocaleDateString()} `);
    gameLinks(li, a.game, onReplay, onRace);
    return li;
  })));
  el.bests.replaceChildren(...(p.bests.length === 0 ? [text('li', 'None yet.')] : p.bests.map((b) => {
    const li = text('li', `${b.mode} ${b.size}×${b.size}: ${b.score} points, ${b.max_tile} tile, ${b.moves} moves `);
    gameLinks(li, b.game, onReplay, onRace);
    return li;
  })));
  el.races.replaceChildren(...p.races.map((r) => {
    const li = text('li', `${new Date(r.at).toLocaleString()} · room ${r.room} · ${r.score} points (${r.state}) `);
    gameLinks(li, r.game, onReplay, onRace);
    return li;
  }));
}
