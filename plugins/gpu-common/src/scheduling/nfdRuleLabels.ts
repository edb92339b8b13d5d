/**
 * The labels a team's own Node Feature Discovery rules put on a pool's GPU
 * nodes. Cluster API and static nodes run NFD (the GPU Operator deploys it),
 * so a NodeFeatureRule that labels every node with an NVIDIA GPU of some
 * PCI device ids (e.g. `gpu-class: a100`) labels the pool's nodes too when
 * the pool's GPU model has only those ids; a workload selecting that label
 * lands there. nfd-master applies a rule's `labels` when each of its
 * `matchFeatures` matches, and a `pci.device` feature matches when one
 * device satisfies all of its expressions (kubernetes-sigs/node-feature-discovery
 * v0.18.3 `docs/usage/customization-guide.md`, "Rule format"); a label
 * name without a prefix gets `feature.node.kubernetes.io/` (same document,
 * "Label names"). Only rules whose every match is such a PCI match are
 * read: whether another feature (kernel, CPU, a node name) holds on a
 * pool's node cannot be told from the repository, so their labels are
 * never assumed.
 */
import {
  NVIDIA_PCI_VENDOR,
  pciDeviceIdsOf,
} from '../catalog/data/pciDeviceIds';
import type { GpuModel } from '../catalog/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from '../manifests/metadataKeys';

const NFD_DEFAULT_LABEL_PREFIX = 'feature.node.kubernetes.io/';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** An `In` expression's values, or undefined for any other form. */
function inValues(expression: unknown): string[] | undefined {
  const { op, value } = record(expression);
  return op === 'In' && Array.isArray(value) ? value.map(String) : undefined;
}

/** Whether one `matchFeatures` entry holds on a node whose NVIDIA GPUs have `deviceIds`. */
function matchesGpu(feature: unknown, deviceIds: readonly string[]): boolean {
  const { feature: name, matchExpressions, matchName } = record(feature);
  if (name !== 'pci.device' || matchName !== undefined) return false;
  const expressions = record(matchExpressions);
  const { vendor, device, ...others } = expressions;
  if (Object.keys(others).length > 0) return false;
  if (!inValues(vendor)?.includes(NVIDIA_PCI_VENDOR)) return false;
  if (device === undefined) return true;
  const devices = inValues(device);
  return !!devices && deviceIds.every(id => devices.includes(id));
}

/** The static labels of one rule of a NodeFeatureRule, prefixed as NFD does. */
function ruleLabels(rule: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record(rule.labels)).map(([key, value]) => [
      key.includes('/') ? key : `${NFD_DEFAULT_LABEL_PREFIX}${key}`,
      String(value),
    ]),
  );
}

/**
 * A team's NodeFeatureRule (an object; its rules matching the GPUs) and the
 * labels it puts on every node with those GPUs.
 *
 * @public
 */
export interface NfdRuleLabels {
  /** The NodeFeatureRule's `metadata.name`: NFD applies the objects in its alphabetical order. */
  rule: string;
  /** What its rules that match the GPUs label every such node with (NFD's prefix added). */
  labels: Record<string, string>;
}

/** One rule of a team's NodeFeatureRule that labels GPU nodes, with its labels. */
interface TeamGpuRule {
  /** The NodeFeatureRule's `metadata.name`. */
  object: string;
  /** The rule's `name`. */
  name: string;
  labels: Record<string, string>;
}

/**
 * Every rule of the repository's own NodeFeatureRules (`objects`; the
 * product's are skipped) whose every match is an NVIDIA PCI device match
 * holding on nodes whose GPUs have `deviceIds` (empty: any NVIDIA device),
 * in the order NFD reads them. The one walk both readers share.
 */
function* teamGpuRules(
  objects: readonly unknown[],
  deviceIds: readonly string[],
): Generator<TeamGpuRule> {
  for (const object of objects) {
    const { kind, metadata, spec } = record(object);
    const managedBy = record(record(metadata).labels)[
      WELL_KNOWN_KEYS.managedBy
    ];
    if (kind !== 'NodeFeatureRule' || managedBy === MANAGED_BY) continue;
    const rules = record(spec).rules;
    for (const rule of Array.isArray(rules) ? rules.map(record) : []) {
      const features = rule.matchFeatures;
      if (
        rule.matchAny !== undefined ||
        !Array.isArray(features) ||
        features.length === 0 ||
        !features.every(f => matchesGpu(f, deviceIds))
      ) {
        continue;
      }
      yield {
        object: String(record(metadata).name ?? ''),
        name: String(rule.name ?? ''),
        labels: ruleLabels(rule),
      };
    }
  }
}

/**
 * Each of the repository's own NodeFeatureRules (`objects`; the product's
 * are skipped) that labels every node whose NVIDIA GPUs have PCI device ids
 * `deviceIds` (a pool's GPU model's; none known: none), with those labels.
 */
export function nfdRulesOnGpuNodes(
  objects: readonly unknown[],
  deviceIds: readonly string[],
): NfdRuleLabels[] {
  if (deviceIds.length === 0) return [];
  const byObject = new Map<string, Record<string, string>>();
  for (const rule of teamGpuRules(objects, deviceIds)) {
    byObject.set(rule.object, {
      ...byObject.get(rule.object),
      ...rule.labels,
    });
  }
  return [...byObject]
    .filter(([, labels]) => Object.keys(labels).length > 0)
    .map(([rule, labels]) => ({ rule, labels }));
}

/**
 * The labels a node ends with when several NodeFeatureRules set them: NFD
 * processes the objects "in alphabetical order (based on their
 * `.metadata.name`)" (node-feature-discovery v0.18.3
 * `docs/usage/customization-guide.md`), so of two that set one label the
 * one whose name sorts last decides it.
 */
export function nfdMergedLabels(
  rules: readonly NfdRuleLabels[],
): Record<string, string> {
  return Object.assign(
    {},
    ...[...rules]
      .sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0))
      .map(r => r.labels),
  );
}

/** The labels the repository's own NodeFeatureRules put on every node with GPUs of `deviceIds` (`nfdRulesOnGpuNodes`, merged as NFD does). */
export function nfdRuleLabelsOnGpuNodes(
  objects: readonly unknown[],
  deviceIds: readonly string[],
): Record<string, string> {
  return nfdMergedLabels(nfdRulesOnGpuNodes(objects, deviceIds));
}

/**
 * The repository's own NodeFeatureRules (`objects`) that label every node
 * with GPUs of `model`, each with its labels (none when the catalog knows
 * no PCI device id of it).
 *
 * @public
 */
export function nfdRulesOnModelNodes(
  objects: readonly unknown[],
  model: Pick<GpuModel, 'id' | 'mig'>,
): NfdRuleLabels[] {
  return nfdRulesOnGpuNodes(objects, pciDeviceIdsOf(model));
}

/**
 * Each GPU class a team's own NodeFeatureRules (`objects`; the product's are
 * skipped) label: one per rule whose every match is an NVIDIA PCI device
 * (any device ids), with its labels and named `<object>/<rule>`. On a static
 * or Cluster API cluster these nodes may be no pool of the product's: a
 * workload selecting such a class lands on GPU nodes the repository does not
 * describe as a pool.
 *
 * @public
 */
export function nfdGpuNodeClasses(
  objects: readonly unknown[],
): NfdRuleLabels[] {
  return [...teamGpuRules(objects, [])]
    .filter(rule => Object.keys(rule.labels).length > 0)
    .map(rule => ({
      rule: `${rule.object}/${rule.name}`,
      labels: rule.labels,
    }));
}
