// Wiring only: the connection's messages go through state.js (the model) and controller.js
// (what to send back), the page's controls through the controller, and the views draw the
// state after each.
import { Connection } from './connection.js';
import { ClientStorage } from './storage.js';
import { applyMessage, connectionNote, dismissResults, initialState, myGame, notify, setEmotesMuted, showView } from './state.js';
import { Controller } from './controller.js';
import { Predictor } from './prediction.js';
import { fetchProfile, fetchReplay } from './api.js';
import { BoardView } from './board_view.js';
import { bindInput, moveFor } from './input.js';
import { RaceView, EMOTES, EMOTE_WORDS } from './race_view.js';
import { LobbyView } from './lobby_view.js';
import { ConfirmView, OverlayView, overlayFor } from './overlay_view.js';
import { renderLeaderboard } from './leaderboard_view.js';
import { ReplayView } from './replay_view.js';
import { renderProfile } from './profile_view.js';
import { renderAccount } from './account_view.js';
import { FriendsView } from './friends_view.js';
import { DailyView, shareText } from './daily_view.js';
import { Sound } from './sound.js';
import { TournamentView } from './tournament_view.js';

const $ = (id) => document.getElementById(id);
const state = initialState();
const storage = new ClientStorage(localStorage);
const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const connection = new Connection(url, storage);
const sound = new Sound(storage);
const params = new URLSearchParams(location.search);
// My own game is predicted (?predict=0 turns it off: the latency benchmark's baseline).
const predictor = new Predictor((msg) => connection.transmit(msg), { enabled: params.get('predict') !== '0' });
const controller = new Controller(state, {
  send: (msg) => connection.send(msg),
  press: (action) => {
    predictor.follow(myGame(state));  // the game shown may have changed without a message (Leave)
    if (drawOwn(predictor.press(action))) render();
  },
  moveTo: (to) => connection.moveTo(to),
}, { room: params.get('room'), watch: params.get('watch'), tournament: params.get('tournament') });

const board = new BoardView($('board'), { label: 'Your board', onCell: (row, col) => controller.slide(row, col) });
const race = new RaceView({ players: $('room-players'), opponents: $('opponents'), arena: $('arena'),
  ownHead: $('own-head'), leader: $('leader'), results: $('results'), verdict: $('results-verdict'),
  title: $('results-title'), standings: $('standings'), ghostMargins: $('ghost-margins'), rematch: $('rematch'),
  keepWatching: $('keep-watching'), clock: $('clock'), clockValue: $('clock-value') });
const replay = new ReplayView({ board: $('replay-board'), play: $('replay-play'), step: $('replay-step'),
  title: $('replay-title'), move: $('replay-move'), total: $('replay-total'), score: $('replay-score') });
const lobby = new LobbyView({ mode: $('mode'), size: $('size'), target: $('target'), rooms: $('rooms'),
  botRecord: $('bot-record') });
const overlay = new OverlayView({ overlay: $('overlay'), text: $('overlay-text'), keepGoing: $('keep-going'),
  tryAgain: $('try-again'), share: $('share'), board: $('board') });
const daily = new DailyView({ day: $('daily-day'), mine: $('daily-mine'), top: $('daily-top'), streak: $('daily-streak') },
  (id) => openProfile(id));
const friends = new FriendsView({ list: $('friends'), incoming: $('friend-requests'), outgoing: $('friend-outgoing'),
  toasts: $('toasts') }, {
  accept: (id) => controller.answerFriend(id, true),
  decline: (id) => controller.answerFriend(id, false),
  remove: (id) => controller.removeFriend(id),
  challenge: (id) => controller.challenge(id, lobby.settings()),
  watch: (id) => controller.watchFriend(id),
  acceptChallenge: (id) => { controller.answerChallenge(id, true); render(); },
  declineChallenge: (id) => { controller.answerChallenge(id, false); render(); },
});
const tournament = new TournamentView({ title: $('tournament-title'), summary: $('tournament-summary'),
  start: $('tournament-start'), players: $('tournament-players'), pointsHead: $('tournament-points-head'),
  bracket: $('tournament-bracket'),
  matches: $('tournament-matches'), podium: $('tournament-podium') }, { watch: (room) => controller.spectate(room) });
