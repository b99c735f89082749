// Everything about a room besides your own board: the players bar, every racer's heading
// (name, score, largest tile, progress to the target, who leads), the other racers' boards
// (every racer's, for a spectator) laid out to fit the screen, the clock and the result
// dialog. Names are text, never HTML.
import { BoardView } from './board_view.js';
import { language, t } from './i18n.js';
import { ratingText } from './rating_words.js';

function text(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (className) node.className = className;
  return node;
}

// The emotes racers may send (the server's fixed set), shown as words (emote.<name>): they
// draw in any font.
export const EMOTES = ['hi', 'gl', 'gg', 'nice', 'wow', 'oops'];

// A ghost race's result in words: by how much each racer beat or trailed the run.
export function ghostMargins(over) {
  const names = new Map(over.standings.map((s) => [s.player, s.name]));
  return Object.entries(over.ghost.margins).map(([player, margin]) => {
    const words = { name: names.get(player) ?? t('say.someone'), ghost: over.ghost.name, score: over.ghost.score, count: Math.abs(margin) };
    return t(margin === 0 ? 'ghost.tied' : margin > 0 ? 'ghost.beat' : 'ghost.trailed', words);
  }).join(' ');
}

// The racer ahead in race.games: the one highest score, or null while nobody has scored or
// two share the lead (Fifteen: nobody leads by score).
export function leaderOf(games) {
  let best = null, tied = false;
  for (const [id, g] of Object.entries(games)) {
    if (g.mode === 'fifteen') return null;
    if (!best || g.score > games[best].score) { best = id; tied = false; } else if (g.score === games[best].score) tied = true;
  }
  return best && !tied && games[best].score > 0 ? best : null;
}

// How far a largest tile is on the way to the target, 0–1 (log scale: 2 … target).
export function progressTo(maxTile, target) {
  if (!target || target <= 2 || !maxTile) return 0;
  return Math.max(0, Math.min(1, Math.log2(Math.max(maxTile, 1)) / Math.log2(target)));
}

// The grid that shows n boards of size×size largest in a width × height space: {cols, cell,
// gap} in CSS pixels (cells at most 88px, the original's). head: the height of a racer's
// heading (style.css keeps it below this); colGap and rowGap: the space between boards.
export function fitBoards(n, size, width, height, { head = 56, colGap = 24, rowGap = 16 } = {}) {
  let best = null;
  for (let cols = 1; cols <= Math.min(n, 4); ++cols) {
    const rows = Math.ceil(n / cols);
    for (const gap of [10, 6, 3]) {
      const byWidth = ((width - (cols - 1) * colGap) / cols - (size + 1) * gap) / size;
      const byHeight = ((height - (rows - 1) * rowGap) / rows - head - (size + 1) * gap) / size;
      const cell = Math.floor(Math.min(88, byWidth, byHeight));
      if (cell >= gap * 4 || gap === 3) {
        if (!best || cell > best.cell) best = { cols, cell: Math.max(cell, 8), gap };
        break;
      }
    }
  }
  return best;
}

// A racer's heading: name, score and largest tile (or how their game ended), a bar of the progress to the target and
// "Leads" beside it for the racer ahead. Kept as one element whose parts are updated.
class RacerHead {
  constructor(element) {
    this.element = element;
    this.name = text('h3', '');
    this.badge = text('span', t('race.leads'), 'badge leader');
    this.numbers = text('span', '', 'numbers');
    this.bar = document.createElement('div');
    const progress = document.createElement('div');
    progress.className = 'progress';
    progress.setAttribute('aria-hidden', 'true');  // the largest tile says it in words
    progress.append(this.bar);
    element.replaceChildren(this.name, this.numbers, progress, this.badge);
  }

  // g: a race game; name: shown as is; leads: this racer is ahead; note: what to say of their
  // connection ({text, lost}: connectionNote), or null.
  render(name, g, leads, target, note = null) {
    this.name.textContent = name;
    this.badge.classList.toggle('off', !leads);  // kept in place: every heading is as tall
    this.element.parentElement.classList.toggle('leads', leads);
    this.element.parentElement.classList.toggle('away', !!note?.lost);
    const detail = note && g.state === 'playing' ? note.text
      : g.state !== 'playing' ? t(`race.state.${g.state}`) : g.mode === 'fifteen' ? t('race.moves', { count: g.moves })
        : t('race.tile', { tile: String(g.max_tile ?? 0) });
    this.badge.textContent = t('race.leads');
    this.numbers.replaceChildren(`${g.score}`, text('span', detail, 'tile-stat'));
    this.bar.style.width = `${Math.round(progressTo(g.max_tile, target) * 100)}%`;
    this.bar.parentElement.hidden = g.mode === 'fifteen';
  }
}

