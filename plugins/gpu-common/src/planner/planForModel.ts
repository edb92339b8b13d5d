import type { GpuModel, InstanceType, MachineProvider } from '../catalog/types';
import {
  machinesForMode,
  modelUnavailable,
  modeUnavailableOnMachines,
  unavailableIssue,
} from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import { scoreInstanceTypes, type InstanceChoice } from './chooseInstanceTypes';
import { choosePool } from './choosePool';
import { decideSharing } from './decideSharing';
import {
  handWrittenConfigFor,
  isMissing,
  missingHandWrittenConfig,
  onHandWrittenKey,
} from './handWrittenConfigs';
import { memoryAlternatives } from './memoryAlternatives';
import { requestedMiB, type ModeDecision } from './modeDecision';
import { planOnOption } from './planOnOption';
import { basePoolName, freeName } from './poolNaming';
import {
  evaluateOption,
  type LeftPoolChange,
  type OptionInputs,
  type PoolOption,
} from './poolOption';
import { isReusable, judgePool } from './reusePool';
import type { Plan, PoolState, RepoState } from './types';

/**
 * The plan of the request on one GPU model: reuse before create. Every pool
 * of the model is judged and priced next to a new pool; `choosePool` ranks
 * them. Steps, one per pool judged (`runSteps`): a 2k-pool cluster's
 * pools are 50 ms and more of judging, which the backend's pull request
 * updater runs in turns of the event loop.
 */
export function* planForModelSteps(
  request: GpuRequest,
  model: GpuModel,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Generator<void, Plan> {
  const gpu = request.spec.gpu;
  // The rule the request form uses to offer the model disabled on this cluster.
  const unavailable = modelUnavailable(cluster, index, model);
  if (unavailable) throw new GpuInputError([unavailableIssue(unavailable)]);
  // A hand-written key a new pool would take decides what its pods ask for.
  const decided = decideSharing(
    request,
    model,
    cluster,
    () =>
      memoryAlternatives(
        request,
        model,
        index,
        provider,
        cluster,
        repoState?.gpuStack,
      ),
    repoState?.gpuStack,
  );
  const ideal = onHandWrittenKey(decided, undefined, cluster, repoState);
  // The rule the form uses to offer the model's mode disabled on this
  // cluster's machines (MIG on vGPUs).
  const onMachines = modeUnavailableOnMachines(
    cluster,
    index,
    model,
    gpu.sharing,
  );
  if (onMachines) throw new GpuInputError([unavailableIssue(onMachines)]);
  const types = machinesForMode(cluster, index, model.id, gpu.sharing);
  const allChoices = scoreInstanceTypes(types, ideal);
  if (allChoices.length === 0) {
    const most = Math.max(...types.map(t => t.gpusPerNode));
    throw new GpuInputError([
      {
        path: 'spec.gpu.gpusPerReplica',
        rule: 'exceeds-gpus-per-node',
        message: `${gpu.gpusPerReplica} GPUs per replica: no ${model.id} machine has that many (at most ${most} per node)`,
      },
    ]);
  }

  // Reuse before create: every pool of this GPU, judged and priced.
  const inputs = {
    request,
    cluster,
    index,
    repoState,
    vramMiB: requestedMiB(gpu.vramGiB),
    holding,
  };
  const { options, rejected } = yield* reusableOptions(model, inputs, types);
  const candidate = newPoolOption(model, ideal, inputs, allChoices);
  const picked = pickPool(options, rejected, cluster, {
    ...candidate,
    idealSuffix: ideal.poolSuffix,
  });
  return planOnOption(request, model, cluster, repoState, picked.chosen, {
    sharing: picked.chosen.decision.decision,
    pool: picked.decision,
    base: candidate.base,
  });
}

/**
 * Every pool of the model, judged and priced: an option where the request
 * may go, or the reason it may not (`choosePool` says both to the reviewer).
 */
function* reusableOptions(
  model: GpuModel,
  inputs: OptionInputs,
  types: InstanceType[],
): Generator<
  void,
  { options: PoolOption[]; rejected: { pool: PoolState; reason: string }[] }
> {
  const { request, cluster, repoState } = inputs;
  const options: PoolOption[] = [];
  const rejected: { pool: PoolState; reason: string }[] = [];
  for (const pool of repoState?.pools ?? []) {
    if (pool.gpuModel !== model.id) continue;
    yield;
    const verdict = judgePool(pool, {
      request,
      model,
      cluster,
      repoState,
      types,
    });
    if (!isReusable(verdict)) {
      rejected.push({ pool, reason: verdict.rejected });
      continue;
    }
    const config = handWrittenConfigFor(
      pool,
      verdict.decision,
      cluster,
      repoState,
    );
    if (isMissing(config)) {
      rejected.push({ pool, reason: config.reason });
      continue;
    }
    const option = evaluateOption(inputs, {
      existing: pool,
      poolName: pool.name,
      decision: verdict.decision,
      choices: verdict.choices,
    });
    if (typeof option === 'string') rejected.push({ pool, reason: option });
    else options.push(option);
  }
  return { options, rejected };
}

/**
 * The new pool the request could get instead: a free name after the model
 * and its slicing, its config where the cluster reads it, judged and
 * priced like a reused one. A request no new pool's node can hold is
 * refused here.
 */
function newPoolOption(
  model: GpuModel,
  ideal: ModeDecision,
  inputs: OptionInputs,
  allChoices: InstanceChoice[],
) {
  const { cluster, repoState } = inputs;
  const base = basePoolName(model.id, ideal.poolSuffix);
  const freeNewName = freeName(
    base,
    n =>
      (repoState?.pools.some(p => p.name === n) ?? false) ||
      (repoState?.otherNodePools?.includes(n) ?? false),
  );
  // A new pool needs its config where the cluster reads it.
  const freshConfig = handWrittenConfigFor(
    undefined,
    ideal,
    cluster,
    repoState,
  );
  const fresh =
    freeNewName === undefined || isMissing(freshConfig)
      ? undefined
      : evaluateOption(inputs, {
          poolName: freeNewName,
          decision: ideal,
          choices: allChoices,
        });
  if (typeof fresh === 'string') {
    throw new GpuInputError([
      { path: 'spec.gpu', rule: 'exceeds-node', message: fresh },
    ]);
  }
  return { base, freeNewName, freshConfig, fresh };
}

/** The pool the request goes to, reused or new (`choosePool`); refused when there is none. */
function pickPool(
  options: PoolOption[],
  rejected: { pool: PoolState; reason: string }[],
  cluster: ClusterProfile,
  candidate: ReturnType<typeof newPoolOption> & { idealSuffix: string },
) {
  const { base, freeNewName, freshConfig, fresh, idealSuffix } = candidate;
  const picked = choosePool({
    options,
    rejected,
    fresh,
    freshProblem: isMissing(freshConfig)
      ? freshConfig.reason
      : freeNewName === undefined
        ? `every candidate name for ${base} is taken by an incompatible pool`
        : undefined,
    idealSuffix,
  });
  if (!picked) {
    if (isMissing(freshConfig)) {
      throw missingHandWrittenConfig(freshConfig, cluster);
    }
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'name-conflict',
        message: `every candidate pool name for ${base} is taken by an incompatible pool`,
      },
    ]);
  }
  return picked;
}
