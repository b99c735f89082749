// The page drawn from the state: which screen shows, the header's boxes and tagline, the room
// bar, and each view (board, race, lobby, friends, daily, tournament, account, overlay) given
// its part of the state. Draws only: what to draw comes from the state, the connection and the
// predictor; the views' clicks go to the callbacks they were made with (app.js).
import { connectionNote, myGame } from './state.js';
import { overlayFor } from './overlay_view.js';
import { renderAccount } from './account_view.js';
import { noticeText } from './notice_view.js';
import { number, t } from './i18n.js';
import { matchWindow } from './rating_words.js';

// The quick-match notice: who it looks for, the window as it stands now (ms: the page's
// clock).
export function matchingText(seeking, now) {
  if (!seeking) return t('matching.text');
  return t('matching.near', { rating: String(seeking.rating), window: String(matchWindow(seeking, now - seeking.since)) });
}

// The best box: the server's `me` for this mode and size, overtaken live by a higher score
// (Fifteen: the fewest moves of a solve, from the server only).
export function bestText(state, game) {
  const known = state.best && state.best.mode === game.mode && state.best.size === game.size ? state.best : null;
  if (game.mode === 'fifteen') return known?.moves != null ? String(known.moves) : '–';
  const value = Math.max(known ? known.score : 0, game.ranked ? game.score : 0);
  return value > 0 ? String(value) : '–';
}

// The header's line of invitation for the screen shown.
export function tagline(state, game) {
  const room = state.room;
  if (state.view === 'play' && state.role === 'spectator' && room) return t('tagline.watching', { code: room.code });
  if (state.view === 'play' && room) {
    return room.mode === 'fifteen' ? t('tagline.raceFifteen') : t('tagline.race', { target: String(room.target) });
  }
  if (state.view === 'play' && game?.practice) return t('tagline.practice');
  if (state.view === 'play' && game) {
    return game.mode === 'fifteen' ? t('tagline.fifteen') : t('tagline.solo', { target: String(game.target ?? 2048) });
  }
  return t('tagline.lobby');
}

export class PageView {
  // $: id → element; views: {board, race, lobby, overlay, daily, friends, tournament}; page:
  // {state, connection, predictor, shownGame(), profileId(), sound, say(text), keptGoing(game),
  // openReplay(id), kick(id)}.
  constructor($, views, page) {
    this.$ = $;
    this.views = views;
    this.page = page;
    this.widening = null;  // while a search waits: the timer redrawing its window each second
  }

  // The quick-match notice's text, redrawn every second while the search waits (its window
  // widens as it does).
  matching(state) {
    const text = () => { this.$('matching-text').textContent = matchingText(state.seeking, Date.now()); };
    text();
    if (state.queued && state.seeking && !this.widening) {
      this.widening = setInterval(() => (state.queued ? text() : this.stopWidening()), 1000);
    } else if (!state.queued) {
      this.stopWidening();
    }
  }
  stopWidening() {
    clearInterval(this.widening);
    this.widening = null;
  }

  // The space a race's boards may fill: the arena's width, and the window's height below the
  // arena's top (at least enough for one small board).
  boardSpace() {
    const arena = this.$('arena');
    const top = arena.getBoundingClientRect().top + window.scrollY;
    return { width: arena.clientWidth || window.innerWidth, height: Math.max(240, window.innerHeight - top - 16) };
  }

  render() {
    const { $, views, page } = this;
    const { state, connection } = page;
    this.screens(state, connection.ready);
    if (state.view === 'tournament') views.tournament.render(state.tournament, state.me, state.live);
    const profileId = page.profileId();
    $('report-form').hidden = state.view !== 'profile' || !state.me || profileId === state.me.id;
    const mine = state.view === 'profile' && state.me && profileId === state.me.id;
    renderAccount({ card: $('account'), register: $('register-form'), registered: $('registered-note'),
      rename: $('rename-form'), linkCode: $('link-code'), sessions: $('sessions') },
    mine ? state.me : null, state.account, location.origin);
    $('sound').textContent = page.sound.on ? t('sound.on') : t('sound.off');
    $('me').textContent = state.me ? state.me.name : '';
    $('me').hidden = !state.me;
    views.lobby.renderBotRecord(state.botRecord);
    views.friends.render(state.friends, state.challenges);
    views.daily.render(state.daily, state.dailyStreak);
    $('notice').hidden = !state.notice;
    $('matching').hidden = !state.queued;
    this.matching(state);
    $('notice').textContent = state.notice ? noticeText(state.notice) : '';
    const game = page.shownGame();
    this.own(state, game);
    this.room(state, connection);
    this.race(state, game);
    if (views.overlay.show(overlayFor(state, game, page.keptGoing))) {
      const text = $('overlay-text').textContent;
      page.sound.play(views.overlay.won ? 'win' : 'lose');
      page.say(game ? `${text} ${t('say.score', { score: game.score })}` : text);
    }
  }

