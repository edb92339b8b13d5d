import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { GitOpsTreeReport } from '@gpu-gitops/plugin-gpu-node';
import type { CliIo } from '../io';
import { EXIT_FINDINGS, EXIT_INVALID_INPUT, EXIT_OK } from '../exitCodes';
import { readCatalogFile, readClusterFile } from '../readInput';
import { UsageError } from '../usageError';
import { gpuCommon, gpuNode } from '../libraries';

/**
 * Lints a GitOps checkout for PR review, running the real kustomize on
 * every root: exit 0 clean, 1 with findings, 2 unusable input or no
 * kustomize (a tree that was not built is never called clean).
 */
export async function runValidate(
  positionals: string[],
  options: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError('validate takes exactly one directory');
  }
  const dir = path.resolve(io.cwd, positionals[0]);
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new gpuCommon.GpuInputError([
      {
        path: 'DIR',
        rule: 'directory',
        message: `${positionals[0]} is not a directory`,
      },
    ]);
  }
  const cluster =
    typeof options.cluster === 'string'
      ? await readClusterFile(options.cluster, io.cwd)
      : undefined;
  // The same catalog `plan` reads: the built-in one, extended by --catalog.
  const catalog = await readCatalogFile(
    options.catalog as string | undefined,
    io.cwd,
  );
  let report: GitOpsTreeReport;
  try {
    report = await gpuNode.validateGitOpsTreeReport(dir, {
      ...(cluster ? { cluster } : {}),
      catalog,
      env: io.env,
      enableHelm: options['enable-helm'] === true,
    });
  } catch (error) {
    if (!gpuNode.isKustomizeNotFoundError(error)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return EXIT_INVALID_INPUT;
  }
  const { findings, notes } = report;
  // What the builds left out goes to stderr: never mistaken for a finding.
  for (const note of notes) io.stderr(`note: ${note}\n`);
  if (options.json) {
    io.stdout(`${JSON.stringify({ findings, notes }, null, 2)}\n`);
  } else if (findings.length === 0) {
    io.stdout(`${positionals[0]}: no findings\n`);
  } else {
    for (const f of findings) {
      io.stdout(`${f.file}: ${f.object}: [${f.rule}] ${f.message}\n`);
    }
    io.stdout(`${findings.length} finding(s)\n`);
  }
  return findings.length === 0 ? EXIT_OK : EXIT_FINDINGS;
}