const confirm = new ConfirmView({ confirm: $('confirm'), text: $('confirm-text'), yes: $('confirm-yes'), no: $('confirm-no') });
const keptGoing = (game) => storage.keptGoing(game.id);

// The best box: the server's `me` for this mode and size, overtaken live by a higher score
// (Fifteen: the fewest moves of a solve, from the server only).
function bestText(game) {
  const known = state.best && state.best.mode === game.mode && state.best.size === game.size ? state.best : null;
  if (game.mode === 'fifteen') return known?.moves != null ? String(known.moves) : '–';
  const value = Math.max(known ? known.score : 0, game.ranked ? game.score : 0);
  return value > 0 ? String(value) : '–';
}

// Tells screen readers (the polite live region).
function say(text) { $('announce').textContent = text; }

// A "+N" belongs to the move just made: gone when the view changes or a race starts.
function clearGain() { $('gain').textContent = ''; }

function show(view) {
  if (view !== state.view) window.scrollTo(0, 0);  // a new screen starts at its top
  showView(state, view);
  clearGain();
  render();
}

// The game shown large as the player sees it: the server's, with the moves still on their
// way applied (prediction.js).
function shownGame() {
  const game = myGame(state);
  if (!game || !predictor.enabled || predictor.id !== game.id) return game;
  return { ...game, ...predictor.shown };
}

// Draws a change of my own board (Predictor's press and observe): a slide at once, the
// spawn when the server names it, or the server's board where it differs from the guess.
// Returns whether it drew anything (the caller renders the rest of the page).
function drawOwn(change) {
  if (!change) return false;
  const mode = shownGame()?.mode ?? 'classic';
  if (change.kind === 'slide') animate({ target: 'solo', before: change.before, message: change.message, mode });
  else if (change.kind === 'appear') board.appear(change.message.board, change.message.spawned, mode);
  else board.show(change.board, mode);
  return true;
}

// R and Z on a game that counts: ask first.
function confirmNewGame() {
  const game = shownGame();
  if (game && game.state === 'playing' && game.ranked && game.moves > 0) {
    confirm.ask('Start a new game? This one ends as resigned.', newGame);
  } else {
    newGame();
  }
}
function confirmUndo() {
  const game = shownGame();
  if (game && game.ranked) confirm.ask('Undo makes this game unranked for good. Undo?', () => controller.undo());
  else controller.undo();
}
function newGame() { controller.newGame(lobby.settings()); }

// The space a race's boards may fill: the arena's width, and the window's height below the
// arena's top (at least enough for one small board).
function boardSpace() {
  const arena = $('arena');
  const top = arena.getBoundingClientRect().top + window.scrollY;
  return { width: arena.clientWidth || window.innerWidth, height: Math.max(240, window.innerHeight - top - 16) };
}

// The header's line of invitation for the screen shown.
function tagline(game) {
  const room = state.room;
  if (state.view === 'play' && state.role === 'spectator' && room) return `Watching room ${room.code}: every board, live.`;
  if (state.view === 'play' && room) {
    return room.mode === 'fifteen' ? 'Race to put the tiles in order: the same start for everyone.'
      : `Race to ${room.target}: the same tiles for everyone.`;
  }
  if (state.view === 'play' && game) {
    return game.mode === 'fifteen' ? 'Slide the tiles into order, the blank last.'
      : `Join the tiles, get to ${game.target ?? 2048}!`;
  }
  return 'Race your friends to 2048: the same tiles, live.';
}

