import type { Plan } from '@gpu-gitops/plugin-gpu-common';
import type { CliIo } from '../io';
import { readRequestInputs, type RequestInputs } from '../readInput';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import {
  readRepositoryOptions,
  type RepositoryOptions,
} from '../repositoryOptions';
import { gpuCommon, gpuNode } from '../libraries';

/**
 * The plan against the repository: the dry run of `pr` (the one path that
 * reads the cluster's pools, their ledgers and what runs there), so `plan`
 * and the pull request never disagree. Nothing is pushed.
 */
async function planOnRepository(
  target: RepositoryOptions,
  inputs: RequestInputs,
): Promise<Plan> {
  try {
    const result = await gpuNode.publishGpuRequest({
      ...target,
      ...inputs,
      dryRun: true,
    });
    return result.plan;
  } catch (error) {
    if (error instanceof Error) {
      error.message = target.redactor.redact(error.message);
    }
    throw error;
  }
}

/**
 * Plans a request: with `--repo`, against the GitOps repository (its pools,
 * ledgers, configs); without, against the catalog alone, as for a cluster
 * that has no GPU pool yet.
 */
export async function runPlan(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  // A URL carrying a token is refused before any file is read, as by `pr`.
  const target = options.repo ? readRepositoryOptions(options, io) : undefined;
  const inputs = await readRequestInputs(options, io.cwd);
  const result = target
    ? await planOnRepository(target, inputs)
    : gpuCommon.plan(inputs.request, inputs.catalog, inputs.cluster);
  io.stdout(
    options.json
      ? `${JSON.stringify(gpuCommon.planToJson(result), null, 2)}\n`
      : `${gpuCommon.formatPlanText(result)}\n`,
  );
  return EXIT_OK;
}
