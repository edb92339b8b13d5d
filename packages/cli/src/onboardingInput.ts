/**
 * What the once-per-cluster commands (`import`, `bootstrap`) read and print
 * alike: the cluster (a profile file or a built-in profile's name), where
 * the change goes (a checkout changed in place, or a pull request on a
 * repository), and what became of it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type {
  ChangeSet,
  FsRepoTree,
  Redactor,
} from '@gpu-gitops/plugin-gpu-node';
import type { CliIo } from './io';
import type { CommandOptions } from './options';
import { readClusterFile } from './readInput';
import {
  readRepositoryOptions,
  type RepositoryOptions,
} from './repositoryOptions';
import { UsageError } from './usageError';
import { gpuCommon, gpuNode } from './libraries';

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
async function checkoutDirectory(dir: string, cwd: string): Promise<string> {
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

/** What became of a change in a checkout, as `printOnboarding` says it. */
export type CheckoutOutcome = Pick<
  OnboardingOutput,
  'dryRun' | 'changed' | 'files' | 'diff'
>;

/**
 * A change built on the checkout `--dir` names and written there unless
 * `--dry-run` (then its diff): the `--dir` half of every onboarding command.
 */
export async function changeInCheckout<T extends { changeSet: ChangeSet }>(
  dir: string,
  io: CliIo,
  dryRun: boolean,
  build: (tree: FsRepoTree, root: string) => Promise<T>,
): Promise<{ built: T; outcome: CheckoutOutcome }> {
  const root = await checkoutDirectory(dir, io.cwd);
  const tree = new gpuNode.FsRepoTree(root);
  const built = await build(tree, root);
  const { changeSet } = built;
  if (!dryRun) await gpuNode.writeChangeSet(tree, changeSet);
  return {
    built,
    outcome: {
      dryRun,
      changed: !changeSet.empty,
      files: changeSet.changes.map(c => c.path),
      diff: dryRun ? gpuNode.renderChangeSetDiff(changeSet) : undefined,
    },
  };
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

/** What an onboarding command did, as `--json` prints it. */
export interface OnboardingOutput {
  dryRun: boolean;
  branch?: string;
  commit?: string;
  url?: string;
  changed: boolean;
  files: string[];
  title: string;
  body: string;
  diff?: string;
  [more: string]: unknown;
}

/**
 * The description (`text`), then what became of the change: the diff (a dry
 * run), the branch and its pull request, the files written in the checkout,
 * or that nothing changed (`heldAlready`). With `--json`, `out` itself.
 */
export function printOnboarding(
  io: CliIo,
  redactor: Redactor,
  options: CommandOptions,
  out: OnboardingOutput,
  text: { description: string; heldAlready: string },
): void {
  if (options.json) {
    io.stdout(redactor.redact(`${JSON.stringify(out, null, 2)}\n`));
    return;
  }
  const lines = [text.description];
  if (out.dryRun) lines.push(out.diff ?? '');
  else if (!out.changed) {
    lines.push(
      `nothing ${out.branch ? 'pushed' : 'written'}: ${text.heldAlready}`,
      '',
    );
  } else if (out.branch) {
    lines.push(`branch ${out.branch} (${out.commit})`, `${out.url}`, '');
  } else {
    lines.push(`written: ${out.files.join(', ')}`, '');
  }
  io.stdout(redactor.redact(lines.join('\n')));
}
