// Wiring only: the catalog of the page's language first (i18n.js), then the connection's
// messages go through state.js (the model), controller.js (what to send back) and
// feedback.js (what to say and play); the page's controls (controls.js) through the
// controller; and page_view.js draws the state after each.
import { Connection } from './connection.js';
import { ClientStorage } from './storage.js';
import { applyMessage, initialState, myGame, serverGame, showView } from './state.js';
import { Practice } from './practice.js';
import { PracticePlay } from './practice_play.js';
import { ApiScreens } from './api_screens.js';
import { watchUpdates } from './updates.js';
import { Controller } from './controller.js';
import { Predictor } from './prediction.js';
import { bindInput, moveFor } from './input.js';
import { RaceView } from './race_view.js';
import { makeViews } from './views.js';
import { renderLeaderboard } from './leaderboard_view.js';
import { Sound } from './sound.js';
import { Feedback } from './feedback.js';
import { PageView } from './page_view.js';
import { bindAccount, bindFolds, bindLobby, bindPlay, bindSignIn, bindSoundAndEmotes, bindTournament } from './controls.js';
import { loadLanguage, bindLanguage } from './page_words.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const storage = new ClientStorage(localStorage);
const params = new URLSearchParams(location.search);
await loadLanguage(document, storage, params.get('lang'));

const state = initialState();
const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const connection = new Connection(url, storage);
const sound = new Sound(storage);
const feedback = new Feedback($('announce'), sound);
// My own game is predicted (?predict=0 turns it off: the latency benchmark's baseline).
const predictor = new Predictor((msg) => connection.transmit(msg), { enabled: params.get('predict') !== '0' });
const controller = new Controller(state, {
  send: (msg) => connection.send(msg),
  press: (action) => {
    if (practice.playing) return practice.press(action);
    predictor.follow(serverGame(state));  // the game shown may have changed without a message (Leave)
    if (drawOwn(predictor.press(action))) render();
  },
  moveTo: (to) => connection.moveTo(to),
}, { room: params.get('room'), watch: params.get('watch'), tournament: params.get('tournament'), follow: params.get('follow') });

const { board, race, replay, lobby, overlay, daily, friends, tournament, confirm } = makeViews($, controller, {
  openProfile: (id) => screens.openProfile(id), render: () => render() });
const practice = new PracticePlay(state, new Practice(storage), board, () => render());
const screens = new ApiScreens($, { state, controller, replay, show, render: () => render() });

const page = {
  state, connection, controller, storage, sound, lobby, replay, predictor,
  profileId: () => screens.profileId,
  keptGoing: (game) => storage.keptGoing(game.id),
  say: (text) => feedback.say(text),
  kick: (id) => controller.kick(id),
  openReplay: (id) => screens.openReplay(id), openProfile: (id) => screens.openProfile(id),
  render, show, shownGame, clearGain,
  newGame: () => (state.practice ? practice.start(lobby.settings()) : controller.newGame(lobby.settings())),
  // A practice game with the lobby's settings, on its screen; stopped before a game that counts.
  startPractice: () => { practice.start(lobby.settings()); show('play'); },
  stopPractice: () => practice.stop(),
  practiceBest: (game) => practice.best(game),
  // R and Z on a game that counts: ask first.
  confirmNewGame() {
    const game = shownGame();
    if (game && game.state === 'playing' && game.ranked && game.moves > 0) confirm.ask(t('confirm.newGame'), page.newGame);
    else page.newGame();
  },
  confirmUndo() {
    if (shownGame()?.ranked) confirm.ask(t('confirm.undo'), () => controller.undo());
    else controller.undo();
  },
};
const view = new PageView($, { board, race, lobby, overlay, daily, friends, tournament }, page);
function render() { view.render(); }

// A "+N" belongs to the move just made: gone when the view changes or a race starts.
function clearGain() { $('gain').textContent = ''; }

function show(screen) {
  if (screen !== state.view) window.scrollTo(0, 0);  // a new screen starts at its top
  showView(state, screen);
  clearGain();
  render();
}

