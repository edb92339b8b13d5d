/**
 * A real PostgreSQL server for tests where several backend replicas share
 * one database: Debian's `postgresql` binaries (`.ci/run` installs them),
 * a throw-away cluster in a temp folder, listening on a free loopback port.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the
 * `postgres` user the Debian package creates.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { freePort } from './freePort';

export interface PostgresServer {
  /** `postgresql://postgres@127.0.0.1:<port>` (trust authentication). */
  connectionString: string;
  stop(): Promise<void>;
}

/** Where Debian installs a server version's programs (not on PATH). */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).sort((a, b) => Number(b) - Number(a))
    : [];
  const found = versions
    .map(version => path.join(root, version, 'bin'))
    .find(dir => existsSync(path.join(dir, 'initdb')));
  if (!found) {
    throw new Error(
      "PostgreSQL's server programs are missing (Debian package `postgresql`; `.ci/run` installs it)",
    );
  }
  return found;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-gitops-pg-'));
  const data = path.join(dir, 'data');
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const run = (program: string, args: string[]) => {
    const result = spawnSync(path.join(bin, program), args, {
      encoding: 'utf8',
      timeout: 60_000,
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      cwd: dir,
    });
    if (result.status !== 0) {
      throw new Error(
        `${program} failed: ${result.error?.message ?? `exit ${result.status}`}\n${result.stdout}\n${result.stderr}`,
      );
    }
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  return {
    connectionString: `postgresql://postgres@127.0.0.1:${port}`,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

let databaseCount = 0;

/** A new, empty database on the server; its connection string. */
export async function createDatabase(server: PostgresServer): Promise<string> {
  const name = `gpu_${process.pid}_${++databaseCount}`;
  const admin = knexFactory({
    client: 'pg',
    connection: server.connectionString,
  });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  return `${server.connectionString}/${name}`;
}

/** One test file's PostgreSQL server and the clients its tests opened. */
export interface TestPostgres {
  /** A new, empty database; its connection string. */
  newDatabase(): Promise<string>;
  /** A client of its own on `connection` (one per backend replica), closed after the file's tests. */
  client(connection: string): Knex;
}

/**
 * Starts a server before a test file's tests and, after them, closes every
 * client they opened and stops it. Call at the top of the file.
 */
export function usePostgresServer(): TestPostgres {
  let server: PostgresServer | undefined;
  const clients: Knex[] = [];
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map(client => client.destroy()));
    await server?.stop();
  });
  return {
    newDatabase() {
      if (!server) throw new Error('the PostgreSQL server has not started');
      return createDatabase(server);
    },
    client(connection) {
      const knex = knexFactory({ client: 'pg', connection });
      clients.push(knex);
      return knex;
    },
  };
}
