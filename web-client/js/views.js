// The page's views, each made with the elements it draws into and the callbacks its
// controls call: the controller's requests, and the page's openProfile(id) and render().
import { BoardView } from './board_view.js';
import { RaceView } from './race_view.js';
import { ReplayView } from './replay_view.js';
import { LobbyView } from './lobby_view.js';
import { ConfirmView, OverlayView } from './overlay_view.js';
import { DailyView } from './daily_view.js';
import { FriendsView } from './friends_view.js';
import { TournamentView } from './tournament_view.js';
import { t } from './i18n.js';

export function makeViews($, controller, page) {
  const board = new BoardView($('board'), { label: t('board.yours'), onCell: (row, col) => controller.slide(row, col) });
  const race = new RaceView({ players: $('room-players'), opponents: $('opponents'), arena: $('arena'),
    ownHead: $('own-head'), leader: $('leader'), results: $('results'), verdict: $('results-verdict'),
    title: $('results-title'), standings: $('standings'), ghostMargins: $('ghost-margins'), rematch: $('rematch'),
    keepWatching: $('keep-watching'), clock: $('clock'), clockValue: $('clock-value') });
  const replay = new ReplayView({ board: $('replay-board'), play: $('replay-play'), step: $('replay-step'),
    title: $('replay-title'), move: $('replay-move'), total: $('replay-total'), score: $('replay-score') });
  const lobby = new LobbyView({ mode: $('mode'), size: $('size'), target: $('target'), rooms: $('rooms'), botRecord: $('bot-record') });
  const overlay = new OverlayView({ overlay: $('overlay'), text: $('overlay-text'), keepGoing: $('keep-going'),
    tryAgain: $('try-again'), share: $('share'), board: $('board') });
  const daily = new DailyView({ day: $('daily-day'), mine: $('daily-mine'), top: $('daily-top'), streak: $('daily-streak') },
    (id) => page.openProfile(id));
  const friends = new FriendsView({ list: $('friends'), incoming: $('friend-requests'), outgoing: $('friend-outgoing'),
    toasts: $('toasts') }, {
    accept: (id) => controller.answerFriend(id, true),
    decline: (id) => controller.answerFriend(id, false),
    remove: (id) => controller.removeFriend(id),
    challenge: (id) => controller.challenge(id, lobby.settings()),
    watch: (id) => controller.watchFriend(id),
    acceptChallenge: (id) => { controller.answerChallenge(id, true); page.render(); },
    declineChallenge: (id) => { controller.answerChallenge(id, false); page.render(); },
  });
  const tournament = new TournamentView({ title: $('tournament-title'), summary: $('tournament-summary'),
    start: $('tournament-start'), players: $('tournament-players'), pointsHead: $('tournament-points-head'),
    bracket: $('tournament-bracket'), matches: $('tournament-matches'), podium: $('tournament-podium'),
    live: $('tournament-live'), liveSection: $('tournament-live-section') },
  { watch: (room) => controller.spectate(room) });
  const confirm = new ConfirmView({ confirm: $('confirm'), text: $('confirm-text'), yes: $('confirm-yes'), no: $('confirm-no') });
  return { board, race, replay, lobby, overlay, daily, friends, tournament, confirm };
}
