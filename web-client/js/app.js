// Wiring only: the connection's messages go through state.js, and the views draw the state.
import { Connection } from './connection.js';
import { applyMessage, initialState } from './state.js';
import { BoardView } from './board_view.js';
import { bindInput, moveFor } from './input.js';
import { RaceView, EMOTES, EMOTE_WORDS } from './race_view.js';
import { renderLeaderboard } from './leaderboard_view.js';
import { ReplayView } from './replay_view.js';
import { Sound } from './sound.js';
import { loadProfile, renderProfile } from './profile_view.js';

const $ = (id) => document.getElementById(id);
const state = initialState();
const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const connection = new Connection(url, localStorage);
const sound = new Sound(localStorage);
const send = (msg) => connection.send(msg);
const params = new URLSearchParams(location.search);
let view = 'lobby';        // lobby | play | replay | profile
let asking = null;         // the action waiting for the inline confirm's Yes
let best = null;           // {mode, size, score, moves}: the player's best ranked result there
let pendingRoom = params.get('room');
let pendingWatch = params.get('watch');

const board = new BoardView($('board'), { label: 'Your board', onCell: (row, col) => send({ type: 'slide', cell: [row, col] }) });
const race = new RaceView({ players: $('room-players'), opponents: $('opponents'), results: $('results'),
  clock: $('clock'), clockValue: $('clock-value') });
const replay = new ReplayView({ board: $('replay-board'), play: $('replay-play'), step: $('replay-step'),
  title: $('replay-title'), move: $('replay-move'), total: $('replay-total'), score: $('replay-score') });

// The game shown large: your race game when racing, else your solo game.
function myGame() {
  if (state.race && state.role === 'racer' && state.me) return state.race.games[state.me.id] ?? null;
  return state.role ? null : state.solo;
}

// The best box: the server's `me` for this mode and size, overtaken live by a higher score
// (Fifteen: the fewest moves of a solve, from the server only).
function bestText(game) {
  const known = best && best.mode === game.mode && best.size === game.size ? best : null;
  if (game.mode === 'fifteen') return known?.moves != null ? String(known.moves) : '–';
  const value = Math.max(known ? known.score : 0, game.ranked ? game.score : 0);
  return value > 0 ? String(value) : '–';
}

// "Your record: easy 2–1, hard 0–3" (wins–losses, draws after a slash), or nothing yet.
function botRecordText(records) {
  const raced = Object.entries(records ?? {}).filter(([, r]) => r.wins + r.losses + r.draws > 0);
  if (raced.length === 0) return '';
  return `Your record: ${raced.map(([s, r]) => `${s} ${r.wins}–${r.losses}${r.draws ? `/${r.draws}` : ''}`).join(', ')}`;
}

// Tells screen readers (the polite live region).
function say(text) { $('announce').textContent = text; }

// The player chose to play on after winning this game.
function keptGoing(game) { return localStorage.getItem('tilerace.keepGoing') === game.id; }

// An inline confirm (never window.confirm): text, and what Yes does; ask(null) dismisses it.
function ask(text, action = null) {
  asking = text ? action : null;
  $('confirm-text').textContent = text ?? '';
  $('confirm').hidden = !text;
  if (text) $('confirm-no').focus();
}

// R and Z on a game that counts: ask first.
function confirmNewGame() {
  const game = myGame();
  if (game && game.state === 'playing' && game.ranked && game.moves > 0) {
    ask('Start a new game? This one ends as resigned.', newGame);
  } else {
    newGame();
  }
}
function confirmUndo() {
  const game = myGame();
  if (game && game.ranked) ask('Undo makes this game unranked for good. Undo?', () => send({ type: 'undo' }));
  else send({ type: 'undo' });
}

function show(name) {
  view = name;
  $('gain').textContent = '';  // a "+N" belongs to the move just made
  render();
}

