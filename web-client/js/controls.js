// The page's own controls, bound to what they ask for: the sign-in forms, the lobby's cards,
// the room bar, the results, the overlay, the tournament, profile and replay screens, sound
// and emotes. `page` gives what they act on: {state, controller, connection, storage, sound,
// lobby, replay, profileId(), show(view), render(), newGame(), confirmNewGame(), confirmUndo(),
// openProfile(id), clearGain()}.
import { dismissResults, myGame, notify, setEmotesMuted } from './state.js';
import { shareText } from './daily_view.js';
import { EMOTES } from './race_view.js';
import { t } from './i18n.js';

// form's submit (its default prevented) runs act.
function onSubmit($, id, act) {
  $(id).addEventListener('submit', (e) => { e.preventDefault(); act(); });
}
function onClick($, id, act) { $(id).addEventListener('click', act); }

// Copies text to the clipboard and says so in a notice (or shows it where copying is refused).
async function copy(page, kind, key, text) {
  try { await navigator.clipboard.writeText(text); notify(page.state, kind, `${key}.copied`, { text }); }
  catch { notify(page.state, kind, `${key}.shown`, { text }); }
  page.render();
}

// Takes a field's value and empties it (passwords, codes: never left in the page).
function take($, id) { const value = $(id).value; $(id).value = ''; return value; }

export function bindSignIn($, page) {
  const { connection } = page;
  onSubmit($, 'name-form', () => { connection.open($('name-input').value.trim()); page.render(); });
  onSubmit($, 'sign-in-form', () => { connection.signIn($('sign-in-name').value.trim(), take($, 'sign-in-password')); page.render(); });
  onSubmit($, 'link-form', () => { connection.link(take($, 'link-input').trim().toUpperCase()); page.render(); });
}

export function bindAccount($, page) {
  const { controller } = page;
  onSubmit($, 'register-form', () => controller.register(take($, 'register-password')));
  onSubmit($, 'rename-form', () => controller.rename(take($, 'rename-input').trim()));
  onSubmit($, 'friend-form', () => controller.addFriend(take($, 'friend-name').trim()));
  onSubmit($, 'report-form', () => controller.report(page.profileId(), $('report-reason').value, take($, 'report-note').trim()));
  onClick($, 'link-device', () => controller.linkDevice());
  onClick($, 'sign-out-others', () => controller.signOutOthers());
  onClick($, 'sign-out', () => controller.signOut());
  onClick($, 'me', () => { if (page.state.me) page.openProfile(page.state.me.id); });
  onClick($, 'profile-back', () => page.show('lobby'));
}

export function bindLobby($, page) {
  const { controller, lobby } = page;
  onClick($, 'new-game', () => { page.stopPractice(); page.newGame(); page.show('play'); });
  for (const id of ['practice', 'practice-offline']) onClick($, id, () => page.startPractice());
  onClick($, 'create-room', () => controller.createRoom(lobby.settings()));
  onClick($, 'race-bot', () => controller.raceComputer(Number($('target').value), $('bot-strength').value));
  onClick($, 'quick-match', () => controller.quickMatch(lobby.settings()));
  onClick($, 'cancel-match', () => controller.cancelMatch());
  onSubmit($, 'join-form', () => controller.joinRoom($('join-code').value.trim()));
  onClick($, 'refresh-rooms', () => controller.refreshRooms());
  onClick($, 'daily-4', () => { page.stopPractice(); controller.playDaily(4); page.show('play'); });
  onClick($, 'daily-5', () => { page.stopPractice(); controller.playDaily(5); page.show('play'); });
  // The leaderboard's tabs: the one chosen is marked selected (the period applies to scores).
  const selectTab = (tab) => {
    for (const id of ['board-score', 'board-rating', 'board-bots']) $(id).setAttribute('aria-selected', String(id === tab));
    $('board-period').hidden = tab !== 'board-score';
    $('board-provisional-label').hidden = tab === 'board-score';
  };
  const showScores = () => { selectTab('board-score'); controller.showScores(lobby.settings(), $('board-period').value); };
  onClick($, 'board-score', showScores);
  $('board-period').addEventListener('change', showScores);
  // The people's ratings, or the bots' (their own board: docs/bots.md).
  let bots = false;
  const showRatings = () => {
    selectTab(bots ? 'board-bots' : 'board-rating');
    controller.showRatings(lobby.settings(), $('board-provisional').checked, bots);
  };
  onClick($, 'board-rating', () => { bots = false; showRatings(); });
  onClick($, 'board-bots', () => { bots = true; showRatings(); });
  $('board-provisional').addEventListener('change', showRatings);
}

