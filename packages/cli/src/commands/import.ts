import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import {
  changeInCheckout,
  checkoutOrRepository,
  clusterByFileOrName,
  printOnboarding,
  type OnboardingOutput,
} from '../onboardingInput';
import { requireOption, type CommandOptions } from '../options';
import { readCatalogFile } from '../readInput';
import type { Redactor } from '@gpu-gitops/plugin-gpu-node';
import { gpuNode, gpuNodeOnboarding } from '../libraries';

/**
 * Adopts a cluster's existing GPU setup: converts legacy Karpenter objects to
 * v1, adopts the GPU pools, writes request records for their workloads. With
 * `--dir` in a checkout (written unless `--dry-run`), with `--repo` as a pull
 * request (`--dry-run`: the report and the diff, nothing pushed).
 */
export async function runImport(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const { dir, target } = checkoutOrRepository(options, io);
  const cluster = await clusterByFileOrName(
    options,
    io.cwd,
    'the cluster whose folder is imported',
  );
  const owner = requireOption(options, 'owner');
  const catalog = await readCatalogFile(
    options.catalog as string | undefined,
    io.cwd,
  );
  const dryRun = Boolean(options['dry-run']);

  if (!target) {
    const { built: change, outcome } = await changeInCheckout(
      dir,
      io,
      dryRun,
      (tree, root) =>
        gpuNodeOnboarding.buildImportChange({
          tree,
          dir: root,
          cluster,
          catalog,
          owner,
        }),
    );
    const report = gpuNodeOnboarding.renderImportReport({ change });
    print(io, new gpuNode.Redactor(), options, {
      ...outcome,
      title: report.title,
      body: report.body,
      text: report.text,
      report: report.view,
    });
    return EXIT_OK;
  }

  const result = await gpuNodeOnboarding.publishGpuImport({
    ...target,
    cluster,
    catalog,
    owner,
    dryRun,
  });
  print(io, target.redactor, options, {
    dryRun,
    branch: result.branch,
    commit: result.commit,
    url: result.url,
    changed: result.changed,
    files: result.files,
    title: result.title,
    body: result.body,
    text: result.text,
    report: result.report,
    diff: result.diff,
  });
  return EXIT_OK;
}

/** The report, then what became of the import. */
function print(
  io: CliIo,
  redactor: Redactor,
  options: CommandOptions,
  out: OnboardingOutput & { text: string },
): void {
  printOnboarding(io, redactor, options, out, {
    description: out.text,
    heldAlready: 'the repository holds the import already',
  });
}