function render() {
  $('name-screen').hidden = !!connection.name;
  $('lobby').hidden = !connection.name || view !== 'lobby';
  $('play').hidden = view !== 'play';
  $('replay').hidden = view !== 'replay';
  $('profile').hidden = view !== 'profile';
  $('me').textContent = state.me ? state.me.name : '';
  $('me').hidden = !state.me;
  $('bot-record').textContent = botRecordText(state.botRecord);
  $('notice').hidden = !state.notice;
  $('matching').hidden = !state.queued;
  $('notice').textContent = state.notice ? state.notice.text : '';

  const game = myGame();
  $('board').parentElement.hidden = !game;
  for (const box of document.querySelectorAll('.score-box.own')) box.hidden = !game;  // spectators
  if (game) {
    if (board.board === null) board.show(game.board, game.mode);  // later: snapshots and moves redraw it
    $('score').textContent = String(game.score);
    $('moves').textContent = String(game.moves);
    $('best').textContent = bestText(game);
  }
  const keys = game?.mode === 'fifteen'
    ? 'Arrows, WASD or HJKL move the blank; click, tap or swipe a tile to slide it.'
    : 'Arrows, WASD or HJKL to move (swipe on touch screens).';
  $('help').textContent = state.role ? keys : `${keys} R new game, Z undo.`;
  const room = state.room;
  $('room-bar').hidden = !room;
  if (room) {
    $('room-code').textContent = room.code;
    const me = state.me && room.players.find((p) => p.id === state.me.id);
    $('ready').hidden = !me || room.state !== 'waiting';
    $('ready').textContent = me && me.ready ? 'Not ready' : 'Ready';
    $('copy-link').hidden = state.role !== 'racer';
    $('emotes').hidden = state.role !== 'racer';
    race.renderPlayers(room);
  }
  race.renderBoards(state.race, room, state.role === 'racer' && state.me ? state.me.id : null);
  race.renderClock(state.race && !state.results ? state.race : null);
  race.renderResults(state.results, openReplay);
  $('countdown').hidden = state.countdown === null;
  $('countdown').textContent = state.countdown ?? '';
  $('undo').hidden = !!state.role;
  $('play-new-game').hidden = !!state.role;

  // Overlays: a solo win (once) and a finished game. A dialog: it takes the focus, keys do
  // not reach the board behind it, and the focus goes back to the board when it closes.
  const overlay = $('overlay');
  const wasOpen = !overlay.hidden;
  overlay.hidden = true;
  if (game && !state.role) {
    if (game.won && !keptGoing(game) && game.state === 'playing') {
      overlay.hidden = false; $('overlay-text').textContent = 'You win!';
    } else if (game.state !== 'playing') {
      overlay.hidden = false; $('overlay-text').textContent = game.state === 'solved' ? 'Solved!' : 'Game over';
    }
    $('keep-going').hidden = game.state !== 'playing';
    $('try-again').hidden = false;
    $('rematch').hidden = true;
  } else if (state.results && state.role === 'racer') {
    overlay.hidden = false;
    $('overlay-text').textContent = state.results.winner === state.me?.id ? 'You win!' : state.results.winner ? 'You lose' : 'Draw';
    $('keep-going').hidden = true; $('try-again').hidden = true; $('rematch').hidden = false;
  }
  if (!overlay.hidden && !wasOpen) {
    sound.play(/win|Solved/.test($('overlay-text').textContent) ? 'win' : 'lose');
    overlay.querySelector('button:not([hidden])')?.focus();
    say(`${$('overlay-text').textContent} ${game ? `Score ${game.score}` : ''}`.trim());
  }
  if (overlay.hidden && wasOpen) $('board').focus();
}

connection.addEventListener('status', (e) => {
  const text = { connecting: 'connecting…', open: '', closed: 'connection lost — reconnecting…',
    replaced: 'opened in another tab' }[e.detail];
  $('status').textContent = text ?? '';
});