function render() {
  const { view } = state;
  document.body.dataset.view = connection.ready ? view : 'name';
  document.body.dataset.role = state.role ?? 'solo';
  $('name-screen').hidden = connection.ready;
  $('lobby').hidden = !connection.ready || view !== 'lobby';
  $('play').hidden = view !== 'play';
  $('replay').hidden = view !== 'replay';
  $('profile').hidden = view !== 'profile';
  $('tournament').hidden = view !== 'tournament';
  $('open-tournament').hidden = !state.tournament;
  if (view === 'tournament') tournament.render(state.tournament, state.me);
  $('report-form').hidden = view !== 'profile' || !state.me || profileId === state.me.id;
  const mine = view === 'profile' && state.me && profileId === state.me.id;
  renderAccount({ card: $('account'), register: $('register-form'), registered: $('registered-note'),
    rename: $('rename-form'), linkCode: $('link-code'), sessions: $('sessions') },
  mine ? state.me : null, state.account, location.origin);
  $('me').textContent = state.me ? state.me.name : '';
  $('me').hidden = !state.me;
  lobby.renderBotRecord(state.botRecord);
  friends.render(state.friends, state.challenges);
  daily.render(state.daily, state.dailyStreak);
  $('notice').hidden = !state.notice;
  $('matching').hidden = !state.queued;
  $('notice').textContent = state.notice ? state.notice.text : '';

  const game = shownGame();
  $('tagline').textContent = tagline(game);
  $('board').closest('.main-board').hidden = !game;
  for (const box of document.querySelectorAll('.score-box.own')) box.hidden = !game;  // spectators
  $('best-box').hidden = !game || !!state.role;  // a solo record: not a race's
  if (game) {
    if (board.board === null) board.show(game.board, game.mode);  // later: snapshots and moves redraw it
    $('score').textContent = String(game.score);
    $('moves').textContent = String(game.moves);
    // For tests and tools: which game is shown, and how many of its moves await an answer.
    $('board').dataset.game = game.id;
    $('board').dataset.pending = String(predictor.id === game.id ? predictor.entries.length : 0);
    $('best').textContent = bestText(game);
  }
  const keys = game?.mode === 'fifteen'
    ? 'Arrows, WASD or HJKL move the blank; click, tap or swipe a tile to slide it.'
    : 'Arrows, WASD or HJKL to move (swipe on touch screens).';
  $('help').textContent = state.role ? keys : `${keys} R new game, Z undo.`;
  $('help').hidden = !game;
  const room = state.room;
  $('room-bar').hidden = !room;
  if (room) {
    $('room-code').textContent = room.code;
    const me = state.me && room.players.find((p) => p.id === state.me.id);
    // A tournament's match starts by itself and seats whom the tournament paired.
    $('ready').hidden = !me || room.state !== 'waiting' || !!room.tournament;
    $('ready').textContent = me && me.ready ? 'Not ready' : 'Ready';
    $('copy-link').hidden = state.role !== 'racer' || !!room.tournament;
    race.renderPlayers(room, state.me?.id, (id) => controller.kick(id));
  }
  $('rtt').hidden = !room || state.role !== 'racer' || connection.rtt === null;
  $('rtt-value').textContent = connection.rtt === null ? '' : `${connection.rtt} ms`;
  $('emote-bar').hidden = !room || state.role !== 'racer';
  race.renderBoards(view === 'play' ? state.race : null, room, state.role === 'racer' && state.me ? state.me.id : null, boardSpace,
    { own: game, noteOf: (id) => connectionNote(state, id) });
  race.renderClock(state.race && !state.results ? state.race : null);
  if (race.renderResults(view === 'play' ? state.results : null, { me: state.me?.id, role: state.role }, openReplay)
      && state.role === 'racer') {
    const verdict = $('results-verdict').textContent;
    sound.play(verdict === 'You win!' ? 'win' : 'lose');
    say(`${verdict} ${$('results-title').textContent}`);
  }
  $('countdown').hidden = state.countdown === null;
  $('countdown').textContent = state.countdown ?? '';
  $('undo').hidden = !!state.role;
  $('play-new-game').hidden = !!state.role;

  if (overlay.show(overlayFor(state, game, keptGoing))) {
    const text = $('overlay-text').textContent;
    sound.play(/win|Solved/.test(text) ? 'win' : 'lose');
    say(`${text} ${game ? `Score ${game.score}` : ''}`.trim());
  }
}

connection.addEventListener('welcomed', (e) => predictor.setOpen(e.detail));
connection.addEventListener('rtt', () => { if (state.room) render(); });
connection.addEventListener('status', (e) => {
  const text = { connecting: 'connecting…', open: '', closed: 'connection lost — reconnecting…',
    replaced: 'opened in another tab', banned: 'banned by the operator' }[e.detail];
  $('status').textContent = text ?? '';
});

