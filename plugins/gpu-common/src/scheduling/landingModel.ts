/**
 * A cluster's pools as the scheduler sees their nodes (`PoolNodeShape`),
 * indexed once so that many pods are landed without judging every pool for
 * each: the allocation index lands 100k workloads on 20k pools. A pod can
 * land only on a pool whose nodes may carry each label value its
 * `nodeSelector` asks for and that advertises each GPU resource it asks
 * for, so only the pools of the narrowest such set are judged (by
 * `landingPools`, the one rule).
 */
import { landingPools, type Landing } from './landingPools';
import type { PoolNodeShape } from './nodeShape';
import type { PodScheduling } from './podScheduling';

/**
 * The pools' node shapes, and their indexes.
 *
 * @public
 */
export interface LandingModel {
  shapes: readonly PoolNodeShape[];
  /** label key → value → the shapes whose nodes all carry it. */
  readonly fixedLabels: Map<string, Map<string, PoolNodeShape[]>>;
  /** label key → the shapes whose nodes have no fixed value for it (filled on first use). */
  readonly openLabels: Map<string, PoolNodeShape[]>;
  /** resource name → the shapes whose nodes advertise it. */
  readonly resources: Map<string, PoolNodeShape[]>;
  /** Shapes whose resources are not known: any resource may be there. */
  readonly unknownResources: PoolNodeShape[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The model of `shapes` (built once per cluster, or per index snapshot).
 *
 * @public
 */
export function landingModel(shapes: readonly PoolNodeShape[]): LandingModel {
  const model: LandingModel = {
    shapes,
    fixedLabels: new Map(),
    openLabels: new Map(),
    resources: new Map(),
    unknownResources: [],
  };
  for (const shape of shapes) {
    for (const [key, value] of Object.entries(shape.labels)) {
      let byValue = model.fixedLabels.get(key);
      if (!byValue) model.fixedLabels.set(key, (byValue = new Map()));
      push(byValue, value, shape);
    }
    if (!shape.resources) model.unknownResources.push(shape);
    for (const resource of shape.resources ?? []) {
      push(model.resources, resource.name, shape);
    }
  }
  return model;
}

function openFor(model: LandingModel, key: string): PoolNodeShape[] {
  let open = model.openLabels.get(key);
  if (!open) {
    open = model.shapes.filter(s => s.labels[key] === undefined);
    model.openLabels.set(key, open);
  }
  return open;
}

/** What narrows the pools a pod may land on, and the pools it leaves. */
interface Narrowing {
  /** `nodeSelector k=v` or `resource r`, in `landingPools`' words. */
  blocker: string;
  shapes: PoolNodeShape[];
}

function narrowings(model: LandingModel, pod: PodScheduling): Narrowing[] {
  const bySelector = Object.entries(pod.nodeSelector).map(([key, value]) => ({
    blocker: `nodeSelector ${key}=${value}`,
    shapes: [
      ...(model.fixedLabels.get(key)?.get(value) ?? []),
      ...openFor(model, key),
    ],
  }));
  const byResource = Object.entries(pod.gpuResources)
    .filter(([, amount]) => amount > 0)
    .map(([name]) => ({
      blocker: `resource ${name}`,
      shapes: [
        ...(model.resources.get(name) ?? []),
        ...model.unknownResources,
      ],
    }));
  return [...bySelector, ...byResource];
}

/**
 * Where the pod can land among the model's pools, as `landingPools` says;
 * `refused` holds the pools that were judged (those the narrowest selector
 * or resource leaves), or, when it leaves none, that selector or resource
 * as the one refusal, with no pool.
 *
 * @public
 */
export function landOn(model: LandingModel, pod: PodScheduling): Landing {
  const narrowest = narrowings(model, pod).reduce<Narrowing | undefined>(
    (best, n) => (best && best.shapes.length <= n.shapes.length ? best : n),
    undefined,
  );
  if (narrowest && narrowest.shapes.length === 0) {
    return {
      pools: [],
      refused: [
        {
          pool: '',
          blocker: narrowest.blocker,
          reason: `${narrowest.blocker}: the nodes of no pool ${narrowest.blocker.startsWith('resource') ? 'advertise it' : 'carry that label value'}`,
        },
      ],
    };
  }
  return landingPools(pod, narrowest?.shapes ?? model.shapes);
}