// The game shown large as the player sees it: the server's, with the moves still on their
// way applied (prediction.js).
function shownGame() {
  const game = myGame(state);
  if (!game || game.practice || !predictor.enabled || predictor.id !== game.id) return game;
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

connection.addEventListener('welcomed', (e) => predictor.setOpen(e.detail));
connection.addEventListener('rtt', () => { if (state.room) render(); });
connection.addEventListener('status', (e) => {
  $('status').textContent = e.detail === 'open' ? '' : t(`status.${e.detail}`);
  render();  // the offline notice
});

connection.addEventListener('message', (e) => {
  const msg = e.detail;
  const shownBefore = myGame(state);
  const viewBefore = state.view;
  const effects = applyMessage(state, msg);
  predictor.follow(serverGame(state));
  const own = predictor.observe(msg, state.me?.id);
  for (const effect of effects) {
    if (effect.kind === 'emote') showEmote(effect.player, effect.emote);
    // My own board's changes come from the predictor (drawOwn) when it predicts.
    if (effect.kind === 'animate' && !(predictor.enabled && ownTarget(effect.target))) animate(effect);
  }
  if (state.view !== viewBefore || msg.type === 'race_start') clearGain();
  controller.onMessage(msg, shownBefore);
  // A new game is drawn afresh; a snapshot of the one shown changes it as drawOwn says.
  if (msg.type === 'game' && (!predictor.enabled || msg.game.id !== shownBefore?.id)) board.show(msg.game.board, msg.game.mode);
  drawOwn(own);
  feedback.onMessage(msg, state);
  if (msg.type === 'race_start' || msg.type === 'race_state') {
    const mine = shownGame();
    if (mine) board.show(mine.board, mine.mode);
  }
  if (msg.type === 'rooms') lobby.renderRooms(state.rooms, (code) => controller.spectate(code));
  if (msg.type === 'welcome') screens.loadStreak();
  if (msg.type === 'leaderboard' && msg.rid !== 'best' && msg.rid !== 'daily') renderLeaderboard($('leaderboard'), msg, page.openReplay, page.openProfile);
  render();
});

// Whether an animation's target is my own board: my solo game, or my game in a race.
function ownTarget(target) { return target === 'solo' || (state.me && target === state.me.id && state.role === 'racer'); }

// A move's slides and pops: on your own board with its sound and "+N", else on a racer's.
function animate({ target, before, message, mode: given }) {
  const mode = given ?? state.race?.games[target]?.mode ?? state.solo?.mode ?? 'classic';
  if (!ownTarget(target)) return race.animate(target, before, message, mode);
  board.animate(before, message, mode);
  sound.play(message.gained > 0 ? 'merge' : 'slide');
  if (message.gained > 0) {
    const gain = $('gain');
    gain.textContent = `+${message.gained}`;
    gain.replaceWith(gain.cloneNode(true));  // restarts the rising animation
  }
  if (!overlay.open) feedback.say(t('say.score', { score: message.score }));  // else the dialog's words stand
}

// An emote beside the sender's board (yours: beside your own), and in words for screen readers.
function showEmote(player, emote) {
  const at = state.me && player === state.me.id ? $('board').closest('.main-board') : race.boxOf(player);
  if (at) RaceView.showEmote(at, emote);
  feedback.emote(state, player, emote);
}

for (const bind of [bindSignIn, bindAccount, bindLobby, bindTournament, bindPlay, bindSoundAndEmotes]) bind($, page);
bindFolds();
bindLanguage(document, storage, $('language'), render);
watchUpdates($('update'), $('update-reload'));
bindInput($('board'), {
  onDirection: (dir, via) => {
    const game = shownGame();
    if (state.view === 'play' && game && !overlay.open) controller.move(moveFor(dir, via, game.mode));
  },
  onCommand: (command) => {
    if (state.view !== 'play' || state.role) return;
    if (command === 'new') page.confirmNewGame();
    if (command === 'undo') page.confirmUndo();
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