export class RaceView {
  // el: {players, opponents, arena, ownHead, leader, results, verdict, title, standings,
  // ghostMargins, rematch, keepWatching, clock, clockValue}.
  constructor(el) {
    this.el = el;
    this.boards = new Map();  // player id → {view, head}
    this.ownHead = new RacerHead(el.ownHead);
    this.leaderId = undefined;
  }

  // The room's racers; the host (me) of a waiting room may send another person out (onKick).
  renderPlayers(room, me, onKick) {
    const hosting = room && me === room.host && room.state === 'waiting' && !room.tournament;
    this.el.players.replaceChildren(...(room ? room.players : []).map((p) => {
      const li = text('li', p.name);
      if (p.id === room.host) li.append(text('span', t('room.host'), 'badge'));
      if (p.ready) { li.classList.add('ready'); li.append(text('span', t('room.isReady'), 'badge ready')); }
      if (p.ghost) li.classList.add('ghost');
      if (p.bot) li.append(text('span', t('room.bot'), 'badge bot'));
      if (!p.connected) { li.classList.add('away'); li.append(text('span', t('room.away'), 'badge')); }
      if (hosting && p.id !== me && !p.ghost && !p.id.startsWith('bot-')) {
        const kick = text('button', t('room.kick'), 'link');
        kick.setAttribute('aria-label', t('room.kickLabel', { name: p.name }));
        kick.addEventListener('click', () => onKick(p.id));
        li.append(' ', kick);
      }
      return li;
    }));
  }

  // Every racer's board and heading: the others' boards here (all of them for a spectator,
  // skip = null), your own heading on your board. Lays the boards out to fit: equal sizes,
  // as large as the space allows (a phone racer's own board keeps the width, the others
  // below it small). space() measures the room the boards have, {width, height}: asked once
  // everything above them is drawn. own: your game as shown (predicted); noteOf(id): what a
  // racer's heading says of their connection (lost or slow), or null.
  renderBoards(race, room, skip, space, { own = null, noteOf = () => null } = {}) {
    const { el } = this;
    el.ownHead.hidden = !race || !skip;
    if (!race) {
      el.arena.classList.remove('fitted');
      el.opponents.replaceChildren(); this.boards.clear();
      el.leader.hidden = true; this.leaderId = undefined;
      return;
    }
    const players = room ? room.players : [];
    const names = new Map(players.map((p) => [p.id, p.name]));
    const ghosts = new Set(players.filter((p) => p.ghost).map((p) => p.id));
    const target = room?.target ?? 0;
    // In the room's order (who joined first), then any racer the room no longer lists.
    const order = players.map((p) => p.id).filter((id) => id in race.games);
    const ids = [...order, ...Object.keys(race.games).filter((id) => !order.includes(id))].filter((id) => id !== skip);
    const leader = leaderOf(race.games);
    // Who leads, in words (a live region: said when the leader changes, not on every move).
    el.leader.hidden = Object.keys(race.games).length < 2;
    if (`${leader}/${language()}` !== this.leaderId) {
      this.leaderId = `${leader}/${language()}`;
      el.leader.textContent = leader === null ? t('race.nobodyLeads')
        : leader === skip ? t('race.youLead') : t('race.leader', { name: names.get(leader) ?? t('race.aRacer') });
    }
    // The layout before any board is drawn: a tile drawn at one size and then fitted to
    // another would slide (its transition) out of its board meanwhile.
    const compact = skip && window.innerWidth < 640;  // a phone racer: the others small, below
    el.arena.classList.toggle('fitted', !compact);
    if (!compact) {
      const { width, height } = space();
      const fit = fitBoards(Object.keys(race.games).length, Object.values(race.games)[0]?.size ?? 4, width, height);
      el.arena.style.setProperty('--cols', fit.cols);
      el.arena.style.setProperty('--fit-cell', `${fit.cell}px`);
      el.arena.style.setProperty('--fit-gap', `${fit.gap}px`);
    }
    if (ids.join() !== [...this.boards.keys()].join() || compact !== this.compact) {
      this.boards.clear();
      this.compact = compact;
      el.opponents.replaceChildren(...ids.map((id) => {
        const box = document.createElement('div');
        box.className = ghosts.has(id) ? 'opponent racer ghost' : 'opponent racer';
        box.dataset.player = id;
        const head = document.createElement('div');
        head.className = 'racer-head';
        const board = document.createElement('div');
        box.append(head, board);
        this.boards.set(id, { view: new BoardView(board, { small: compact }), head: new RacerHead(head) });
        return box;
      }));
    }
    for (const id of ids) {
      const g = race.games[id], entry = this.boards.get(id);
      const name = names.get(id) ?? t('race.aRacer');
      entry.head.render(name, g, id === leader, target, noteOf(id));
      entry.view.setLabel(t('board.of', { name }));
      // A move is drawn by animate(); a board that came another way (race_state after a
      // reconnect: moves made meanwhile) is drawn as it is.
      if (JSON.stringify(entry.view.latest) !== JSON.stringify(g.board)) entry.view.show(g.board, g.mode);
    }
    if (skip && race.games[skip]) this.ownHead.render(t('race.you', { name: names.get(skip) ?? '' }), own ?? race.games[skip], skip === leader, target);
  }

