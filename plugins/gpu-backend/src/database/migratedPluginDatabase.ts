/**
 * Brings the plugin's database up to its migrations (`migrations/`), as every
 * store of the plugin does before its first query.
 */
import {
  resolvePackagePath,
  type DatabaseService,
} from '@backstage/backend-plugin-api';
import type { Knex } from 'knex';

/**
 * The PostgreSQL advisory lock the plugin's replicas migrate under (any
 * constant of the plugin's own; advisory locks are per database).
 */
export const MIGRATION_ADVISORY_LOCK = 0x67707567; // "gpug"

/** knex's lock table beside its default `knex_migrations`. */
const KNEX_LOCK_TABLE = 'knex_migrations_lock';

/**
 * The plugin's database client, migrated unless the backend skips migrations.
 *
 * knex 3.3 is not safe for replicas migrating one empty database together
 * (knex/knex#3538, lib/migrations/migrate/table-creator.js): each creates its
 * bookkeeping tables and inserts the lock row after looking for one, without
 * a lock, so two replicas may both insert it. With two lock rows knex's lock
 * (`update … where is_locked = 0` must touch exactly one row) can never be
 * taken again, and every start fails with MigrationLocked for good. So on
 * PostgreSQL the replicas migrate one at a time under an advisory lock held by
 * a transaction of its own (released however the migration ends), and a lock
 * table an earlier race left with several rows is set back to one.
 *
 * Elsewhere (SQLite is one process) knex does not wait on its lock: a replica
 * that finds it taken fails at once, so a replica tries again, backing off,
 * for about 20 s in all; so it does on PostgreSQL after a dropped connection.
 */
export async function migratedPluginDatabase(
  database: DatabaseService,
  attempts = 20,
): Promise<Knex> {
  const knex = await database.getClient();
  if (database.migrations?.skip) return knex;
  const directory = resolvePackagePath(
    '@gpu-gitops/plugin-gpu-backend',
    'migrations',
  );
  const migrate = isPostgres(knex)
    ? () => migrateUnderAdvisoryLock(knex, directory)
    : () => knex.migrate.latest({ directory });
  for (let attempt = 1; ; attempt++) {
    try {
      await migrate();
      return knex;
    } catch (error) {
      if (attempt >= attempts) throw error;
      const backoffMs = Math.min(100 * attempt, 2_000);
      await new Promise(resolve => setTimeout(resolve, backoffMs));
    }
  }
}

/** node-postgres (not CockroachDB, whose knex client shares its dialect but has no advisory locks). */
function isPostgres(knex: Knex): boolean {
  return knex.client.driverName === 'pg';
}

/**
 * Runs the migrations on the pool while a transaction of its own holds the
 * advisory lock (so the pool needs two connections; knex's default is ten).
 */
async function migrateUnderAdvisoryLock(
  knex: Knex,
  directory: string,
): Promise<void> {
  await knex.transaction(async lockHolder => {
    await lockHolder.raw('select pg_advisory_xact_lock(?)', [
      MIGRATION_ADVISORY_LOCK,
    ]);
    if ((await knexLockRows(knex)) > 1) {
      // No replica can hold knex's lock with two rows, and none of ours is
      // migrating while we hold the advisory lock: set it back to one row.
      await knex.migrate.forceFreeMigrationsLock({ directory });
    }
    await knex.migrate.latest({ directory });
  });
}

async function knexLockRows(knex: Knex): Promise<number> {
  if (!(await knex.schema.hasTable(KNEX_LOCK_TABLE))) return 0;
  const [{ rows }] = await knex(KNEX_LOCK_TABLE).count({ rows: '*' });
  return Number(rows);
}
