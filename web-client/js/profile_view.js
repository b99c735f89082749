// A player's profile (GET /api/players/<id>): their numbers as stat tiles, a chart of the
// rating over time (an SVG drawn here, no library: axes, dates, a point per race and the
// current value), best results and recent races with their outcome and replays. Names and
// numbers are text, never HTML.
import { dateOf, dateTime, t } from './i18n.js';
import { achievementWords } from './notice_view.js';
import { VARIANTS, ratingText } from './rating_words.js';


// The room the drawn chart leaves around its plot for the axes' labels.
const CHART_PAD = { left: 44, right: 44, top: 14, bottom: 26 };

// The chart's geometry for ratings [{at, rating}] oldest first, in a width × height box whose
// plot area leaves pad = {left, right, top, bottom} for the axes' labels: {points: [{x, y,
// rating, at}], yTicks: [{value, y}] (lowest, middle, highest), xTicks: [{at, x}] (first and
// last)}. Points are evenly spaced, higher ratings higher up; one point (or equal ones) is
// drawn level in the middle; none gives no points.
export function chartLayout(ratings, width, height, pad = CHART_PAD) {
  if (ratings.length === 0) return { points: [], yTicks: [], xTicks: [] };
  const values = ratings.map((r) => r.rating);
  const low = Math.min(...values), high = Math.max(...values);
  const plotW = width - pad.left - pad.right, plotH = height - pad.top - pad.bottom;
  const round = (v) => Math.round(v * 10) / 10;
  const yOf = (v) => round(high === low ? pad.top + plotH / 2 : pad.top + ((high - v) / (high - low)) * plotH);
  const xOf = (i) => round(ratings.length > 1 ? pad.left + (i * plotW) / (ratings.length - 1) : pad.left + plotW / 2);
  const points = ratings.map((r, i) => ({ x: xOf(i), y: yOf(r.rating), rating: r.rating, at: r.at }));
  const tickValues = high === low ? [low] : [...new Set([low, Math.round((low + high) / 2), high])];
  const yTicks = tickValues.map((value) => ({ value, y: yOf(value) }));
  const last = points.length - 1;
  const xTicks = (last > 0 ? [points[0], points[last]] : [points[0]]).map((p) => ({ at: p.at, x: p.x }));
  return { points, yTicks, xTicks };
}

function text(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (className) node.className = className;
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, content) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (content !== undefined) node.textContent = content;
  return node;
}

const day = (at) => dateOf(at, { day: 'numeric', month: 'short' });

// Draws ratings into the chart (an <svg> with a 600 × 220 viewBox).
function drawChart(chart, ratings) {
  const width = 600, height = 220;
  const { points, yTicks, xTicks } = chartLayout(ratings, width, height);
  const left = CHART_PAD.left, right = width - CHART_PAD.right, bottom = height - CHART_PAD.bottom;
  const parts = [];
  for (const t of yTicks) {
    parts.push(svg('line', { class: 'grid-line', x1: left, x2: right, y1: t.y, y2: t.y }),
      svg('text', { x: left - 6, y: t.y + 4, 'text-anchor': 'end' }, String(t.value)));
  }
  parts.push(svg('line', { class: 'axis', x1: left, x2: left, y1: 8, y2: bottom }),
    svg('line', { class: 'axis', x1: left, x2: right, y1: bottom, y2: bottom }));
  xTicks.forEach((t, i) => parts.push(svg('text', { x: t.x, y: height - 8,
    'text-anchor': xTicks.length === 1 ? 'middle' : i === 0 ? 'start' : 'end' }, day(t.at))));
  if (points.length > 1) parts.push(svg('polyline', { class: 'line', points: points.map((p) => `${p.x},${p.y}`).join(' ') }));
  for (const p of points) {
    const dot = svg('circle', { class: 'point', cx: p.x, cy: p.y, r: 4 });
    dot.append(svg('title', {}, t('profile.pointTitle', { rating: String(p.rating), day: day(p.at) })));
    parts.push(dot);
  }
  const now = points[points.length - 1];
  if (now) parts.push(svg('text', { class: 'current', x: Math.min(now.x + 8, width - 2), y: now.y + 4 }, String(now.rating)));
  chart.replaceChildren(...parts);
  chart.setAttribute('aria-label', t('profile.chartLabel', { now: String(now?.rating), ratings: ratings.map((r) => r.rating).join(', ') }));
}

