// Everything about a room besides your own board: the players bar, the other racers' boards
// (every racer's, for a spectator), the clock and the results. Names are text, never HTML.
import { BoardView } from './board_view.js';

function text(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (className) node.className = className;
  return node;
}

// The emotes racers may send (the server's fixed set), as they are shown.
export const EMOTES = { hi: '👋', gl: '🍀', gg: '🤝', nice: '👍', wow: '😮', oops: '😅' };
export const EMOTE_WORDS = { hi: 'hi', gl: 'good luck', gg: 'good game', nice: 'nice', wow: 'wow', oops: 'oops' };

// A ghost race's result in words: by how much each racer beat or trailed the run.
export function ghostMargins(over) {
  const names = new Map(over.standings.map((s) => [s.player, s.name]));
  return Object.entries(over.ghost.margins).map(([player, margin]) => {
    const who = names.get(player) ?? 'someone';
    const run = `${over.ghost.name}'s run (${over.ghost.score} points)`;
    if (margin === 0) return `${who} tied ${run}.`;
    return `${who} ${margin > 0 ? 'beat' : 'trailed'} ${run} by ${Math.abs(margin)} points.`;
  }).join(' ');
}

export class RaceView {
  constructor({ players, opponents, results, clock, clockValue }) {
    Object.assign(this, { players, opponents, results, clock, clockValue });
    this.boards = new Map();  // player id → BoardView
  }

  // The room's racers; the host (me) of a waiting room may send another person out (onKick).
  renderPlayers(room, me, onKick) {
    const hosting = room && me === room.host && room.state === 'waiting';
    this.players.replaceChildren(...(room ? room.players : []).map((p) => {
      const li = text('li', p.name + (p.id === room.host ? ' (host)' : ''));
      if (p.ready) li.classList.add('ready');
      if (p.ghost) li.classList.add('ghost');
      if (!p.connected) li.classList.add('away');
      if (hosting && p.id !== me && !p.ghost && !p.id.startsWith('bot-')) {
        const kick = text('button', 'send out', 'link');
        kick.setAttribute('aria-label', `Send ${p.name} out of the room`);
        kick.addEventListener('click', () => onKick(p.id));
        li.append(' ', kick);
      }
      return li;
    }));
  }

  // Small boards for every racer in race.games except `skip` (your own id when racing).
  renderBoards(race, room, skip) {
    if (!race) { this.opponents.replaceChildren(); this.boards.clear(); return; }
    const names = new Map((room ? room.players : []).map((p) => [p.id, p.name]));
    const ghosts = new Set((room ? room.players : []).filter((p) => p.ghost).map((p) => p.id));
    const ids = Object.keys(race.games).filter((id) => id !== skip);
    if (ids.join() !== [...this.boards.keys()].join()) {
      this.boards.clear();
      this.opponents.replaceChildren(...ids.map((id) => {
        const box = document.createElement('div');
        box.className = ghosts.has(id) ? 'opponent ghost' : 'opponent';
        box.dataset.player = id;
        const title = text('h3', '');
        const board = document.createElement('div');
        box.append(title, board);
        this.boards.set(id, { view: new BoardView(board, { small: true }), title });
        return box;
      }));
    }
    for (const id of ids) {
      const g = race.games[id], entry = this.boards.get(id);
      const name = names.get(id) ?? 'racer';
      entry.title.textContent = `${name} — ${g.score}${g.state === 'playing' ? '' : ` (${g.state})`}`;
      entry.view.setLabel(`${name}'s board`);
      if (!entry.view.board) entry.view.show(g.board, g.mode);
    }
  }

  // Shows emote (a name of EMOTES) beside the board of `at` (an element) for three seconds.
  static showEmote(at, emote) {
    const bubble = text('span', EMOTES[emote] ?? '', 'emote-bubble');
    bubble.setAttribute('aria-hidden', 'true');  // announced in words by the page
    at.append(bubble);
    setTimeout(() => bubble.remove(), 3000);
  }

  // The box of a racer's small board, or null.
  boxOf(playerId) {
    return this.opponents.querySelector(`.opponent[data-player="${CSS.escape(playerId)}"]`);
  }

  animate(playerId, before, message, mode) {
    const entry = this.boards.get(playerId);
    if (entry) entry.view.animate(before, message, mode);
  }

  renderClock(race, now = Date.now()) {
    this.clock.hidden = !race;
    if (!race) return;
    const left = Math.max(0, Math.round((race.endsAt - now) / 1000));
    this.clockValue.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  }

  // race_over: standings, rating changes and links to every racer's replay.
  renderResults(over, onReplay) {
    this.results.hidden = !over;
    if (!over) return;
    const reason = { target: 'target reached', time: 'time is up', all_over: 'every board is full', forfeit: 'by forfeit' }[over.reason];
    const winner = over.standings.find((s) => s.player === over.winner);
    const rows = over.standings.map((s, i) => {
      const r = over.ratings[s.player];
      const li = document.createElement('li');
      li.append(text('span', `${i + 1}. ${s.name} — ${s.score} points, ${s.moves} moves (${s.state}), rating ${r.before} → ${r.after} `));
      const link = text('button', 'replay', 'link');
      link.addEventListener('click', () => onReplay(over.replays[s.player]));
      li.append(link);
      return li;
    });
    const list = document.createElement('ol');
    list.replaceChildren(...rows);
    this.results.replaceChildren(text('h2', winner ? `${winner.name} wins — ${reason}` : `Draw — ${reason}`), list);
    if (over.ghost) this.results.append(text('p', ghostMargins(over), 'ghost-margins'));
  }
}
