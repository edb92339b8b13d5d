import {
  checkGitOpsRepoUrl,
  gitOpsTimeoutMs,
} from '@gpu-gitops/plugin-gpu-common';
import { updateOpenPullRequests } from '../../publish/updateOpenPullRequests';
import { Redactor } from '../../redact';
import type { CliIo } from '../io';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes';
import { requireOption, type CommandOptions } from '../options';
import { readCatalogFile, readClusterLookup } from '../read-input';
import { FORGE_TOKEN_ENV, forgeKind } from './pr';

export const updateUsage =
  'gpu-gitops update --repo URL [--base main] [--forge local|github|gitlab|gitea] [--api-url URL] ' +
  '[--cluster cluster.yaml] [--catalog catalog.yaml] [--cache-dir DIR] [--timeout SECONDS] [--json]';

/**
 * Brings every open GPU pull request of the repository up to date with its
 * base: what the gpu backend does on a schedule, by hand (e.g. in the GitOps
 * repository's CI on every push to main). Exit 1 when one could not be updated.
 */
export async function runUpdate(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const repoUrl = requireOption(options, 'repo');
  checkGitOpsRepoUrl(repoUrl, '--repo', {
    tokenHint: `set ${Object.values(FORGE_TOKEN_ENV).filter(Boolean).join(', ')} instead`,
  });
  const kind = forgeKind(options.forge as string | undefined);
  const timeoutMs = gitOpsTimeoutMs(
    options.timeout as string | undefined,
    '--timeout',
  );
  const clusterFor = await readClusterLookup(
    options.cluster as string | undefined,
    io.cwd,
  );
  const catalog = await readCatalogFile(options.catalog as string, io.cwd);
  const tokenEnv = FORGE_TOKEN_ENV[kind];
  const token = tokenEnv ? io.env[tokenEnv] || undefined : undefined;
  const redactor = new Redactor(token ? [token] : []);
  const log = (line: string) => {
    if (!options.json) io.stderr(`${redactor.redact(line)}\n`);
  };
  const updates = await updateOpenPullRequests({
    repoUrl,
    baseBranch: (options.base as string) || 'main',
    forge: kind,
    forgeApiBaseUrl: options['api-url'] as string | undefined,
    token,
    redactor,
    cacheDir: options['cache-dir'] as string | undefined,
    timeoutMs,
    clusterFor,
    catalogFor: () => catalog,
    logger: { info: log, warn: log },
  });
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