// A game's links: its replay, and racing it as a ghost.
function gameLinks(li, game, onReplay, onRace) {
  const replay = text('button', t('results.replay'), 'link');
  replay.addEventListener('click', () => onReplay(game));
  const race = text('button', t('profile.raceRun'), 'link');
  race.addEventListener('click', () => onRace(game));
  li.append(replay, ' ', race);
}

function statTile(label, value) {
  const li = document.createElement('li');
  li.append(text('span', label, 'label'), text('span', String(value), 'value'));
  return li;
}

// p's rating in variant (its rating, provisional and history), or the profile's own
// (classic 4×4) when the server lists none.
export function variantRating(p, variant) {
  return p.ratings?.find((v) => v.variant === variant)
    ?? { variant: p.variant ?? 'classic-4', rating: p.rating, provisional: p.provisional, history: p.rating_history };
}

// The variants the profile's chooser offers: the profile's own and every one raced in.
export function chosenVariants(p) {
  return VARIANTS.filter((v) => v === (p.variant ?? 'classic-4') || p.ratings?.some((r) => r.variant === v && r.races > 0));
}

// The rating tile and the chart for variant: the rating starts at 1500 when the player is
// created; each rated race in the variant adds a point.
function drawRating(el, tile, p, variant) {
  const v = variantRating(p, variant);
  tile.querySelector('.value').textContent = ratingText(v.rating, v.provisional);
  tile.querySelector('.label').textContent = t('profile.ratingIn', { variant: t(`variant.${v.variant}`) });
  drawChart(el.chart, [{ at: p.created_at, rating: 1500 }, ...v.history]);
}

// Draws profile p into el: {name, stats, variant (the chart's chooser), chart, achievements,
// bests, races}; onReplay(gameId) opens a replay, onRace(gameId) races the game as a ghost.
export function renderProfile(el, p, onReplay, onRace) {
  el.name.textContent = p.name;
  if (p.bot) el.name.append(' ', Object.assign(document.createElement('span'), { textContent: t('room.bot'), className: 'badge bot' }));
  const ratingTile = statTile(t('profile.rating'), p.rating);
  el.stats.replaceChildren(ratingTile, statTile(t('profile.wins'), p.wins),
    statTile(t('profile.losses'), p.losses), statTile(t('profile.games'), p.games), statTile(t('profile.streak'), p.daily?.streak ?? 0));
  const variants = chosenVariants(p);
  el.variant.replaceChildren(...variants.map((v) => Object.assign(document.createElement('option'),
    { value: v, textContent: t(`variant.${v}`) })));
  el.variant.value = variants[0];
  el.variant.hidden = variants.length < 2;
  el.variant.onchange = () => drawRating(el, ratingTile, p, el.variant.value);
  drawRating(el, ratingTile, p, el.variant.value);
  const held = p.achievements ?? [];
  el.achievements.replaceChildren(...(held.length === 0 ? [text('li', t('profile.noneYet'))] : held.map((a) => {
    const li = text('li', '');
    const words = achievementWords(a);
    li.append(text('strong', words.title), ` · ${words.description} · ${dateOf(a.at)} `);
    gameLinks(li, a.game, onReplay, onRace);
    return li;
  })));
  el.bests.replaceChildren(...(p.bests.length === 0 ? [text('li', t('profile.noneYet'))] : p.bests.map((b) => {
    const li = text('li', `${t('profile.best', { mode: t(`mode.${b.mode}`), size: b.size, score: b.score, tile: String(b.max_tile), count: b.moves })} `);
    gameLinks(li, b.game, onReplay, onRace);
    return li;
  })));
  el.races.replaceChildren(...(p.races.length === 0 ? [text('li', t('profile.noRaces'))] : p.races.map((r) => {
    const li = document.createElement('li');
    const outcome = ['won', 'lost', 'draw'].includes(r.outcome) ? t(`profile.outcome.${r.outcome}`) : t('profile.outcome.played');
    li.append(text('span', outcome, `outcome ${r.outcome ?? ''}`),
      text('span', t('profile.race', { score: r.score, mode: t(`mode.${r.mode}`), size: r.size, at: dateTime(r.at) })));
    gameLinks(li, r.game, onReplay, onRace);
    return li;
  })));
}