connection.addEventListener('message', (e) => {
  const msg = e.detail;
  const hadGame = myGame();
  for (const effect of applyMessage(state, msg)) {
    if (effect.kind === 'emote') showEmote(effect.player, effect.emote);
    if (effect.kind !== 'animate') continue;
    const mine = effect.target === 'solo' || (state.me && effect.target === state.me.id && state.role === 'racer');
    const mode = state.race?.games[effect.target]?.mode ?? state.solo?.mode ?? 'classic';
    if (mine) {
      board.animate(effect.before, effect.message, mode);
      sound.play(effect.message.gained > 0 ? 'merge' : 'slide');
      if (effect.message.gained > 0) {
        const gain = $('gain');
        gain.textContent = `+${effect.message.gained}`;
        gain.replaceWith(gain.cloneNode(true));  // restarts the rising animation
      }
      if ($('overlay').hidden) say(`Score ${effect.message.score}`);  // else the dialog's words stand
    } else {
      race.animate(effect.target, effect.before, effect.message, mode);
    }
  }
  if (msg.type === 'redirect') {
    // The room is on another node: go there and ask again (a quick match needs no asking:
    // the player is expected in the room).
    if (msg.reason === 'join_room') pendingRoom = msg.code;
    if (msg.reason === 'spectate') pendingWatch = msg.code;
    connection.moveTo(msg.url);
  }
  if (msg.type === 'welcome') {
    if (pendingRoom) { send({ type: 'join_room', code: pendingRoom }); pendingRoom = null; }
    else if (pendingWatch) {
      state.role = 'spectator';
      send({ type: 'spectate', code: pendingWatch });
      pendingWatch = null;
    }
    // Back after a dropped connection or a server restart: the server does not remember
    // spectators across connections, so watch the same room again.
    else if (state.role === 'spectator' && state.room) send({ type: 'spectate', code: state.room.code });
    send({ type: 'list_rooms' });
    send({ type: 'leaderboard', mode: 'classic', size: 4, kind: 'score' });
    send({ type: 'bot_record' });
  }
  if (msg.type === 'game' && msg.game.state === 'playing' && view === 'lobby') show('play');
  if (msg.type === 'game') {
    board.show(msg.game.board, msg.game.mode);
    // A new game, or one ended and recorded: the best for its mode and size, from the server.
    if (msg.game.id !== hadGame?.id || msg.game.state !== 'playing') {
      send({ type: 'leaderboard', mode: msg.game.mode, size: msg.game.size, kind: 'score', limit: 1, rid: 'best' });
    }
  }
  if (msg.type === 'room' && view !== 'play') show('play');
  if (msg.type === 'countdown') {
    say(`The race starts in ${msg.seconds} seconds`);
    sound.play('countdown');
  }
  if (msg.type === 'race_start') { say('Go!'); $('gain').textContent = ''; }
  if (msg.type === 'achievement') { say(`Achievement unlocked: ${msg.achievement.title}`); sound.play('win'); }
  if (msg.type === 'race_over' && msg.standings.some((p) => p.player.startsWith('bot-'))) send({ type: 'bot_record' });
  if (msg.type === 'race_over' && state.role !== 'racer') {
    const winner = msg.standings.find((s) => s.player === msg.winner);
    say(winner ? `Race over: ${winner.name} wins` : 'Race over: a draw');
  }
  if (msg.type === 'race_start' || msg.type === 'race_state') {
    const mine = myGame();
    if (mine) board.show(mine.board, mine.mode);
    if (view !== 'play') show('play');
  }
  if (msg.type === 'rooms') renderRooms();
  if (msg.type === 'leaderboard' && msg.rid === 'best') {
    best = { mode: msg.mode, size: msg.size, score: msg.me?.score ?? 0, moves: msg.me?.moves ?? null };
    render();
  } else if (msg.type === 'leaderboard') {
    renderLeaderboard($('leaderboard'), msg, openReplay, openProfile);
  }
  render();
});

// An emote beside the sender's board (yours: beside your own), and in words for screen readers.
function showEmote(player, emote) {
  const mine = state.me && player === state.me.id;
  const at = mine ? $('board').parentElement : race.boxOf(player);
  if (at) RaceView.showEmote(at, emote);
  const name = state.room?.players.find((p) => p.id === player)?.name ?? 'someone';
  say(`${mine ? 'You' : name}: ${EMOTE_WORDS[emote] ?? emote}`);
}

function renderRooms() {
  $('rooms').replaceChildren(...state.rooms.map((r) => {
    const li = document.createElement('li');
    const label = document.createElement('span');
    label.textContent = `${r.code} · ${r.mode} ${r.size}×${r.size} · ${r.state} · ${r.players.map((p) => p.name).join(', ')} `;
    const watch = document.createElement('button');
    watch.textContent = 'Spectate';
    watch.addEventListener('click', () => { state.role = 'spectator'; send({ type: 'spectate', code: r.code }); });
    li.append(label, watch);
    return li;
  }));
  if (state.rooms.length === 0) $('rooms').replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No public races right now.' }));
}

async function openProfile(id) {
  try {
    renderProfile({ name: $('profile-name'), stats: $('profile-stats'), chart: $('rating-chart'),
      bests: $('profile-bests'), races: $('profile-races'), achievements: $('profile-achievements') },
    await loadProfile(id), openReplay);
    show('profile');
  } catch (err) {
    state.notice = { kind: 'error', text: `Profile unavailable: ${err.message}` };
    render();
  }
}

async function openReplay(id) {
  try {
    await replay.load(id);
    show('replay');
  } catch (err) {
    state.notice = { kind: 'error', text: `Replay unavailable: ${err.message}` };
    render();
  }
}

function settings() {
  const mode = $('mode').value;
  return { mode, size: Number($('size').value), ...(mode === 'fifteen' ? {} : { target: Number($('target').value) }) };
}

function newGame() { send({ type: 'new_game', ...settings() }); }

$('name-form').addEventListener('submit', (e) => {
  e.preventDefault();
  connection.open($('name-input').value.trim());
  render();
});
$('new-game').addEventListener('click', () => { newGame(); show('play'); });
$('create-room').addEventListener('click', () => {
  const s = settings();
  send({ type: 'create_room', mode: s.mode, size: s.size, target: s.target, public: true });
});
// The computer races classic 4×4 only; the target is the lobby's.
$('race-bot').addEventListener('click', () => send({ type: 'create_room', mode: 'classic', size: 4,
  target: Number($('target').value), bot: $('bot-strength').value, public: true }));
