/**
 * Where a pod can land: the pools whose nodes satisfy its node selector,
 * its required node affinity, its tolerations and its GPU resources, and
 * for every other pool the first reason it cannot, in a reviewer's words.
 */
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { untoleratedTaints } from '../manifests/tolerations';
import { requirementAllows } from '../providers/karpenterRequirements';
import {
  labelAllowance,
  type LabelAllowance,
  type PoolNodeShape,
} from './nodeShape';
import type { PodScheduling } from './podScheduling';

/** @public */
export interface Landing {
  /** Pools whose nodes the pod can land on. */
  pools: string[];
  /** Every other pool, with the first reason its nodes cannot take the pod. */
  refused: LandingRefusal[];
}

/**
 * Why a pool's nodes cannot take a pod: what of the pod blocks (a
 * selector such as `nodeSelector intent=gpu-workloads`, an affinity
 * expression, a taint, a resource) and, in `reason`, that and what the
 * pool's nodes are, e.g.
 * `nodeSelector intent=gpu-workloads: nodes of NodePool gpu-t4 never carry label intent`.
 *
 * @public
 */
export interface LandingRefusal {
  pool: string;
  blocker: string;
  reason: string;
}

interface Refusal {
  blocker: string;
  detail: string;
}

function nodesOf(shape: PoolNodeShape): string {
  return `nodes of ${shape.kind} ${shape.pool}`;
}

function describeAllowance(allowance: LabelAllowance): string {
  if (allowance.kind === 'absent') return 'never carry it';
  if (allowance.kind === 'values') {
    return allowance.values.length === 0
      ? 'can carry no value of it'
      : `carry ${allowance.values.join(' or ')}`;
  }
  return `carry any value but ${allowance.except.join(', ')}`;
}

/** True when some node of the pool can satisfy `expression`. */
function satisfiable(
  allowance: LabelAllowance,
  expression: NodeSelectorRequirement,
): boolean {
  const values = expression.values ?? [];
  const canBe = (value: string) =>
    (allowance.kind === 'values' && allowance.values.includes(value)) ||
    (allowance.kind === 'any' && !allowance.except.includes(value));
  const mayBeAbsent =
    allowance.kind === 'absent' ||
    (allowance.kind === 'any' && allowance.mayBeAbsent);
  switch (expression.operator) {
    case 'In':
      return values.some(canBe);
    case 'NotIn':
      return (
        mayBeAbsent ||
        allowance.kind === 'any' ||
        (allowance.kind === 'values' &&
          allowance.values.some(v => !values.includes(v)))
      );
    case 'Exists':
      return (
        allowance.kind === 'any' ||
        (allowance.kind === 'values' && allowance.values.length > 0)
      );
    case 'DoesNotExist':
      return mayBeAbsent;
    default:
      // Gt / Lt / Gte / Lte: an integer bound, compared as Karpenter does.
      if (allowance.kind === 'any') return true;
      if (allowance.kind === 'absent') return false;
      return allowance.values.some(v => requirementAllows(expression, v));
  }
}

/**
 * Whether some node of the pool can satisfy one expression of a pod's node
 * selection (a `nodeSelector` entry reads as `key In [value]`). The one rule
 * for the model's landing and the workload patch's reading of an existing
 * workload's own selectors (`manifests/existingSelectors.ts`).
 *
 * @public
 */
export function expressionSatisfiable(
  shape: PoolNodeShape,
  expression: NodeSelectorRequirement,
): boolean {
  return satisfiable(labelAllowance(shape, expression.key), expression);
}

function expressionText(e: NodeSelectorRequirement): string {
  return `${e.key} ${e.operator}${e.values?.length ? ` [${e.values.join(', ')}]` : ''}`;
}

function selectorRefusal(
  pod: PodScheduling,
  shape: PoolNodeShape,
): Refusal | undefined {
  for (const [key, value] of Object.entries(pod.nodeSelector)) {
    const allowance = labelAllowance(shape, key);
    if (
      !expressionSatisfiable(shape, { key, operator: 'In', values: [value] })
    ) {
      return {
        blocker: `nodeSelector ${key}=${value}`,
        detail:
          allowance.kind === 'absent'
            ? `${nodesOf(shape)} never carry label ${key}`
            : `${nodesOf(shape)} ${describeAllowance(allowance)}`,
      };
    }
  }
  return undefined;
}

function affinityRefusal(
  pod: PodScheduling,
  shape: PoolNodeShape,
): Refusal | undefined {
  if (pod.affinityTerms.length === 0) return undefined;
  const blocking = pod.affinityTerms.map(term =>
    term.find(e => !expressionSatisfiable(shape, e)),
  );
  if (blocking.some(e => e === undefined)) return undefined;
  const first = blocking[0]!;
  return {
    blocker: `required node affinity ${expressionText(first)}${pod.affinityTerms.length > 1 ? ' (and every other term)' : ''}`,
    detail: `${nodesOf(shape)} ${describeAllowance(labelAllowance(shape, first.key))}`,
  };
}

function taintRefusal(
  pod: PodScheduling,
  shape: PoolNodeShape,
): Refusal | undefined {
  const [taint] = untoleratedTaints(shape.taints, pod.tolerations);
  return taint
    ? {
        blocker: `taint ${taint.key}${taint.value !== undefined ? `=${taint.value}` : ''}:${taint.effect}`,
        detail: `${nodesOf(shape)} carry it, and no toleration of the pod matches`,
      }
    : undefined;
}

function resourceRefusal(
  pod: PodScheduling,
  shape: PoolNodeShape,
): Refusal | undefined {
  if (!shape.resources) return undefined;
  for (const [name, amount] of Object.entries(pod.gpuResources)) {
    if (amount === 0) continue;
    const advertised = shape.resources.find(r => r.name === name);
    if (!advertised) {
      return {
        blocker: `resource ${name}`,
        detail: `${nodesOf(shape)} advertise ${shape.resources.map(r => r.name).join(', ') || 'no GPU resource'}`,
      };
    }
    if (advertised.perNode !== undefined && advertised.perNode < amount) {
      return {
        blocker: `resource ${name}`,
        detail: `a pod asks for ${amount}, ${nodesOf(shape)} advertise ${advertised.perNode} each`,
      };
    }
  }
  return undefined;
}

/** The first refusal: selector, then affinity, taints, resources. */
function refusalOf(
  pod: PodScheduling,
  shape: PoolNodeShape,
): Refusal | undefined {
  return (
    selectorRefusal(pod, shape) ??
    affinityRefusal(pod, shape) ??
    taintRefusal(pod, shape) ??
    resourceRefusal(pod, shape)
  );
}

/**
 * Why the pod cannot land on the pool's nodes (selector, then affinity,
 * taints, resources), or undefined when it can.
 *
 * @public
 */
export function landingRefusal(
  pod: PodScheduling,
  shape: PoolNodeShape,
): string | undefined {
  const refusal = refusalOf(pod, shape);
  return refusal && `${refusal.blocker}: ${refusal.detail}`;
}

/**
 * The pools among `shapes` whose nodes the pod can land on, and why not
 * the others.
 *
 * @public
 */
export function landingPools(
  pod: PodScheduling,
  shapes: readonly PoolNodeShape[],
): Landing {
  const landing: Landing = { pools: [], refused: [] };
  for (const shape of shapes) {
    const refusal = refusalOf(pod, shape);
    if (refusal === undefined) landing.pools.push(shape.pool);
    else {
      landing.refused.push({
        pool: shape.pool,
        blocker: refusal.blocker,
        reason: `${refusal.blocker}: ${refusal.detail}`,
      });
    }
  }
  return landing;
}
