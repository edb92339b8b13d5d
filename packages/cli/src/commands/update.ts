import type { CliIo } from '../io';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import { readCatalogFile, readClusterLookup } from '../readInput';
import { readRepositoryOptions } from '../repositoryOptions';
import { gpuNode } from '../libraries';

/**
 * Brings every open GPU pull request of the repository up to date with its
 * base: what the gpu backend does on a schedule, by hand (e.g. in the GitOps
 * repository's CI on every push to main). Exit 1 when one could not be updated.
 */
export async function runUpdate(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const target = readRepositoryOptions(options, io);
  const clusterFor = await readClusterLookup(
    options.cluster as string | undefined,
    io.cwd,
  );
  const catalog = await readCatalogFile(options.catalog as string, io.cwd);
  const updates = await gpuNode.updateOpenPullRequests({
    ...target,
    clusterFor,
    catalogFor: () => catalog,
  });
  const { redactor } = target;
  if (options.json) {
    io.stdout(redactor.redact(`${JSON.stringify({ updates }, null, 2)}\n`));
  } else if (updates.length === 0) {
    io.stdout('no GPU pull request branches\n');
  } else {
    for (const u of updates) {
      io.stdout(
        redactor.redact(
          `${u.branch}: ${u.outcome}${u.detail ? ` — ${u.detail}` : ''}${u.url ? ` ${u.url}` : ''}\n`,
        ),
      );
    }
  }
  return updates.some(u => u.outcome === 'failed' || u.outcome === 'refused')
    ? EXIT_FAILURE
    : EXIT_OK;
}
