import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import {
  changeInCheckout,
  checkoutOrRepository,
  clusterByFileOrName,
  printOnboarding,
  type OnboardingOutput,
} from '../onboardingInput';
import type { CommandOptions } from '../options';
import type { Redactor } from '@gpu-gitops/plugin-gpu-node';
import { gpuNode, gpuNodeOnboarding } from '../libraries';

/**
 * Prepares a cluster for GPU requests, once: the same change as the
 * `gpu:gitops:bootstrap` action (gpu-node `buildBootstrapChangeSet`). With
 * `--dir` in a checkout (written unless `--dry-run`), with `--repo` as a
 * pull request through the same publisher as the action
 * (`publishGpuBootstrap`; `--dry-run`: the description and the diff,
 * nothing pushed). A team without Backstage starts here.
 */
export async function runBootstrap(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const { dir, target } = checkoutOrRepository(options, io);
  const cluster = await clusterByFileOrName(
    options,
    io.cwd,
    'the cluster to prepare for GPU requests',
  );
  const choices = {
    operatorChartVersion:
      (options['operator-chart-version'] as string | undefined) ||
      gpuNodeOnboarding.DEFAULT_OPERATOR_CHART_VERSION,
    binPacking: Boolean(options['bin-packing']),
  };
  const dryRun = Boolean(options['dry-run']);

  if (!target) {
    const { built, outcome } = await changeInCheckout(
      dir,
      io,
      dryRun,
      async tree => ({
        changeSet: await gpuNodeOnboarding.buildBootstrapChangeSet(
          tree,
          cluster,
          choices,
        ),
      }),
    );
    print(io, new gpuNode.Redactor(), options, {
      ...outcome,
      title: gpuNodeOnboarding.bootstrapPullRequestTitle(cluster.name),
      body: gpuNodeOnboarding.renderBootstrapBody(
        cluster.name,
        built.changeSet,
      ),
    });
    return EXIT_OK;
  }

  const result = await gpuNodeOnboarding.publishGpuBootstrap({
    ...target,
    cluster,
    ...choices,
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
    diff: result.diff,
  });
  return EXIT_OK;
}

/** The pull request's title and description, then what became of it. */
function print(
  io: CliIo,
  redactor: Redactor,
  options: CommandOptions,
  out: OnboardingOutput,
): void {
  printOnboarding(io, redactor, options, out, {
    description: `${out.title}\n\n${out.body}\n`,
    heldAlready: 'the cluster is bootstrapped already',
  });
}
