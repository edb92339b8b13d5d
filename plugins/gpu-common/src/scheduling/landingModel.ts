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
  /** The names of the shapes that are no pool of the product's (`PoolNodeShape.unpooled`). */
  readonly unpooled: ReadonlySet<string>;
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
    unpooled: new Set(shapes.filter(s => s.unpooled).map(s => s.pool)),
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

/**
 * What narrows the pools a pod may land on, and the pools it leaves (in
 * parts, joined only for the narrowest: an index's lists are long).
 */
interface Narrowing {
  /** `nodeSelector k=v` or `resource r`, in `landingPools`' words. */
  blocker: string;
  parts: PoolNodeShape[][];
  size: number;
}

function narrowing(blocker: string, parts: PoolNodeShape[][]): Narrowing {
  return {
    blocker,
    parts,
    size: parts.reduce((n, part) => n + part.length, 0),
  };
}

function narrowings(model: LandingModel, pod: PodScheduling): Narrowing[] {
  const bySelector = Object.entries(pod.nodeSelector).map(([key, value]) =>
    narrowing(`nodeSelector ${key}=${value}`, [
      model.fixedLabels.get(key)?.get(value) ?? [],
      openFor(model, key),
    ]),
  );
  const byResource = Object.entries(pod.gpuResources)
    .filter(([, amount]) => amount > 0)
    .map(([name]) =>
      narrowing(`resource ${name}`, [
        model.resources.get(name) ?? [],
        model.unknownResources,
      ]),
    );
  return [...bySelector, ...byResource];
}

/**
 * Up to this many pools, a pod that lands nowhere is told every pool's
 * reason, as `validate` tells it; an index of thousands tells the reasons
 * of the pools its narrowest selector or resource leaves.
 */
const EVERY_REASON_UP_TO = 100;

/** The one refusal of a selector or resource no pool's nodes offer. */
function offeredByNone(narrowest: Narrowing): Landing {
  const what = narrowest.blocker.startsWith('resource')
    ? 'advertise it'
    : 'carry that label value';
  return {
    pools: [],
    refused: [
      {
        pool: '',
        blocker: narrowest.blocker,
        reason: `${narrowest.blocker}: the nodes of no pool ${what}`,
      },
    ],
  };
}

/**
 * Where the pod can land among the model's pools, as `landingPools` says
 * (only the pools its narrowest selector or resource leaves are judged).
 * When it lands nowhere, `refused` holds every pool's reason in a small
 * model, else those judged, or the selector or resource no pool offers.
 *
 * @public
 */
export function landOn(model: LandingModel, pod: PodScheduling): Landing {
  const narrowest = narrowings(model, pod).reduce<Narrowing | undefined>(
    (best, n) => (best && best.size <= n.size ? best : n),
    undefined,
  );
  if (!narrowest) return landingPools(pod, model.shapes);
  const landing = landingPools(pod, narrowest.parts.flat());
  if (landing.pools.length > 0) return landing;
  if (model.shapes.length <= EVERY_REASON_UP_TO) {
    return landingPools(pod, model.shapes);
  }
  return narrowest.size === 0 ? offeredByNone(narrowest) : landing;
}
