// A tilerace bot on node's built-in WebSocket (node 22; node 20 with --experimental-websocket).
//
// It signs in with its API token, accepts every challenge (or challenges a player), plays quick
// match in the bot queue when asked, and reconnects when its connection drops. Its player looks
// two moves ahead: of the moves that change the board, the one whose best follow-up (spawns
// left out) scores most, then leaves most cells empty.
//
//   node --experimental-websocket examples/bots/node/greedy_bot.mjs --token tb_... \
//     [--quick-match] [--challenge PLAYER_ID [--target 256]] [--races N]
//
// docs/bots.md walks through it.
import { parseArgs } from 'node:util';

const DIRS = ['up', 'down', 'left', 'right'];

// Slides one row to the left: the new row and the points its merges made.
function slideRow(row) {
  const tiles = row.filter((v) => v);
  const out = [];
  let gained = 0;
  for (let i = 0; i < tiles.length; i++) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1]) {
      out.push(tiles[i] * 2);
      gained += tiles[i] * 2;
      i++;
    } else {
      out.push(tiles[i]);
    }
  }
  while (out.length < row.length) out.push(0);
  return [out, gained];
}

// The board after a move in dir (no spawn), and the points it made.
export function slide(board, dir) {
  const n = board.length;
  const at = (r, c) => {
    if (dir === 'left') return [r, c];
    if (dir === 'right') return [r, n - 1 - c];
    if (dir === 'up') return [c, r];
    return [n - 1 - c, r];
  };
  const after = board.map((row) => row.slice());
  let gained = 0;
  for (let line = 0; line < n; line++) {
    const cells = [];
    for (let i = 0; i < n; i++) cells.push(at(line, i));
    const [moved, g] = slideRow(cells.map(([r, c]) => board[r][c]));
    gained += g;
    cells.forEach(([r, c], i) => { after[r][c] = moved[i]; });
  }
  return [after, gained];
}

const same = (a, b) => a.every((row, r) => row.every((v, c) => v === b[r][c]));
const empty = (b) => b.flat().filter((v) => v === 0).length;

// The two-ply move for board, or null when no move changes it.
export function choose(board) {
  let best = null;
  let bestKey = null;
  for (const d of DIRS) {
    const [after, gained] = slide(board, d);
    if (same(after, board)) continue;
    let follow = 0;
    for (const e of DIRS) follow = Math.max(follow, slide(after, e)[1]);
    const key = [gained + follow, empty(after)];
    if (!bestKey || key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
      best = d;
      bestKey = key;
    }
  }
  return best;
}

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'ws://127.0.0.1:8080/ws' },
    token: { type: 'string', default: process.env.TILERACE_BOT_TOKEN },
    'quick-match': { type: 'boolean', default: false },
    challenge: { type: 'string' },
    target: { type: 'string', default: '2048' },
    races: { type: 'string', default: '0' },
  },
});
if (!args.token) {
  console.error('--token (or TILERACE_BOT_TOKEN) is required');
  process.exit(2);
}
const wanted = Number(args.races);
let races = 0;
let challenged = false;
const done = () => wanted > 0 && races >= wanted;

function connect(delay) {
  const ws = new WebSocket(args.url);
  let me = null;
  let game = null;  // my race game as last seen
  const send = (m) => ws.send(JSON.stringify(m));
  const challenge = () => send({
    type: 'challenge', player: args.challenge, mode: 'classic', size: 4, target: Number(args.target),
  });
  const move = (g) => {
    game = g;
    if (game.state !== 'playing') return;
    const d = choose(game.board);
    if (d) send({ type: 'move', dir: d });
  };
  ws.onopen = () => { delay = 1000; send({ type: 'hello', bot_token: args.token }); };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case 'welcome':
        me = m.player.id;
        console.error(`signed in as ${m.player.name}`);
        if (args.challenge && !challenged) challenge();
        if (args['quick-match']) send({ type: 'quick_match' });
        break;
      case 'challenge_sent': challenged = true; break;
      case 'error':
        if (m.code === 'bad_token' || m.code === 'banned') {
          console.error(`refused: ${m.message}`);
          process.exit(1);
        }
        // The one challenged is not on yet: ask again shortly.
        if (m.code === 'offline' && !challenged) setTimeout(challenge, 200);
        if (m.code === 'rate_limited' && game) setTimeout(() => move(game), 100);  // that move again
        break;
      case 'challenged': send({ type: 'challenge_accept', id: m.id }); break;
      case 'room': {
        const mine = m.room.players.find((p) => p.id === me);
        if (m.room.state === 'waiting' && mine && !mine.ready) send({ type: 'ready', ready: true });
        break;
      }
      case 'race_start': move(m.games[me]); break;
      case 'moved': move(m); break;
      case 'race_over':
        races++;
        console.error(`race over: ${m.reason}, winner ${m.winner}`);
        if (done()) ws.close(1000);
        else if (args['quick-match']) send({ type: 'leave_room' });
        break;
      case 'left': if (args['quick-match']) send({ type: 'quick_match' }); break;
      default: break;
    }
  };
  ws.onclose = () => {
    if (done()) return;
    console.error(`connection lost; again in ${delay / 1000} s`);
    setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  };
  ws.onerror = () => {};  // onclose follows
}

connect(1000);