connection.addEventListener('message', (e) => {
  const msg = e.detail;
  const shownBefore = myGame(state);
  const viewBefore = state.view;
  const effects = applyMessage(state, msg);
  predictor.follow(myGame(state));
  const own = predictor.observe(msg, state.me?.id);
  for (const effect of effects) {
    if (effect.kind === 'emote') showEmote(effect.player, effect.emote);
    // My own board's changes come from the predictor (drawOwn) when it predicts.
    if (effect.kind === 'animate' && !(predictor.enabled && ownTarget(effect.target))) animate(effect);
  }
  if (state.view !== viewBefore) clearGain();
  controller.onMessage(msg, shownBefore);
  if (msg.type === 'game') {
    // A new game is drawn afresh; a snapshot of the one shown changes it as drawOwn says.
    if (!predictor.enabled || msg.game.id !== shownBefore?.id) board.show(msg.game.board, msg.game.mode);
  }
  drawOwn(own);
  if (msg.type === 'countdown') {
    say(`The race starts in ${msg.seconds} seconds`);
    sound.play('countdown');
  }
  if (msg.type === 'race_start') { say('Go!'); clearGain(); }
  if (msg.type === 'achievement') { say(`Achievement unlocked: ${msg.achievement.title}`); sound.play('win'); }
  if (msg.type === 'race_over' && state.role === 'spectator') {
    const winner = msg.standings.find((s) => s.player === msg.winner);
    say(winner ? `Race over: ${winner.name} wins` : 'Race over: a draw');
  }
  if (msg.type === 'race_start' || msg.type === 'race_state') {
    const mine = shownGame();
    if (mine) board.show(mine.board, mine.mode);
  }
  if (msg.type === 'rooms') lobby.renderRooms(state.rooms, (code) => controller.spectate(code));
  if (msg.type === 'welcome') loadStreak();
  if (msg.type === 'leaderboard' && msg.rid !== 'best' && msg.rid !== 'daily') renderLeaderboard($('leaderboard'), msg, openReplay, openProfile);
  render();
});

// Whether an animation's target is my own board: my solo game, or my game in a race.
function ownTarget(target) { return target === 'solo' || (state.me && target === state.me.id && state.role === 'racer'); }

// A move's slides and pops: on your own board with its sound and "+N", else on a racer's.
function animate({ target, before, message, mode: given }) {
  const mine = ownTarget(target);
  const mode = given ?? state.race?.games[target]?.mode ?? state.solo?.mode ?? 'classic';
  if (!mine) return race.animate(target, before, message, mode);
  board.animate(before, message, mode);
  sound.play(message.gained > 0 ? 'merge' : 'slide');
  if (message.gained > 0) {
    const gain = $('gain');
    gain.textContent = `+${message.gained}`;
    gain.replaceWith(gain.cloneNode(true));  // restarts the rising animation
  }
  if (!overlay.open) say(`Score ${message.score}`);  // else the dialog's words stand
}

// An emote beside the sender's board (yours: beside your own), and in words for screen readers.
function showEmote(player, emote) {
  const mine = state.me && player === state.me.id;
  const at = mine ? $('board').closest('.main-board') : race.boxOf(player);
  if (at) RaceView.showEmote(at, emote);
  const name = state.room?.players.find((p) => p.id === player)?.name ?? 'someone';
  say(`${mine ? 'You' : name}: ${EMOTE_WORDS[emote] ?? emote}`);
}

// My daily streaks, from my profile (after welcome).
async function loadStreak() {
  try {
    state.dailyStreak = (await fetchProfile(state.me.id)).daily;
    render();
  } catch { /* the card shows no streak */ }
}

let profileId = null;  // whose profile is shown
async function openProfile(id) {
  try {
    profileId = id;
    if (state.me && id === state.me.id) controller.listSessions();
    renderProfile({ name: $('profile-name'), stats: $('profile-stats'), chart: $('rating-chart'),
      bests: $('profile-bests'), races: $('profile-races'), achievements: $('profile-achievements') },
    await fetchProfile(id), openReplay, raceRun);
    show('profile');
  } catch (err) {
    notify(state, 'error', `Profile unavailable: ${err.message}`);
    render();
  }
}

