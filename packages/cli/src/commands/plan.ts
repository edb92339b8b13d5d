import {
  formatPlanText,
  plan,
  planToJson,
} from '@gpu-gitops/plugin-gpu-common';
import type { CliIo } from '../io';
import {
  readCatalogFile,
  readRequestCluster,
  readRequestFile,
} from '../read-input';
import { EXIT_OK } from '../exit-codes';
import { requireOption, type CommandOptions } from '../options';

export const planUsage =
  'gpu-gitops plan --request req.yaml [--cluster cluster.yaml] [--catalog catalog.yaml] [--json]';

/** Plans a request against the built-in catalog (no repository state). */
export async function runPlan(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const request = await readRequestFile(
    requireOption(options, 'request'),
    io.cwd,
  );
  const cluster = await readRequestCluster(
    request,
    options.cluster as string,
    io.cwd,
  );
  const catalog = await readCatalogFile(options.catalog as string, io.cwd);
  const result = plan(request, catalog, cluster);
  io.stdout(
    options.json
      ? `${JSON.stringify(planToJson(result), null, 2)}\n`
      : `${formatPlanText(result)}\n`,
  );
  return EXIT_OK;
}
