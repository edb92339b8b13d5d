import type { RequestRef } from '@gpu-gitops/plugin-gpu-node';
import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import {
  readCatalogFile,
  readClusterLookup,
  readRequestFile,
} from '../readInput';
import { readRepositoryOptions } from '../repositoryOptions';
import { UsageError } from '../usageError';
import { gpuNode } from '../libraries';

const NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;

/** The request to release: `--name ns/name`, or the metadata of `--request`'s file. */
async function requestToRelease(
  options: CommandOptions,
  cwd: string,
): Promise<RequestRef> {
  const name = options.name as string | undefined;
  const file = options.request as string | undefined;
  if ((name === undefined) === (file === undefined)) {
    throw new UsageError(
      'give exactly one of --request FILE or --name NAMESPACE/NAME',
    );
  }
  if (file !== undefined) {
    const { metadata } = await readRequestFile(file, cwd);
    return { namespace: metadata.namespace, name: metadata.name };
  }
  const match = NAME.exec(name!);
  if (!match) {
    throw new UsageError(
      `--name must be NAMESPACE/NAME (lowercase DNS labels), e.g. ml/chat-assistant; got "${name}"`,
    );
  }
  return { namespace: match[1], name: match[3] };
}

/**
 * Opens (or updates) the pull request that releases a merged request: its
 * workload's GPUs, its share of its pools, and what only it used.
 */
export async function runRelease(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const target = readRepositoryOptions(options, io);
  const { redactor } = target;
  const request = await requestToRelease(options, io.cwd);
  const clusterProfile = await readClusterLookup(
    options.cluster as string | undefined,
    io.cwd,
  );
  const catalog = await readCatalogFile(options.catalog as string, io.cwd);
  const dryRun = Boolean(options['dry-run']);
  const result = await gpuNode.publishGpuRelease({
    ...target,
    request,
    clusterProfile,
    catalog,
    dryRun,
  });
  if (options.json) {
    const summary = {
      branch: result.branch,
      commit: result.commit,
      url: result.url,
      files: result.files,
      dryRun,
      savedUsdPerMonth: result.plan.savedUsdPerMonth,
      pools: result.plan.pools,
      title: result.title,
      body: result.body,
      ...(dryRun ? { diff: result.diff } : {}),
    };
    io.stdout(redactor.redact(`${JSON.stringify(summary, null, 2)}\n`));
  } else if (dryRun) {
    io.stdout(redactor.redact(result.diff ?? ''));
  } else {
    io.stdout(
      redactor.redact(
        [
          result.title,
          `branch ${result.branch} (${result.commit})`,
          result.url,
          ...result.files.map(f => `  ${f}`),
          '',
        ].join('\n'),
      ),
    );
  }
  return EXIT_OK;
}