// Races the recorded game id as a ghost (its replay says how long the run was).
async function raceRun(id) {
  try {
    controller.raceGhost(await fetchReplay(id));
  } catch (err) {
    notify(state, 'error', `That run cannot be raced: ${err.message}`);
    render();
  }
}

async function openReplay(id) {
  try {
    replay.open(await fetchReplay(id));
    show('replay');
  } catch (err) {
    notify(state, 'error', `Replay unavailable: ${err.message}`);
    render();
  }
}

$('name-form').addEventListener('submit', (e) => {
  e.preventDefault();
  connection.open($('name-input').value.trim());
  render();
});
$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  connection.signIn($('sign-in-name').value.trim(), $('sign-in-password').value);
  $('sign-in-password').value = '';
  render();
});
$('link-form').addEventListener('submit', (e) => {
  e.preventDefault();
  connection.link($('link-input').value.trim().toUpperCase());
  $('link-input').value = '';
  render();
});
$('register-form').addEventListener('submit', (e) => {
  e.preventDefault();
  controller.register($('register-password').value);
  $('register-password').value = '';
});
$('rename-form').addEventListener('submit', (e) => {
  e.preventDefault();
  controller.rename($('rename-input').value.trim());
  $('rename-input').value = '';
});
$('friend-form').addEventListener('submit', (e) => {
  e.preventDefault();
  controller.addFriend($('friend-name').value.trim());
  $('friend-name').value = '';
});
$('report-form').addEventListener('submit', (e) => {
  e.preventDefault();
  controller.report(profileId, $('report-reason').value, $('report-note').value.trim());
  $('report-note').value = '';
});
$('link-device').addEventListener('click', () => controller.linkDevice());
$('sign-out-others').addEventListener('click', () => controller.signOutOthers());
$('sign-out').addEventListener('click', () => controller.signOut());
$('new-game').addEventListener('click', () => { newGame(); show('play'); });
$('create-room').addEventListener('click', () => controller.createRoom(lobby.settings()));
$('race-bot').addEventListener('click', () => controller.raceComputer(Number($('target').value), $('bot-strength').value));
$('quick-match').addEventListener('click', () => controller.quickMatch(lobby.settings()));
$('cancel-match').addEventListener('click', () => controller.cancelMatch());
function renderSound() {
  $('sound').textContent = sound.on ? 'Sound: on' : 'Sound: off';
}
$('sound').addEventListener('click', () => { sound.toggle(); renderSound(); });
for (const gesture of ['pointerdown', 'keydown']) document.addEventListener(gesture, () => sound.resume());
renderSound();
$('emotes').replaceChildren(...Object.entries(EMOTES).map(([name, symbol]) => {
  const button = Object.assign(document.createElement('button'), { type: 'button', textContent: symbol, className: 'emote' });
  button.dataset.emote = name;
  button.addEventListener('click', () => controller.emote(name));
  return button;
}));
setEmotesMuted(state, storage.emotesMuted);
$('mute-emotes').checked = state.muteEmotes;
$('mute-emotes').addEventListener('change', () => {
  storage.emotesMuted = $('mute-emotes').checked;
  setEmotesMuted(state, storage.emotesMuted);
});
$('join-form').addEventListener('submit', (e) => { e.preventDefault(); controller.joinRoom($('join-code').value.trim()); });
$('refresh-rooms').addEventListener('click', () => controller.refreshRooms());
// A knockout is 1-on-1; Swiss and arena matches may seat up to four, all against all.
$('tournament-format').addEventListener('change', () => {
  $('tournament-rooms-label').hidden = $('tournament-format').value === 'single_elimination';
});
$('create-tournament').addEventListener('click', () => {
  const format = $('tournament-format').value;
  const rooms = format === 'single_elimination' ? {} : { room_size: Number($('tournament-rooms').value) };
  controller.createTournament({ format, ...rooms, ...lobby.settings() });
});
$('tournament-join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  controller.joinTournament($('tournament-code').value.trim());
});
$('open-tournament').addEventListener('click', () => show('tournament'));
$('tournament-back').addEventListener('click', () => show('lobby'));
$('tournament-start').addEventListener('click', () => controller.startTournament());
$('tournament-leave').addEventListener('click', () => controller.leaveTournament());
$('tournament-copy').addEventListener('click', async () => {
  const link = `${location.origin}/?tournament=${state.tournament.code}`;
  try { await navigator.clipboard.writeText(link); notify(state, 'invite', `Invite link copied: ${link}`); }
  catch { notify(state, 'invite', `Invite link: ${link}`); }
  render();
});
// The leaderboard's tabs: the one chosen is marked selected (the period applies to scores).
function selectTab(tab) {
  for (const id of ['board-score', 'board-rating']) $(id).setAttribute('aria-selected', String(id === tab));
  $('board-period').hidden = tab !== 'board-score';
}
const showScores = () => { selectTab('board-score'); controller.showScores(lobby.settings(), $('board-period').value); };
$('board-score').addEventListener('click', showScores);
$('board-period').addEventListener('change', showScores);
$('board-rating').addEventListener('click', () => { selectTab('board-rating'); controller.showRatings(); });
$('ready').addEventListener('click', () => controller.toggleReady());
$('rematch').addEventListener('click', () => { controller.rematch(); render(); });
$('keep-watching').addEventListener('click', () => { dismissResults(state); render(); });
$('results-lobby').addEventListener('click', () => { controller.leave(); show('lobby'); controller.refreshRooms(); });
$('leave').addEventListener('click', () => { controller.leave(); clearGain(); render(); });
$('copy-link').addEventListener('click', async () => {
  const link = `${location.origin}/?room=${state.room.code}`;
  try { await navigator.clipboard.writeText(link); notify(state, 'invite', `Invite link copied: ${link}`); }
  catch { notify(state, 'invite', `Invite link: ${link}`); }
  render();
});
$('undo').addEventListener('click', confirmUndo);
$('play-new-game').addEventListener('click', confirmNewGame);
$('back').addEventListener('click', () => { show('lobby'); controller.refreshRooms(); });
$('keep-going').addEventListener('click', () => {
  storage.keepGoing(myGame(state)?.id);  // remembered across reloads
  render();
});
$('try-again').addEventListener('click', newGame);
$('share').addEventListener('click', async () => {
  const text = shareText(myGame(state));
  try { await navigator.clipboard.writeText(text); notify(state, 'info', `Copied to share:\n${text}`); }
  catch { notify(state, 'info', text); }
  render();
});
$('daily-4').addEventListener('click', () => { controller.playDaily(4); show('play'); });
$('daily-5').addEventListener('click', () => { controller.playDaily(5); show('play'); });
$('replay-back').addEventListener('click', () => show('lobby'));
$('replay-race').addEventListener('click', () => controller.raceGhost(replay.replay));
$('profile-back').addEventListener('click', () => show('lobby'));
$('me').addEventListener('click', () => { if (state.me) openProfile(state.me.id); });

