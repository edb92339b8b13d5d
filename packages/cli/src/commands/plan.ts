import type { CliIo } from '../io';
import { readRequestInputs } from '../readInput';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import { gpuCommon } from '../libraries';

/** Plans a request against the built-in catalog (no repository state). */
export async function runPlan(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const { request, cluster, catalog } = await readRequestInputs(
    options,
    io.cwd,
  );
  const result = gpuCommon.plan(request, catalog, cluster);
  io.stdout(
    options.json
      ? `${JSON.stringify(gpuCommon.planToJson(result), null, 2)}\n`
      : `${gpuCommon.formatPlanText(result)}\n`,
  );
  return EXIT_OK;
}