export function bindTournament($, page) {
  const { controller, lobby } = page;
  // A knockout is 1-on-1; Swiss and arena matches may seat up to four, all against all.
  $('tournament-format').addEventListener('change', () => {
    $('tournament-rooms-label').hidden = $('tournament-format').value === 'single_elimination';
  });
  onClick($, 'create-tournament', () => {
    const format = $('tournament-format').value;
    const rooms = format === 'single_elimination' ? {} : { room_size: Number($('tournament-rooms').value) };
    controller.createTournament({ format, ...rooms, ...lobby.settings() });
  });
  onSubmit($, 'tournament-join-form', () => controller.joinTournament($('tournament-code').value.trim()));
  onClick($, 'tournament-follow', () => controller.followTournament($('tournament-code').value.trim()));
  onClick($, 'open-tournament', () => page.show('tournament'));
  onClick($, 'tournament-back', () => page.show('lobby'));
  onClick($, 'tournament-start', () => controller.startTournament());
  onClick($, 'tournament-leave', () => controller.leaveTournament());
  onClick($, 'tournament-copy', () => copy(page, 'invite', 'notice.invite', `${location.origin}/?tournament=${page.state.tournament.code}`));
}

export function bindPlay($, page) {
  const { controller, state, storage } = page;
  onClick($, 'ready', () => controller.toggleReady());
  onClick($, 'rematch', () => { controller.rematch(); page.render(); });
  onClick($, 'keep-watching', () => { dismissResults(state); page.render(); });
  onClick($, 'results-lobby', () => { page.show(controller.leave()); controller.refreshRooms(); });
  onClick($, 'leave', () => { controller.leave(); page.clearGain(); page.render(); });
  onClick($, 'copy-link', () => copy(page, 'invite', 'notice.invite', `${location.origin}/?room=${state.room.code}`));
  onClick($, 'undo', () => page.confirmUndo());
  onClick($, 'play-new-game', () => page.confirmNewGame());
  onClick($, 'back', () => { page.stopPractice(); page.show('lobby'); controller.refreshRooms(); });
  onClick($, 'keep-going', () => { storage.keepGoing(myGame(state)?.id); page.render(); });  // remembered across reloads
  onClick($, 'try-again', () => page.newGame());
  onClick($, 'share', () => copy(page, 'info', 'notice.share', shareText(myGame(state))));
  onClick($, 'replay-back', () => page.show('lobby'));
  onClick($, 'replay-race', () => controller.raceGhost(page.replay.replay));
}

// Sound on or off (browsers start audio on a gesture), and the emotes: a button each, and a
// switch that hides everyone's (kept across reloads).
export function bindSoundAndEmotes($, page) {
  const { sound, storage, state, controller } = page;
  onClick($, 'sound', () => { sound.toggle(); page.render(); });
  for (const gesture of ['pointerdown', 'keydown']) document.addEventListener(gesture, () => sound.resume());
  $('emotes').replaceChildren(...EMOTES.map((name) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: t(`emote.${name}`), className: 'emote' });
    button.dataset.emote = name;
    button.dataset.i18n = `emote.${name}`;  // reworded with the page (page_words.js)
    button.addEventListener('click', () => controller.emote(name));
    return button;
  }));
  setEmotesMuted(state, storage.emotesMuted);
  $('mute-emotes').checked = state.muteEmotes;
  $('mute-emotes').addEventListener('change', () => {
    storage.emotesMuted = $('mute-emotes').checked;
    setEmotesMuted(state, storage.emotesMuted);
  });
}

// The folds (a phone's room menu and emote button): the button opens and closes what it
// folds; a choice made in it, Escape, or a click elsewhere closes it.
export function bindFolds() {
  const folds = [...document.querySelectorAll('.fold')];
  const close = (fold) => {
    fold.classList.remove('open');
    fold.querySelector('.menu-button').setAttribute('aria-expanded', 'false');
  };
  for (const fold of folds) {
    const button = fold.querySelector('.menu-button');
    button.addEventListener('click', () => {
      const open = !fold.classList.contains('open');
      for (const other of folds) close(other);
      fold.classList.toggle('open', open);
      button.setAttribute('aria-expanded', String(open));
    });
    fold.querySelector('.folded').addEventListener('click', (e) => { if (e.target.closest('button')) close(fold); });
  }
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') folds.forEach(close); });
  document.addEventListener('click', (e) => { for (const fold of folds) if (!fold.contains(e.target)) close(fold); });
}
