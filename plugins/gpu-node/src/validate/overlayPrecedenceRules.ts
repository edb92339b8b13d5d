/**
 * `node-overlay-overrides-product-overlay`: a hand-written NodeOverlay that
 * Karpenter applies to the machines of a product pool instead of the
 * product's own overlay, with another capacity. Karpenter takes overlays
 * highest weight first and, at equal weight, the name later in the
 * alphabet, rejecting the other as conflicting (kubernetes-sigs/karpenter
 * v1.14.1, gpu-common `scheduling/nodeOverlays.ts`): it then believes the
 * team's number on the product's nodes, launching more nodes than needed
 * when it is lower, or nodes its pods cannot use when it is higher.
 * `node-overlay-rejected-beside-product-overlay`: the other way round, a
 * hand-written overlay Karpenter rejects only because of the product's.
 */
import type { OverlaidMachine } from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import { isProductPool } from '../repo/productPools';
import { parseCount } from '../repo/yamlObjects';
import { nodeOverlayOf, overlaidPools } from './builtOverlays';
import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { isCompanion } from './foreignNodeOverlayRules';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

/** One contradiction: a resource of a product pool's machines, as planned and as Karpenter believes it. */
interface Overridden {
  pool: string;
  resource: string;
  planned: { value: string; overlay: string };
  believed?: { value: string; overlay: string };
  gpuCounts: number[];
  price?: OverlaidMachine['price'];
}

function weightText(overlay: BuiltObject | undefined): string {
  const weight = overlay ? nodeOverlayOf(overlay).weight : undefined;
  return weight === undefined ? 'no weight (0)' : `weight ${weight}`;
}

/** Why Karpenter takes the winner over the product's overlay. */
function whyWins(winner: BuiltObject, product: BuiltObject | undefined) {
  const a = nodeOverlayOf(winner).weight ?? 0;
  const b = product ? (nodeOverlayOf(product).weight ?? 0) : 0;
  return a > b
    ? `its ${weightText(winner)} outranks the product overlay's ${weightText(product)}`
    : `both have ${weightText(winner)}: Karpenter takes the name later in the alphabet first and rejects the product's overlay as conflicting`;
}

function priceText(price: OverlaidMachine['price']): string {
  if (!price) return '';
  const what =
    price.field === 'price'
      ? `at ${price.value} an hour`
      : `adjusted by ${price.value}`;
  return `, and prices them ${what} (NodeOverlay ${price.overlay})`;
}

function effect(planned: string, believed: string): string {
  return (parseCount(believed) ?? 0) < (parseCount(planned) ?? 0)
    ? 'Karpenter launches more nodes than the pods need, and none for a pod asking more than it believes'
    : 'Karpenter launches nodes for pods that cannot fit on them, and they stay Pending';
}

/** The product pools' resources whose capacity Karpenter believes other than the product's overlays say, grouped by GPU count. */
function overridden(
  product: OverlaidMachine[],
  all: OverlaidMachine[],
  companions: Set<string>,
): Overridden[] {
  const byKey = new Map<string, Overridden>();
  product.forEach((planned, i) => {
    const actual = all[i];
    for (const [resource, value] of Object.entries(planned.capacity)) {
      const believed = actual.capacity[resource];
      if (
        (believed && parseCount(believed.value) === parseCount(value.value)) ||
        (believed && companions.has(believed.overlay))
      ) {
        continue;
      }
      const key = [planned.pool, resource, value.overlay, believed?.overlay]
        .map(String)
        .join(' ');
      const found = byKey.get(key) ?? {
        pool: planned.pool,
        resource,
        planned: value,
        ...(believed ? { believed } : {}),
        gpuCounts: [],
        ...(actual.price && !companions.has(actual.price.overlay)
          ? { price: actual.price }
          : {}),
      };
      found.gpuCounts = [
        ...new Set([...found.gpuCounts, planned.machine.gpusPerNode]),
      ].sort((a, b) => a - b);
      byKey.set(key, found);
    }
  });
  return [...byKey.values()];
}

/**
 * The hand-written overlays Karpenter rejects only because the product's
 * overlays are there: of the same weight, setting one of their resources,
 * taken first (their names sort later). Karpenter then applies such an
 * overlay to no machine at all, the team's own pools' included.
 */
