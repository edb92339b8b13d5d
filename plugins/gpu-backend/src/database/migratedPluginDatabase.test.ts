import { readdirSync } from 'node:fs';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { usePostgresServer } from '../__testUtils__/postgresServer';
import { migratedPluginDatabase } from './migratedPluginDatabase';

const postgres = usePostgresServer();

const migrationFiles = readdirSync(
  path.resolve(__dirname, '../../migrations'),
).filter(file => file.endsWith('.js'));

async function migrationState(connection: string) {
  const knex = postgres.client(connection);
  const applied = await knex('knex_migrations').pluck('name');
  const lockRows = await knex('knex_migrations_lock').select('is_locked');
  return { applied: applied.sort(), lockRows };
}

describe('migratedPluginDatabase on PostgreSQL', () => {
  it('migrates an empty database once when many replicas start together', async () => {
    const connection = await postgres.newDatabase();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        migratedPluginDatabase(
          mockServices.database({ knex: postgres.client(connection) }),
          1, // no retries: the replicas must not trip over each other at all
        ),
      ),
    );
    expect(await migrationState(connection)).toEqual({
      applied: [...migrationFiles].sort(),
      lockRows: [{ is_locked: 0 }],
    });
  });

  it('sets back a lock table an earlier race left with two rows, which knex could never lock again', async () => {
    const connection = await postgres.newDatabase();
    const earlier = postgres.client(connection);
    await earlier.schema.createTable('knex_migrations_lock', table => {
      table.increments('index').primary();
      table.integer('is_locked');
    });
    await earlier('knex_migrations_lock').insert([
      { is_locked: 0 },
      { is_locked: 0 },
    ]);
    await expect(earlier.migrate.latest({ directory: '.' })).rejects.toThrow(
      'Migration table is already locked',
    );

    await migratedPluginDatabase(
      mockServices.database({ knex: postgres.client(connection) }),
      1,
    );
    expect(await migrationState(connection)).toEqual({
      applied: [...migrationFiles].sort(),
      lockRows: [{ is_locked: 0 }],
    });
  });
});
