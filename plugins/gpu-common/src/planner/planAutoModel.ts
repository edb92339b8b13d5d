import type { GpuModel, MachineProvider } from '../catalog/types';
import { modelUnavailable } from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError, isGpuInputError } from '../errors';
import { formatUsd } from '../format/money';
import { formatRequestedGiB } from '../format/units';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import { planForModel } from './planForModel';
import type { LeftPoolChange } from './poolOption';
import type { Plan, RepoState } from './types';

/**
 * Model "auto": among the models that can serve the request (a model whose
 * slices would fall below the ask is not one of them), the one that adds
 * the least to the bill, then the cheapest share, then the smallest GPU.
 */
export function planAutoModel(
  request: GpuRequest,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Plan {
  const candidates: { plan: Plan; model: GpuModel }[] = [];
  const rejected: { model: GpuModel; reason: string }[] = [];
  for (const model of index.models) {
    if (modelUnavailable(cluster, index, model)) continue;
    try {
      candidates.push({
        plan: planForModel(
          request,
          model,
          index,
          provider,
          cluster,
          repoState,
          holding,
        ),
        model,
      });
    } catch (error) {
      if (!isGpuInputError(error)) throw error;
      rejected.push({
        model,
        reason: error.issues[0]?.message ?? 'does not fit',
      });
    }
  }
  if (candidates.length === 0) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'no-model-fits',
        message: `no catalog model can serve ${formatRequestedGiB(request.spec.gpu.vramGiB)} with sharing "${request.spec.gpu.sharing}"${
          rejected.length
            ? `: ${rejected
                .slice(0, 4)
                .map(r => `${r.model.id} (${r.reason})`)
                .join('; ')}`
            : ''
        }`,
      },
    ]);
  }
  candidates.sort(
    (a, b) =>
      Number(b.plan.cost.priceKnown) - Number(a.plan.cost.priceKnown) ||
      a.plan.cost.marginalUsdPerMonth - b.plan.cost.marginalUsdPerMonth ||
      a.plan.cost.usdPerMonth - b.plan.cost.usdPerMonth ||
      a.model.memoryMiB - b.model.memoryMiB ||
      (a.model.id < b.model.id ? -1 : 1),
  );
  const best = candidates[0].plan;
  const adds = (p: Plan) =>
    `adds ${formatUsd(p.cost.marginalUsdPerMonth)}/month, ${formatUsd(p.cost.usdPerMonth)}/month attributed`;
  best.decisions.model = {
    choice: best.pool.gpuModel,
    reason: `model "auto": of ${candidates.length} model(s) that fit, ${best.pool.gpuModel} ${adds(best)} on pool ${best.pool.name}`,
    considered: [
      ...candidates.map(c => ({
        option: c.model.id,
        chosen: c.plan === best,
        reason: `${adds(c.plan)} on pool ${c.plan.pool.name}`,
      })),
      ...rejected.map(r => ({
        option: r.model.id,
        chosen: false,
        reason: r.reason,
      })),
    ],
  };
  const others = candidates
    .slice(1, 4)
    .map(c => `${c.model.id} ${formatUsd(c.plan.cost.marginalUsdPerMonth)}`)
    .join(', ');
  best.explanation.unshift(
    `model auto: ${best.pool.gpuModel} is the cheapest of ${candidates.length} fitting model(s): it adds ${formatUsd(best.cost.marginalUsdPerMonth)}/month${others ? ` (next: ${others})` : ''}.`,
  );
  return best;
}
