// A TCP relay on 127.0.0.1 that puts distance between the browser and the server: each
// direction is delayed by half the round trip, plus up to `jitter` ms at random, the bytes kept
// in order; stall(ms) holds everything that arrives for ms, then lets it all go at once (a
// phone's radio waking up). What the browser tests and bench/latency.mjs play through.
import net from 'node:net';

// targetPort: the server's. Resolves to {port, setRoundTrip(ms, jitter), stall(ms), close()}.
export async function startRelay(targetPort, { roundTrip = 0, jitter = 0 } = {}) {
  let oneWay = roundTrip / 2, spread = jitter, heldUntil = 0;
  const sockets = new Set();
  // One direction: chunks wait in order in a queue that one timer drains (a timer per chunk
  // could fire out of order), each at its time or after the one before it.
  const pipe = (from, to) => {
    const queue = [];  // [{at, chunk}], chunk null: the end
    let timer = null, last = 0;
    const drain = () => {
      timer = null;
      while (queue.length && queue[0].at <= Date.now()) {
        const { chunk } = queue.shift();
        if (to.destroyed) continue;
        if (chunk) to.write(chunk); else to.end();
      }
      if (queue.length) timer = setTimeout(drain, queue[0].at - Date.now());
    };
    const push = (chunk, at) => {
      last = Math.max(at, last);
      queue.push({ at: last, chunk });
      if (!timer) timer = setTimeout(drain, last - Date.now());
    };
    from.on('data', (chunk) => push(chunk, Math.max(Date.now() + oneWay + Math.random() * spread, heldUntil)));
    from.on('end', () => push(null, Date.now()));
    from.on('error', () => to.destroy());
    from.on('close', () => sockets.delete(from));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) { s.setNoDelay(true); sockets.add(s); }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    setRoundTrip(ms, j = 0) { oneWay = ms / 2; spread = j; },
    stall(ms) { heldUntil = Date.now() + ms; },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