$('quick-match').addEventListener('click', () => send({ type: 'quick_match', mode: settings().mode, size: settings().size }));
$('cancel-match').addEventListener('click', () => send({ type: 'cancel_match' }));
function renderSound() {
  $('sound').textContent = sound.on ? 'Sound: on' : 'Sound: off';
}
$('sound').addEventListener('click', () => { sound.toggle(); renderSound(); });
for (const gesture of ['pointerdown', 'keydown']) document.addEventListener(gesture, () => sound.resume());
renderSound();
$('emotes').replaceChildren(...Object.entries(EMOTES).map(([name, symbol]) => {
  const button = Object.assign(document.createElement('button'), { type: 'button', textContent: symbol, className: 'emote' });
  button.dataset.emote = name;
  button.setAttribute('aria-label', EMOTE_WORDS[name]);
  button.addEventListener('click', () => send({ type: 'emote', emote: name }));
  return button;
}));
state.muteEmotes = localStorage.getItem('tilerace.muteEmotes') === '1';
$('mute-emotes').checked = state.muteEmotes;
$('mute-emotes').addEventListener('change', () => {
  state.muteEmotes = $('mute-emotes').checked;
  localStorage.setItem('tilerace.muteEmotes', state.muteEmotes ? '1' : '0');
});
// Only the sizes the server accepts for the chosen mode (Fifteen: up to 6×6).
function offerSizes() {
  const max = $('mode').value === 'fifteen' ? 6 : 8;
  for (const option of $('size').options) option.hidden = option.disabled = Number(option.value) > max;
  if (Number($('size').value) > max) $('size').value = String(max);
  $('target').parentElement.hidden = $('mode').value === 'fifteen';
}
$('mode').addEventListener('change', offerSizes);
offerSizes();
$('join-form').addEventListener('submit', (e) => { e.preventDefault(); send({ type: 'join_room', code: $('join-code').value.trim() }); });
$('refresh-rooms').addEventListener('click', () => send({ type: 'list_rooms' }));
const showScores = () => send({ type: 'leaderboard', mode: settings().mode, size: settings().size, kind: 'score', period: $('board-period').value });
$('board-score').addEventListener('click', showScores);
$('board-period').addEventListener('change', showScores);
$('board-rating').addEventListener('click', () => send({ type: 'leaderboard', kind: 'rating' }));
$('ready').addEventListener('click', () => {
  const me = state.room?.players.find((p) => p.id === state.me?.id);
  send({ type: 'ready', ready: !(me && me.ready) });
});
$('rematch').addEventListener('click', () => { state.results = null; send({ type: 'ready', ready: true }); render(); });
$('leave').addEventListener('click', () => {
  if (state.role === 'spectator') send({ type: 'stop_spectating' }); else send({ type: 'leave_room' });
  state.room = null; state.role = null; state.race = null; state.results = null;
  show('lobby');
});
$('copy-link').addEventListener('click', async () => {
  const link = `${location.origin}/?room=${state.room.code}`;
  try { await navigator.clipboard.writeText(link); state.notice = { kind: 'invite', text: `Invite link copied: ${link}` }; }
  catch { state.notice = { kind: 'invite', text: `Invite link: ${link}` }; }
  render();
});
$('undo').addEventListener('click', confirmUndo);
$('play-new-game').addEventListener('click', confirmNewGame);
$('back').addEventListener('click', () => { show('lobby'); send({ type: 'list_rooms' }); });
$('keep-going').addEventListener('click', () => {
  localStorage.setItem('tilerace.keepGoing', myGame()?.id ?? '');  // remembered across reloads
  render();
});
$('confirm-yes').addEventListener('click', () => { const act = asking; ask(null); act?.(); });
$('confirm-no').addEventListener('click', () => ask(null));
$('try-again').addEventListener('click', newGame);
$('replay-back').addEventListener('click', () => show('lobby'));
$('profile-back').addEventListener('click', () => show('lobby'));
$('me').addEventListener('click', () => { if (state.me) openProfile(state.me.id); });

bindInput($('board'), {
  onDirection: (dir, via) => {
    const game = myGame();
    if (view === 'play' && game && $('overlay').hidden) send({ type: 'move', dir: moveFor(dir, via, game.mode) });
  },
  onCommand: (command) => {
    if (view !== 'play' || state.role) return;
    if (command === 'new') confirmNewGame();
    if (command === 'undo') confirmUndo();
  },
});
// A "+N" is gone once it has risen (a faded one must not linger as invisible text).
document.addEventListener('animationend', (e) => { if (e.target.id === 'gain') e.target.textContent = ''; });
setInterval(() => { if (state.race && !state.results) race.renderClock(state.race); }, 500);

if (connection.name) connection.connect();
render();
