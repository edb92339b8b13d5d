/**
 * What the once-per-cluster commands (`import`, `bootstrap`) read alike: the
 * cluster (a profile file or a built-in profile's name) and where the change
 * goes (a checkout changed in place, or a pull request on a repository).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { CliIo } from './io';
import type { CommandOptions } from './options';
import { readClusterFile } from './readInput';
import {
  readRepositoryOptions,
  type RepositoryOptions,
} from './repositoryOptions';
import { UsageError } from './usageError';
import { gpuCommon } from './libraries';

/** `--cluster FILE` or `--cluster-name NAME`: exactly one. */
export async function clusterByFileOrName(
  options: CommandOptions,
  cwd: string,
  what: string,
): Promise<ClusterProfile> {
  const file = options.cluster as string | undefined;
  const name = options['cluster-name'] as string | undefined;
  if ((file === undefined) === (name === undefined)) {
    throw new UsageError(
      `give exactly one of --cluster FILE or --cluster-name NAME: ${what}`,
    );
  }
  if (file !== undefined) return readClusterFile(file, cwd);
  // The profile's own schema says what a cluster name may be.
  try {
    return gpuCommon.resolveClusterProfile({ name });
  } catch (error) {
    if (!(error instanceof gpuCommon.GpuInputError)) throw error;
    throw new gpuCommon.GpuInputError(
      error.issues.map(issue => ({ ...issue, path: '--cluster-name' })),
    );
  }
}

/** `--dir`: a checkout of the GitOps repository, changed in place. */
export async function checkoutDirectory(
  dir: string,
  cwd: string,
): Promise<string> {
  const resolved = path.resolve(cwd, dir);
  const stat = await fs.stat(resolved).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new gpuCommon.GpuInputError([
      {
        path: '--dir',
        rule: 'directory',
        message: `${dir} is not a directory: give a checkout of the GitOps repository`,
      },
    ]);
  }
  return resolved;
}

/**
 * `--dir DIR` or `--repo URL`, exactly one. The repository's options are
 * checked first: a URL with a token is refused before any file is read.
 */
export function checkoutOrRepository(
  options: CommandOptions,
  io: CliIo,
):
  | { dir: string; target?: undefined }
  | { dir?: undefined; target: RepositoryOptions } {
  const dir = options.dir as string | undefined;
  if ((dir === undefined) === (options.repo === undefined)) {
    throw new UsageError(
      'give exactly one of --dir DIR (a checkout, changed in place) or --repo URL (a pull request)',
    );
  }
  return dir === undefined
    ? { target: readRepositoryOptions(options, io) }
    : { dir };
}
