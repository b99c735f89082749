// What the player asks for and what the server says, turned into messages to the server:
// each intent is a request; some messages call for follow-ups (after welcome: the invited
// room or race to watch, the lobby's lists; a new or finished game: its best; a race with
// the computer: the record against it), and a redirect moves the connection to the node
// hosting the room. No DOM: send, press and moveTo are given; the model changes through
// state.js.
import { answeredChallenge, dismissResults, leaveRoom, myGame, startWatching } from './state.js';

export class Controller {
  // state: the model; io: {send(msg), press(action), moveTo(url)} — press plays a move, slide
  // or undo on my game (prediction.js) and returns what to draw; pending: {room, watch,
  // tournament, follow} from the page's address (?room=CODE joins that room, ?watch=CODE watches
  // it, ?tournament=CODE joins that tournament, ?follow=CODE follows it, once the server knows us).
  constructor(state, io, pending = {}) {
    this.state = state;
    this.io = io;
    this.pendingRoom = pending.room ?? null;
    this.pendingWatch = pending.watch ?? null;
    this.pendingTournament = pending.tournament ?? null;
    // A tournament to follow once the server knows us (?follow=CODE, or a redirect's node).
    this.pendingFollow = pending.follow ?? null;
  }

  send(msg) { this.io.send(msg); }

  // Follow-ups for msg, which applyMessage has just folded in; shownBefore: the game shown
  // large before it (myGame).
  onMessage(msg, shownBefore) {
    const state = this.state;
    switch (msg.type) {
      case 'redirect':
        // The room is on another node: go there and ask again (a quick match or a resumed
        // race needs no asking: the player is expected there).
        if (msg.reason === 'join_room') this.pendingRoom = msg.code;
        if (msg.reason === 'spectate') this.pendingWatch = msg.code;
        if (msg.reason === 'join_tournament') this.pendingTournament = msg.code;
        if (msg.reason === 'spectate_tournament') this.pendingFollow = msg.code;
        this.io.moveTo(msg.url);
        break;
      case 'welcome':
        if (this.pendingRoom) {
          this.send({ type: 'join_room', code: this.pendingRoom });
          this.pendingRoom = null;
        } else if (this.pendingWatch) {
          this.spectate(this.pendingWatch);
          this.pendingWatch = null;
        } else if (this.pendingTournament) {
          this.joinTournament(this.pendingTournament);
          this.pendingTournament = null;
        } else if (this.pendingFollow) {
          this.followTournament(this.pendingFollow);
          this.pendingFollow = null;
        } else if (state.role === 'spectator' && state.room) {
          // Back after a dropped connection or a restart: the server does not remember
          // spectators across connections, so watch the same room again.
          this.send({ type: 'spectate', code: state.room.code });
        }
        this.send({ type: 'list_rooms' });
        this.send({ type: 'leaderboard', mode: 'classic', size: 4, kind: 'score' });
        this.send({ type: 'bot_record' });
        this.send({ type: 'friends' });
        this.refreshDaily();
        break;
      case 'friend_update':
        this.send({ type: 'friends' });  // the lists as the server now has them
        break;
      case 'game':
        // A new game, or one ended and recorded: the best for its mode and size.
        if (msg.game.daily) {
          if (msg.game.state !== 'playing') this.refreshDaily();  // my attempt on today's board
        } else if (msg.game.id !== shownBefore?.id || msg.game.state !== 'playing') {
          this.send({ type: 'leaderboard', mode: msg.game.mode, size: msg.game.size, kind: 'score', limit: 1, rid: 'best' });
        }
        break;
      case 'moved':
        // My daily attempt ended with this move: it is on today's board now.
        if (msg.state !== 'playing' && state.solo?.id === msg.game && state.solo.daily) this.refreshDaily();
        break;
      case 'race_over':
        if (msg.standings.some((p) => p.player.startsWith('bot-'))) this.send({ type: 'bot_record' });
        break;
      default:
        break;
    }
  }

  // Tournaments: the answers to these open (or close) the tournament's screen (state.js).
  // settings: {format, mode, size, target?, rounds?, duration?} from the lobby.
  createTournament(settings) { this.send({ type: 'create_tournament', ...settings, rid: 'tournament' }); }
  joinTournament(code) { this.send({ type: 'join_tournament', code, rid: 'tournament' }); }
  followTournament(code) { this.send({ type: 'spectate_tournament', code, rid: 'tournament' }); }
  startTournament() { this.send({ type: 'start_tournament' }); }
  leaveTournament() { this.send({ type: 'leave_tournament', rid: 'left-tournament' }); }