bindInput($('board'), {
  onDirection: (dir, via) => {
    const game = shownGame();
    if (state.view === 'play' && game && !overlay.open) controller.move(moveFor(dir, via, game.mode));
  },
  onCommand: (command) => {
    if (state.view !== 'play' || state.role) return;
    if (command === 'new') confirmNewGame();
    if (command === 'undo') confirmUndo();
  },
});
// A "+N" is gone once it has risen (a faded one must not linger as invisible text).
document.addEventListener('animationend', (e) => { if (e.target.id === 'gain') e.target.textContent = ''; });
setInterval(() => {
  if (state.race && !state.results) race.renderClock(state.race);
  if (Object.keys(state.away).length) render();  // the grace counting down in their headings
}, 500);
// The lobby's live races stay live: listed again every 3 s while the lobby is in sight.
setInterval(() => {
  if (connection.ready && state.view === 'lobby' && document.visibilityState === 'visible') controller.refreshRooms();
}, 3000);
window.addEventListener('resize', () => render());

// ?link=CODE from another device signs this one in as that player (once: the code is spent,
// so it leaves the address), unless someone already plays here.
const linkCode = params.get('link');
if (linkCode) {
  params.delete('link');
  history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
}
if (linkCode && !connection.name) connection.link(linkCode.toUpperCase());
else if (connection.name) connection.connect();
render();
