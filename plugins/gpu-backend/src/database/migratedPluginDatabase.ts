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
 * The plugin's database client, migrated unless the backend skips migrations.
 *
 * knex creates its own bookkeeping tables (`knex_migrations`, its lock)
 * without a lock, so replicas starting together on an empty database race on
 * them and all but one fail with "already exists" (seen with two replicas on
 * PostgreSQL). Nor does knex wait on its lock: a replica that finds it taken
 * fails at once with MigrationLocked, and on a loaded machine the other's
 * migration holds it for seconds. So a replica tries again, backing off, for
 * about 20 s in all.
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
  for (let attempt = 1; ; attempt++) {
    try {
      await knex.migrate.latest({ directory });
      return knex;
    } catch (error) {
      if (attempt >= attempts) throw error;
      const backoffMs = Math.min(100 * attempt, 2_000);
      await new Promise(resolve => setTimeout(resolve, backoffMs));
    }
  }
}
