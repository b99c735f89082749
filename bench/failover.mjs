// Failover timing (part of make bench-cluster): RACES two-player races on the node at
// port A, both racers moving at RATE moves/s; at a random moment in the window the node is
// killed (SIGKILL to PID). Every racer then does what a client does: reconnects through the
// "balancer" (here the port B, the next node) with its token, follows a `redirect` (reason
// resume) to the node that adopted its race — trying the balancer again while that answers
// nothing — and sends its next move with the at_move it knows. A race is playable again when
// both its racers have had a move acknowledged after the kill. Prints one JSON object: the
// kill → playable times (ms) of every race, p50 and p99, and checks that every race came back.
// Needs node's --experimental-websocket (Node 20). Talks only to 127.0.0.1.
//
// Usage: node --experimental-websocket bench/failover.mjs PORT_A PORT_B PID [RACES] [RATE]
const [portA, portB, pid, racesArg = '20', rateArg = '5'] = process.argv.slice(2);
const RACES = Number(racesArg), RATE = Number(rateArg);
const DIRS = ['left', 'down', 'right', 'down'];
const DEADLINE_MS = 60000;

// One connection: send, and take the next message of some types (the ones passed over on
// the way are dropped; messages nobody waits for yet are kept until someone does).
function connect(port) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const waiting = [], unread = [];
    let closed = false;
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      const i = waiting.findIndex((w) => w.types.includes(m.type));
      if (i >= 0) waiting.splice(i, 1)[0].resolve(m); else unread.push(m);
    };
    ws.onclose = () => {
      closed = true;
      for (const w of waiting.splice(0)) w.reject(new Error('closed'));
    };
    ws.onerror = () => reject(new Error(`cannot connect to ${port}`));
    const next = (...types) => {
      const i = unread.findIndex((m) => types.includes(m.type));
      if (i >= 0) {
        const m = unread[i];
        unread.splice(0, i + 1);
        return Promise.resolve(m);
      }
      unread.length = 0;
      if (closed) return Promise.reject(new Error('closed'));
      return new Promise((res, rej) => waiting.push({ types, resolve: res, reject: rej }));
    };
    ws.onopen = () => resolve({ ws, send: (m) => ws.send(JSON.stringify(m)), next });
  });
}

async function hello(port, name, token) {
  const c = await connect(port);
  c.send(token ? { type: 'hello', name, token } : { type: 'hello', name });
  const w = await c.next('welcome', 'error');
  if (w.type !== 'welcome') throw new Error(`hello refused: ${w.code}`);
  return { c, welcome: w };
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

class Racer {
  constructor(name) { this.name = name; this.moves = 0; this.stopped = false; }
  async join(code, create) {
    const { c, welcome } = await hello(portA, this.name);
    this.c = c; this.id = welcome.player.id; this.token = welcome.token;
    if (create) {
      c.send({ type: 'create_room', size: 4, time_limit: 600 });
      this.code = (await c.next('room')).room.code;
    } else {
      c.send({ type: 'join_room', code });
      this.code = (await c.next('room')).room.code;
    }
  }
  // Moves at RATE until the connection drops; counts acknowledged moves.
  async play() {
    for (let i = 0; !this.stopped; ++i) {
      this.c.send({ type: 'move', dir: DIRS[i % 4], at_move: this.moves });
      let m;
      try { m = await this.c.next('moved', 'error'); } catch { return; }
      if (m.type === 'moved') this.moves = m.moves;
      else if (m.code === 'stale' || m.code === 'game_over') return;
      await pause(1000 / RATE);
    }
  }
  // After the kill: back through the balancer until the race answers a move; returns when.
  async recover(killedAt) {
    while (Date.now() - killedAt < DEADLINE_MS) {
      try {
        let { c } = await hello(portB, this.name, this.token);
        let m = await Promise.race([c.next('redirect', 'room'), pause(16000).then(() => null)]);
        if (m && m.type === 'redirect') {
          c.ws.close();
          ({ c } = await hello(new URL(m.url).port, this.name, this.token));
          m = await c.next('room');
        }
        if (!m) { c.ws.close(); continue; }
        const state = await c.next('race_state');
        this.moves = state.games[this.id].moves;
        for (let i = 0; ; ++i) {
          c.send({ type: 'move', dir: DIRS[i % 4], at_move: this.moves });
          const r = await c.next('moved', 'error', 'game');
          if (r.type === 'moved') { this.c = c; return Date.now() - killedAt; }
          if (r.type === 'game') this.moves = r.game.moves;  // stale: resynchronised
          if (r.type === 'error' && r.code !== 'stale') throw new Error(r.code);
        }
      } catch {
        await pause(100);  // the redirect named the dead node, or it refused: the balancer again
      }
    }
    return null;
  }
}

const races = [];
for (let r = 0; r < RACES; ++r) {
  const a = new Racer(`fa${r}`), b = new Racer(`fb${r}`);
  await a.join(null, true);
  await b.join(a.code, false);
  a.c.send({ type: 'ready' }); b.c.send({ type: 'ready' });
  await Promise.all([a.c.next('race_start'), b.c.next('race_start')]);
  races.push([a, b]);
}
console.error(`${RACES} races running on port ${portA}`);
const playing = races.flat().map((r) => r.play());
await pause(1000 + Math.random() * 2000);  // a random moment while every race is moving
const killedAt = Date.now();
process.kill(Number(pid), 'SIGKILL');
for (const r of races.flat()) r.stopped = true;
await Promise.all(playing);
console.error(`killed ${pid}; racers coming back through port ${portB}`);
const times = await Promise.all(races.map(async ([a, b]) => {
  const [ta, tb] = await Promise.all([a.recover(killedAt), b.recover(killedAt)]);
  return ta === null || tb === null ? null : Math.max(ta, tb);
}));
for (const r of races.flat()) r.c?.ws.close();
const back = times.filter((t) => t !== null).sort((x, y) => x - y);
const pct = (p) => back.length ? back[Math.min(back.length - 1, Math.ceil((p / 100) * back.length) - 1)] : null;
console.log(JSON.stringify({ races: RACES, recovered: back.length, p50_ms: pct(50), p99_ms: pct(99), times_ms: back }));
process.exit(back.length === RACES ? 0 : 1);
