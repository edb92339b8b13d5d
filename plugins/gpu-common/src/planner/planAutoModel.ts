import type { GpuModel, MachineProvider } from '../catalog/types';
import { modelUnavailable } from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError, isGpuInputError } from '../errors';
import { formatUsd } from '../format/money';
import { formatRequestedGiB } from '../format/units';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import { planForModelSteps } from './planForModel';
import type { LeftPoolChange } from './poolOption';
import type { Plan, PlanDecision, RepoState } from './types';
import { compareStrings } from '../text/compareStrings';

/** A model that can serve the request, with its plan. */
interface Candidate {
  plan: Plan;
  model: GpuModel;
}

/** A model that cannot, with the first reason its planning gave. */
interface Rejected {
  model: GpuModel;
  reason: string;
}

/**
 * Model "auto": among the models that can serve the request (a model whose
 * slices would fall below the ask is not one of them), the one that adds
 * the least to the bill, then the cheapest share, then the smallest GPU.
 * Steps, as `planForModelSteps`.
 */
export function* planAutoModelSteps(
  request: GpuRequest,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Generator<void, Plan> {
  const { candidates, rejected } = yield* planEveryModel(
    request,
    index,
    provider,
    cluster,
    repoState,
    holding,
  );
  if (candidates.length === 0) throw noModelFits(request, rejected);
  candidates.sort(cheapestFirst);
  const best = candidates[0].plan;
  best.decisions.model = modelDecision(best, candidates, rejected);
  best.explanation.unshift(modelExplanation(best, candidates));
  return best;
}

/** The plan of each model the cluster can run, or why the model cannot serve the request. */
function* planEveryModel(
  request: GpuRequest,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Generator<void, { candidates: Candidate[]; rejected: Rejected[] }> {
  const candidates: Candidate[] = [];
  const rejected: Rejected[] = [];
  for (const model of index.models) {
    if (modelUnavailable(cluster, index, model)) continue;
    try {
      candidates.push({
        plan: yield* planForModelSteps(
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
  return { candidates, rejected };
}

/** The refusal when no model fits, naming the first four models' reasons. */
function noModelFits(request: GpuRequest, rejected: Rejected[]): GpuInputError {
  const reasons = rejected
    .slice(0, 4)
    .map(r => `${r.model.id} (${r.reason})`)
    .join('; ');
  return new GpuInputError([
    {
      path: 'spec.gpu.model',
      rule: 'no-model-fits',
      message: `no catalog model can serve ${formatRequestedGiB(request.spec.gpu.vramGiB)} with sharing "${request.spec.gpu.sharing}"${rejected.length ? `: ${reasons}` : ''}`,
    },
  ]);
}

/** Known prices first, then what the plan adds to the bill, its attributed cost, the smaller GPU, the model id. */
function cheapestFirst(a: Candidate, b: Candidate): number {
  return (
    Number(b.plan.cost.priceKnown) - Number(a.plan.cost.priceKnown) ||
    a.plan.cost.marginalUsdPerMonth - b.plan.cost.marginalUsdPerMonth ||
    a.plan.cost.usdPerMonth - b.plan.cost.usdPerMonth ||
    a.model.memoryMiB - b.model.memoryMiB ||
    compareStrings(a.model.id, b.model.id)
  );
}

const adds = (p: Plan) =>
  `adds ${formatUsd(p.cost.marginalUsdPerMonth)}/month, ${formatUsd(p.cost.usdPerMonth)}/month attributed`;

/** `Plan.decisions.model`: the chosen model, every fitting one with its cost, every rejected one with its reason. */
function modelDecision(
  best: Plan,
  candidates: Candidate[],
  rejected: Rejected[],
): PlanDecision {
  return {
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
}

/** The explanation's first line: the cheapest model, and the next three with what they would add. */
function modelExplanation(best: Plan, candidates: Candidate[]): string {
  const others = candidates
    .slice(1, 4)
    .map(c => `${c.model.id} ${formatUsd(c.plan.cost.marginalUsdPerMonth)}`)
    .join(', ');
  return `model auto: ${best.pool.gpuModel} is the cheapest of ${candidates.length} fitting model(s): it adds ${formatUsd(best.cost.marginalUsdPerMonth)}/month${others ? ` (next: ${others})` : ''}.`;
}