  // Which screen shows; the body says which (and the role) for the style sheet.
  screens(state, ready) {
    const { $ } = this;
    const { view } = state;
    document.body.dataset.view = ready ? view : 'name';
    document.body.dataset.role = state.role ?? 'solo';
    document.body.toggleAttribute('data-racing', view === 'play' && !!state.race && !state.results);  // the phone's layout
    // Offline: what needs the server waits for it; practice is offered meanwhile.
    $('offline').hidden = !this.page.connection.offline;
    $('practice-offline').hidden = !!state.practice;  // practising already
    $('name-screen').hidden = ready || !!state.practice;  // signed out and offline: practice still plays
    $('lobby').hidden = !ready || view !== 'lobby';
    for (const screen of ['play', 'replay', 'profile', 'tournament']) $(screen).hidden = view !== screen;
    $('open-tournament').hidden = !state.tournament;
  }

  // My game's boxes and help (spectators have none).
  own(state, game) {
    const { $, views, page } = this;
    $('tagline').textContent = tagline(state, game);
    views.board.setLabel(t('board.yours'));
    $('board').closest('.main-board').hidden = !game;
    for (const box of document.querySelectorAll('.score-box.own')) box.hidden = !game;
    $('best-box').hidden = !game || !!state.role;  // a solo record: not a race's
    $('practice-mark').hidden = !game?.practice;
    if (game) {
      if (views.board.board === null) views.board.show(game.board, game.mode);  // later: snapshots and moves redraw it
      $('score').textContent = String(game.score);
      $('moves').textContent = String(game.moves);
      // For tests and tools: which game is shown, and how many of its moves await an answer.
      $('board').dataset.game = game.id;
      $('board').dataset.pending = String(page.predictor.id === game.id ? page.predictor.entries.length : 0);
      $('best').textContent = game.practice ? String(page.practiceBest(game) ?? '–') : bestText(state, game);
    }
    const keys = game?.mode === 'fifteen' ? t('help.fifteen') : t('help.keys');
    $('help').textContent = state.role ? keys : `${keys} ${t('help.commands')}`;
    $('help').hidden = !game;
    $('undo').hidden = !!state.role;
    $('play-new-game').hidden = !!state.role;
  }

  // The room bar: code, Ready, the invite link, the racers, my round trip, the emotes.
  room(state, connection) {
    const { $, views, page } = this;
    const room = state.room;
    $('room-bar').hidden = !room;
    if (room) {
      $('room-code').textContent = room.code;
      const me = state.me && room.players.find((p) => p.id === state.me.id);
      // A tournament's match starts by itself and seats whom the tournament paired.
      $('ready').hidden = !me || room.state !== 'waiting' || !!room.tournament;
      $('ready').textContent = me && me.ready ? t('room.notReady') : t('room.ready');
      $('copy-link').hidden = state.role !== 'racer' || !!room.tournament;
      views.race.renderPlayers(room, state.me?.id, page.kick);
    }
    $('rtt').hidden = !room || state.role !== 'racer' || connection.rtt === null;
    $('rtt-value').textContent = connection.rtt === null ? '' : t('room.ms', { ms: number(connection.rtt) });
    $('emote-bar').hidden = !room || state.role !== 'racer';
  }

  // The race's boards, clock, results and countdown.
  race(state, game) {
    const { $, views, page } = this;
    const racing = state.view === 'play';
    views.race.renderBoards(racing ? state.race : null, state.room, state.role === 'racer' && state.me ? state.me.id : null,
      () => this.boardSpace(), { own: game, noteOf: (id) => connectionNote(state, id) });
    views.race.renderClock(state.race && !state.results ? state.race : null);
    if (views.race.renderResults(racing ? state.results : null, { me: state.me?.id, role: state.role }, page.openReplay)
        && state.role === 'racer') {
      page.sound.play(state.results.winner === state.me?.id ? 'win' : 'lose');
      page.say(`${$('results-verdict').textContent} ${$('results-title').textContent}`);
    }
    $('countdown').hidden = state.countdown === null;
    $('countdown').textContent = state.countdown === null ? '' : number(state.countdown);
  }
}