function reportRejected(
  handWritten: readonly BuiltObject[],
  companions: readonly BuiltObject[],
  conflicting: readonly string[],
  pools: readonly BuiltPool[],
  report: (at: BuiltObject, message: string) => void,
): void {
  const alone = overlaidPools(handWritten, pools).conflicting;
  for (const overlay of handWritten) {
    const name = overlay.metadata.name;
    if (!conflicting.includes(name) || alone.includes(name)) continue;
    const own = nodeOverlayOf(overlay);
    const resources = Object.keys(own.capacity ?? {});
    const rivals = companions
      .map(nodeOverlayOf)
      .filter(
        c =>
          (c.weight ?? 0) === (own.weight ?? 0) &&
          Object.keys(c.capacity ?? {}).some(r => resources.includes(r)),
      )
      .map(c => c.name);
    report(
      overlay,
      `Karpenter rejects this hand-written overlay as conflicting (ValidationSucceeded=False) with the product's NodeOverlay ${rivals.join(', ') || '(one of them)'}: ${weightText(overlay)} like it, setting ${resources.join(', ') || 'the same price'} too, and taken first because its name sorts later; Karpenter applies this overlay to no machine at all, your own pools' included. Leave the product's pools out of it (karpenter.sh/nodepool NotIn [...]) or give it a weight`,
    );
  }
}

/** Reports each hand-written overlay Karpenter applies over the product's (see the file comment). */
export function checkProductOverlayPrecedence(
  roots: readonly BuiltRoot[],
  pools: readonly BuiltPool[],
  source: SourceTree,
  findings: Finding[],
): void {
  for (const root of roots) {
    const overlays = root.objects.filter(o => o.kind === 'NodeOverlay');
    const rootPools = pools.filter(p => p.root === root);
    const productNames = new Set(
      rootPools.filter(p => isProductPool(p.object)).map(p => p.name),
    );
    const companions = overlays.filter(o => isCompanion(o, productNames));
    if (companions.length === overlays.length || companions.length === 0) {
      continue;
    }
    const product = overlaidPools(companions, rootPools).machines;
    const outcome = overlaidPools(overlays, rootPools);
    const all = outcome.machines;
    reportRejected(
      overlays.filter(o => !companions.includes(o)),
      companions,
      outcome.conflicting,
      rootPools,
      (at, message) =>
        findings.push({
          file: sourceFileOf(source, root, at),
          object: `NodeOverlay/${at.metadata.name}`,
          rule: 'node-overlay-rejected-beside-product-overlay',
          message,
        }),
    );
    const inProductPool = (_: OverlaidMachine, i: number) =>
      productNames.has(product[i].pool);
    const named = (name: string) =>
      overlays.find(o => o.metadata.name === name);
    for (const o of overridden(
      product.filter(inProductPool),
      all.filter(inProductPool),
      new Set(companions.map(c => c.metadata.name)),
    )) {
      const nodes = `the ${o.gpuCounts.join('/')}-GPU nodes of pool ${o.pool}`;
      const winner = o.believed ? named(o.believed.overlay) : undefined;
      const productOverlay = named(o.planned.overlay);
      const at = winner ?? productOverlay!;
      findings.push({
        file: sourceFileOf(source, root, at),
        object: `NodeOverlay/${at.metadata.name}`,
        rule: 'node-overlay-overrides-product-overlay',
        message:
          winner && o.believed
            ? `Karpenter applies this hand-written overlay to ${nodes} instead of the product's NodeOverlay ${o.planned.overlay} (${whyWins(winner, productOverlay)}): it believes ${o.resource}: ${o.believed.value} per node there, where the product's overlay says ${o.planned.value}${priceText(o.price)}; ${effect(o.planned.value, o.believed.value)}. Leave the pool out (karpenter.sh/nodepool NotIn [${o.pool}]) or give this overlay a lower weight than the product's`
            : `Karpenter rejects this overlay as conflicting with a hand-written one of the same weight and applies no ${o.resource} to ${nodes}, where this overlay says ${o.planned.value}; it launches no node for pods asking for it. Give the hand-written overlay another weight, or leave the pool out of it`,
      });
    }
  }
}