  // Shows emote (a name of EMOTES) beside the board of `at` (an element) for three seconds.
  static showEmote(at, emote) {
    const bubble = text('span', EMOTES.includes(emote) ? t(`emote.${emote}`) : '', 'emote-bubble');
    bubble.setAttribute('aria-hidden', 'true');  // announced in words by the page
    at.append(bubble);
    setTimeout(() => bubble.remove(), 3000);
  }

  // The box of a racer's board, or null.
  boxOf(playerId) {
    return this.el.opponents.querySelector(`.opponent[data-player="${CSS.escape(playerId)}"]`);
  }

  animate(playerId, before, message, mode) {
    const entry = this.boards.get(playerId);
    if (entry) entry.view.follow(before, message, mode);
  }

  renderClock(race, now = Date.now()) {
    const { clock, clockValue } = this.el;
    clock.hidden = !race;
    if (!race) return;
    const left = Math.max(0, Math.round((race.endsAt - now) / 1000));
    clockValue.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    clock.classList.toggle('low', left <= 30);
  }

  // race_over as a dialog: the verdict (a racer's), the standings with each rating before →
  // after and the change, each racer's replay, a ghost's margins; Rematch for a racer, Keep
  // watching for a spectator. Returns true when this opened it.
  renderResults(over, { me, role }, onReplay) {
    const { el } = this;
    const wasOpen = !el.results.hidden;
    el.results.hidden = !over;
    if (!over) return false;
    const reason = t(`results.reason.${over.reason}`);
    const winner = over.standings.find((s) => s.player === over.winner);
    const racing = role === 'racer';
    el.verdict.hidden = !racing;
    el.verdict.textContent = over.winner === me ? t('results.win') : over.winner ? t('results.lose') : t('results.draw');
    el.title.textContent = winner ? t('results.wonBy', { name: winner.name, reason }) : t('results.drawn', { reason });
    el.standings.replaceChildren(...over.standings.map((s, i) => {
      const tr = document.createElement('tr');
      if (s.player === me) tr.className = 'you';
      const r = over.ratings?.[s.player];
      const rating = document.createElement('td');
      if (r) {
        const change = r.after - r.before;
        rating.append(`${r.before} → ${ratingText(r.after, r.provisional)} `,
          text('span', change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0', `change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}`));
      } else {
        rating.textContent = '–';
      }
      const replay = document.createElement('td');
      if (over.replays?.[s.player]) {
        const link = text('button', t('results.replay'), 'link');
        link.setAttribute('aria-label', t('results.replayLabel', { name: s.name }));
        link.addEventListener('click', () => onReplay(over.replays[s.player]));
        replay.append(link);
      }
      tr.append(text('td', String(i + 1)), text('td', s.player === me ? t('results.you', { name: s.name }) : s.name),
        text('td', `${s.score}`), text('td', `${s.max_tile ?? ''}`), rating, replay);
      return tr;
    }));
    el.ghostMargins.hidden = !over.ghost;
    el.ghostMargins.textContent = over.ghost ? ghostMargins(over) : '';
    el.rematch.hidden = !racing || over.reason === 'walkover';  // nobody raced: nothing to race again
    el.keepWatching.hidden = racing;
    if (!wasOpen) el.results.querySelector('.buttons button:not([hidden])')?.focus();
    return !wasOpen;
  }
}
