import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import { requireOption, type CommandOptions } from '../options';
import { gpuCommon } from '../libraries';

/** `3g.20gb=1,2g.10gb=2` -> { '3g.20gb': 1, '2g.10gb': 2 }; bad syntax names --profiles. */
export function parseProfileCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of text.split(',')) {
    const match = /^\s*([0-9a-z.+-]+)\s*=\s*(\d{1,3})\s*$/.exec(part);
    if (!match) {
      throw new gpuCommon.GpuInputError([
        {
          path: '--profiles',
          rule: 'format',
          message: `"${part}" is not <profile>=<count>, e.g. 3g.20gb=1`,
        },
      ]);
    }
    counts[match[1]] = (counts[match[1]] ?? 0) + Number(match[2]);
  }
  return counts;
}

/**
 * Does this mix of MIG profiles fit one GPU? The answer is the output (`fits`);
 * the exit code is 0 whenever the question could be answered, 2 when it
 * cannot be asked (an unknown GPU, one without MIG, bad --profiles).
 */
export async function runMigFit(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const gpu = requireOption(options, 'gpu');
  const counts = parseProfileCounts(requireOption(options, 'profiles'));
  const model = gpuCommon.findModel(gpuCommon.builtinCatalog, gpu);
  if (!model) {
    throw new gpuCommon.GpuInputError([
      {
        path: '--gpu',
        rule: 'unknown-model',
        message: `unknown GPU "${gpu}"; known: ${gpuCommon.builtinCatalog.models
          .map(m => m.id)
          .join(', ')}`,
      },
    ]);
  }
  // A GPU without MIG is a wrong --gpu, not a mix that does not fit.
  if (!model.mig) {
    throw new gpuCommon.GpuInputError([
      {
        path: '--gpu',
        rule: 'mig-unsupported',
        message: `${model.id} (${model.displayName}) does not support MIG; GPUs with MIG: ${gpuCommon.builtinCatalog.models
          .filter(m => m.mig)
          .map(m => m.id)
          .join(', ')}`,
      },
    ]);
  }
  const result = gpuCommon.fitMig(model, counts);
  if (options.json) {
    io.stdout(`${JSON.stringify(result)}\n`);
  } else if (result.fits) {
    const where = result.placement
      .map(p => `${p.profile}@${p.start}`)
      .join(', ');
    io.stdout(`fits on ${model.displayName}: ${where}\n`);
  } else {
    io.stdout(`does not fit on ${model.displayName}: ${result.reason}\n`);
  }
  return EXIT_OK;
}
