// The shared services a cluster needs, for browser tests: a throwaway PostgreSQL (initdb into
// a temporary folder, pg_ctl on a free loopback port; as root it runs as the postgres user)
// and a redis-server on a free loopback port. Each stop() removes what it made.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// Resolves once something accepts connections on port (10 s deadline).
async function listening(port) {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));  // polling interval, bounded above
  }
  throw new Error(`nothing listens on ${port}`);
}

export async function startPostgres() {
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (scripts/install-deps.sh)');
  const bin = `/usr/lib/postgresql/${versions.sort().at(-1)}/bin`;
  const dir = mkdtempSync(join(tmpdir(), 'tilerace-pg-'));
  chmodSync(dir, 0o777);
  const asPostgres = process.getuid() === 0;
  const run = (program, args) => (asPostgres
    ? execFileSync('runuser', ['-u', 'postgres', '--', `${bin}/${program}`, ...args], { stdio: 'ignore' })
    : execFileSync(`${bin}/${program}`, args, { stdio: 'ignore' }));
  const port = await freePort();
  run('initdb', ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  run('pg_ctl', ['-D', `${dir}/data`, '-l', `${dir}/log`, '-w', '-t', '30', '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir}`, 'start']);
  let databases = 0;
  return {
    // A new, empty database; its URL.
    createDatabase() {
      const name = `b${++databases}`;
      run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE ${name}`]);
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      run('pg_ctl', ['-D', `${dir}/data`, '-w', '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
    '--appendonly', 'no'], { stdio: 'ignore' });
  await listening(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on('exit', resolve);
      child.kill('SIGKILL');
    }),
  };
}
