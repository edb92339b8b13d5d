import {
  formatPlanText,
  plan,
  planToJson,
} from '@gpu-gitops/plugin-gpu-common';
import type { CliIo } from '../io';
import { readRequestInputs } from '../readInput';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';

export const planUsage =
  'gpu-gitops plan --request req.yaml [--cluster cluster.yaml] [--catalog catalog.yaml] [--json]';

/** Plans a request against the built-in catalog (no repository state). */
export async function runPlan(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const { request, cluster, catalog } = await readRequestInputs(
    options,
    io.cwd,
  );
  const result = plan(request, catalog, cluster);
  io.stdout(
    options.json
      ? `${JSON.stringify(planToJson(result), null, 2)}\n`
      : `${formatPlanText(result)}\n`,
  );
  return EXIT_OK;
}
