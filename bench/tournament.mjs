// Tournament overhead (make bench-tournament): a 64-player single elimination and a 32-player
// Swiss of 5 rounds, 1-on-1 and in rooms of four, played by scripted clients on one node started
// here (countdown 0). In every match everyone but the player who joined first resigns at
// race_start, so a race lasts only as long
// as the server takes to start, end and record it. Prints, per event: the time from the host's
// start_tournament to the final snapshot; the time some race was running (the union of every
// race_start → race_over a racer saw); what is left, per round — the tournament's own
// overhead, when no race runs: deciding matches, pairing, opening rooms, the snapshots; and the
// server's resident memory with everyone joined, at the end, and after the players leave. Needs node's
// --experimental-websocket (Node 20). Talks only to 127.0.0.1.
//
// Usage: BUILD=build node --experimental-websocket bench/tournament.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = process.env.BUILD ?? 'build';
const DEADLINE_MS = 120000;

function startServer() {
  const data = mkdtempSync(join(tmpdir(), 'tilerace-bench-'));
  const child = spawn(join(root, build, 'tilerace'), ['--host', '127.0.0.1', '--port', '0', '--data', data,
    '--web-root', join(root, 'web-client'), '--countdown', '0', '--rate', '1000000',
    '--max-connections-per-ip', '0', '--rooms-per-ip', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 10000);
    const onData = (chunk) => {
      log += chunk;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), pid: child.pid,
          stop: async () => {
            child.kill('SIGTERM');
            await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
            rmSync(data, { recursive: true, force: true });
          } });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

// A scripted player: numbered by joining order; resigns in a room with anyone numbered lower.
function player(port, number, numberOf) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const p = { number, ws, id: null, races: [], last: null, replies: new Map() };
    let started = null;
    p.done = new Promise((finish) => { p.finish = finish; });
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', name: `bench${String(number).padStart(3, '0')}` }));
    ws.onerror = () => reject(new Error('cannot connect'));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      const now = performance.now();
      if (m.rid !== undefined && p.replies.has(m.rid)) { p.replies.get(m.rid)(m); p.replies.delete(m.rid); }
      switch (m.type) {
        case 'welcome': p.id = m.player.id; numberOf.set(p.id, number); resolve(p); break;
        case 'race_start': {
          started = now;
          if (Object.keys(m.games).some((id) => numberOf.get(id) < number)) ws.send(JSON.stringify({ type: 'resign' }));
          break;
        }
        case 'race_over': p.races.push({ start: started, over: now }); break;
        case 'tournament':
          p.last = m.tournament;
          if (m.tournament.state === 'finished') p.finish(now);
          break;
        default: break;
      }
    };
  });
}

// Resolves once the server counts no signed-in connection (its tilerace_players gauge).
async function connectionsGone(port) {
  const until = performance.now() + 10000;
  while (performance.now() < until) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    if (/^tilerace_players 0$/m.test(text)) return;
  }
  throw new Error('the players did not leave');
}

function ask(p, message) {
  const rid = `r${Math.random()}`;
  return new Promise((resolve) => {
    p.replies.set(rid, resolve);
    p.ws.send(JSON.stringify({ ...message, rid }));
  });
}

async function event(label, count, options) {
  const server = await startServer();
  try {
    const numberOf = new Map();
    const players = [];
    for (let i = 0; i < count; ++i) players.push(await player(server.port, i, numberOf));
    const created = await ask(players[0], { type: 'create_tournament', max_players: count, ...options });
    const code = created.tournament.code;
    for (const p of players.slice(1)) await ask(p, { type: 'join_tournament', code });
    const rssJoined = rssKiB(server.pid);
    const t0 = performance.now();
    await ask(players[0], { type: 'start_tournament' });
    const ends = await Promise.race([Promise.all(players.map((p) => p.done)),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${label}: no end in time`)), DEADLINE_MS))]);
    const total = Math.max(...ends) - t0;
    const rssEnd = rssKiB(server.pid);
    // The time some race ran: the union of the racers' race_start → race_over.
    const spans = players.flatMap((p) => p.races).sort((a, b) => a.start - b.start);
    let racing = 0, from = null, to = null;
    for (const { start, over } of spans) {
      if (to === null || start > to) {
        if (to !== null) racing += to - from;
        from = start;
        to = over;
      } else {
        to = Math.max(to, over);
      }
    }
    if (to !== null) racing += to - from;
    const final = players[0].last;
    const rounds = final.rounds;
    for (const p of players) p.ws.close();
    await connectionsGone(server.port);  // memory after the players left
    const rssLeft = rssKiB(server.pid);
    return { event: label, players: count, rounds, matches: final.matches.filter((m) => m.state === 'done').length,
      total_ms: +total.toFixed(1), racing_ms: +racing.toFixed(1), overhead_per_round_ms: +((total - racing) / rounds).toFixed(2),
      rss_joined_kib: rssJoined, rss_end_kib: rssEnd, rss_after_leaving_kib: rssLeft, winner: final.podium[0] === players[0].id };
  } finally {
    await server.stop();
  }
}

const results = [
  await event('single elimination', 64, { format: 'single_elimination' }),
  await event('Swiss, 5 rounds', 32, { format: 'swiss', rounds: 5 }),
  await event('Swiss, 5 rounds, rooms of 4', 32, { format: 'swiss', rounds: 5, room_size: 4 }),
];
console.log(JSON.stringify(results, null, 1));
console.log('\n| event | players | rounds | matches | start → result | a race running | overhead per round | RSS joined → end → left |\n|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.event} | ${r.players} | ${r.rounds} | ${r.matches} | ${r.total_ms} ms | ${r.racing_ms} ms | ${r.overhead_per_round_ms} ms | ${(r.rss_joined_kib / 1024).toFixed(1)} → ${(r.rss_end_kib / 1024).toFixed(1)} → ${(r.rss_after_leaving_kib / 1024).toFixed(1)} MiB |`);
}