  // Today's daily board (4×4) with my rank.
  refreshDaily() { this.send({ type: 'leaderboard', board: 'daily', mode: 'classic', size: 4, limit: 10, rid: 'daily' }); }
  playDaily(size) { this.send({ type: 'new_game', daily: true, mode: 'classic', size }); }
  // settings: {mode, size, target?} from the lobby.
  newGame(settings) { this.send({ type: 'new_game', ...settings }); }
  createRoom(settings) {
    this.send({ type: 'create_room', mode: settings.mode, size: settings.size, target: settings.target, public: true });
  }
  // Races a recorded run as a ghost (a replay as GET /api/replays/<id> gives it): the room
  // takes its mode, size and target; the time limit leaves room for the whole run.
  raceGhost(replay) {
    this.send({ type: 'create_room', ghost: replay.id, time_limit: ghostTimeLimit(replay) });
  }
  // The computer races classic 4×4 only; the target is the lobby's.
  raceComputer(target, strength) {
    this.send({ type: 'create_room', mode: 'classic', size: 4, target, bot: strength, public: true });
  }
  quickMatch(settings) { this.send({ type: 'quick_match', mode: settings.mode, size: settings.size }); }
  cancelMatch() { this.send({ type: 'cancel_match' }); }
  joinRoom(code) { this.send({ type: 'join_room', code }); }
  spectate(code) {
    startWatching(this.state);
    this.send({ type: 'spectate', code });
  }
  refreshRooms() { this.send({ type: 'list_rooms' }); }
  showScores(settings, period) {
    this.send({ type: 'leaderboard', mode: settings.mode, size: settings.size, kind: 'score', period });
  }
  // The ratings of the variant settings' mode and size are rated in; provisional ones too when
  // asked (otherwise only those with a deviation of at most 75); the bots' board when bots.
  showRatings(settings, provisional, bots = false) {
    const board = bots ? { board: 'bots' } : { kind: 'rating' };
    this.send({ type: 'leaderboard', mode: settings.mode, size: settings.size, ...board, provisional });
  }
  toggleReady() {
    const me = this.state.room?.players.find((p) => p.id === this.state.me?.id);
    this.send({ type: 'ready', ready: !(me && me.ready) });
  }
  // Ready for another race in the same room, with the same settings.
  rematch() {
    dismissResults(this.state);
    this.send({ type: 'rematch' });
  }
  // Out of my room (none left after a walkover: nothing to send); returns the view it goes
  // back to.
  leave() {
    if (this.state.room) this.send({ type: this.state.role === 'spectator' ? 'stop_spectating' : 'leave_room' });
    this.state.leaving = this.state.room?.code ?? null;
    leaveRoom(this.state);
    return this.state.view;
  }
  undo() { return this.io.press({ undo: true }); }
  // Moderation: the host sends a racer out of the waiting room; anyone reports a player.
  kick(player) { this.send({ type: 'kick', player }); }
  report(player, reason, note) { this.send({ type: 'report', player, reason, ...(note ? { note } : {}) }); }
  // A direction from the keys or a swipe, already mapped for the game's mode (input.js).
  move(dir) { return myGame(this.state) ? this.io.press({ dir }) : null; }
  slide(row, col) { return myGame(this.state) ? this.io.press({ cell: [row, col] }) : null; }
  emote(name) { this.send({ type: 'emote', emote: name }); }
  // Friends.
  addFriend(name) { this.send({ type: 'friend_request', name }); }
  answerFriend(id, accept) { this.send({ type: accept ? 'friend_accept' : 'friend_decline', player: id }); }
  removeFriend(id) { this.send({ type: 'friend_remove', player: id }); }
  // A challenge with the lobby's settings (a race of the default length).
  challenge(id, settings) {
    this.send({ type: 'challenge', player: id, mode: settings.mode, size: settings.size,
      ...(settings.target ? { target: settings.target } : {}) });
  }
  answerChallenge(id, accept) {
    answeredChallenge(this.state, id);
    this.send({ type: accept ? 'challenge_accept' : 'challenge_decline', id });
  }
  watchFriend(id) {
    startWatching(this.state);
    this.send({ type: 'spectate_player', player: id });
  }
  // Accounts.
  register(password) { this.send({ type: 'register', password }); }
  rename(name) { this.send({ type: 'rename', name }); }
  linkDevice() { this.send({ type: 'link_code' }); }
  listSessions() { this.send({ type: 'sessions' }); }
  signOutOthers() { this.send({ type: 'logout_all' }); }
  signOut() { this.send({ type: 'logout' }); }
}

// The time limit of a race against a recorded run: its length (its last move's time, or three
// moves a second without times) and a minute more, at least five minutes, at most an hour.
export function ghostTimeLimit(replay) {
  const times = replay.times ?? [];
  const length = times.length ? times[times.length - 1] : replay.moves.length * 333;
  return Math.min(3600, Math.max(300, Math.ceil(length / 1000) + 60));
}
