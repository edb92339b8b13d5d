/**
 * A pool object read as the shape of its nodes (`nodeShape.ts`).
 */
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { NodeTaint } from '../manifests/tolerations';
import { machineNameLabelsOf } from '../providers/karpenterMachines';
import { nfdMergedLabels, nfdRulesOnGpuNodes } from './nfdRuleLabels';
import type { AdvertisedNodeResource, PoolNodeShape } from './nodeShape';
import { poolGpuDeviceIds } from './poolGpuDeviceIds';

/**
 * The parts of a pool object that decide its nodes: a Karpenter NodePool,
 * or a Cluster API MachineDeployment / NFD NodeFeatureRule read as the
 * NodePool it stands for (gpu-node `machineDeploymentAsNodePool`,
 * `nodeFeatureRuleAsNodePool`: kubelet `node-labels` and registration
 * taints, the rule's labels and taints, as template labels and taints).
 *
 * @public
 */
export interface PoolObjectLike {
  kind: string;
  metadata: { name: string };
  spec?: unknown;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function stringsOf(value: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record(value)).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record) : [];
}

function requirementsOf(value: unknown): NodeSelectorRequirement[] {
  return listOf(value)
    .filter(r => typeof r.key === 'string' && typeof r.operator === 'string')
    .map(r => ({
      key: String(r.key),
      operator: r.operator as NodeSelectorRequirement['operator'],
      ...(Array.isArray(r.values) ? { values: r.values.map(String) } : {}),
    }));
}

function taintsOf(value: unknown): NodeTaint[] {
  return listOf(value)
    .filter(t => typeof t.key === 'string' && typeof t.effect === 'string')
    .map(t => ({
      key: String(t.key),
      effect: String(t.effect),
      ...(typeof t.value === 'string' ? { value: t.value } : {}),
    }));
}

/** Machine label prefixes Cluster API keeps in sync on the Node. */
const SYNCED_LABEL_PREFIXES = [
  'node.cluster.x-k8s.io/',
  'node-restriction.kubernetes.io/',
  'node-role.kubernetes.io/',
];

/** The object among `objects` a reference (`kind`, `name`) names. */
function referenced(objects: readonly unknown[], ref: unknown): unknown {
  const { kind, name } = record(ref);
  return objects.find(
    o => record(o).kind === kind && record(record(o).metadata).name === name,
  );
}

/**
 * kubelet `--node-labels` of a KubeadmConfigTemplate (v1beta2 list or v1beta1
 * map of args): the labels a Cluster API node registers with.
 *
 * @public
 */
export function kubeletNodeLabels(bootstrap: unknown): Record<string, string> {
  const registration = record(
    record(record(record(record(bootstrap).spec).template).spec)
      .joinConfiguration,
  ).nodeRegistration;
  const args = record(registration).kubeletExtraArgs;
  const value = Array.isArray(args)
    ? listOf(args).find(a => a.name === 'node-labels')?.value
    : record(args)['node-labels'];
  if (typeof value !== 'string') return {};
  return Object.fromEntries(
    value
      .split(',')
      .map(pair => pair.trim())
      .filter(pair => pair.includes('='))
      .map(pair => [
        pair.slice(0, pair.indexOf('=')),
        pair.slice(pair.indexOf('=') + 1),
      ]),
  );
}

/**
 * A MachineDeployment or NodeFeatureRule as written (not yet read as a
 * NodePool) turned into the template its nodes get. Cluster API syncs to a
 * Node only the Machine labels under `node.cluster.x-k8s.io/`,
 * `node-restriction.kubernetes.io/` and `node-role.kubernetes.io/`
 * (cluster-api `docs/proposals/20220927-label-sync-between-machine-and-nodes.md`,
 * the book's "Metadata propagation", v1.4+), so the kubelet's
 * `node-labels`, registration taints and those synced labels are what a pod
 * can select; nfd-master sets the first rule's `labels` and `taints`
 * (node-feature-discovery v0.19 `docs/usage/custom-resources.md`).
 */
function asTemplate(
  pool: PoolObjectLike,
  objects: readonly unknown[],
): Record<string, unknown> | undefined {
  const spec = record(pool.spec);
  if (
    pool.kind === 'MachineDeployment' &&
    record(record(spec.template).spec).bootstrap
  ) {
    const machine = record(record(spec.template).spec);
    const bootstrap = referenced(objects, record(machine.bootstrap).configRef);
    const registration = record(
      record(record(record(record(bootstrap).spec).template).spec)
        .joinConfiguration,
    ).nodeRegistration;
    const propagated = Object.fromEntries(
      Object.entries(
        stringsOf(record(record(spec.template).metadata).labels),
      ).filter(([key]) =>
        SYNCED_LABEL_PREFIXES.some(prefix => key.startsWith(prefix)),
      ),
    );
    return {
      metadata: { labels: { ...propagated, ...kubeletNodeLabels(bootstrap) } },
      spec: { taints: record(registration).taints },
    };
  }
  if (pool.kind === 'NodeFeatureRule' && Array.isArray(spec.rules)) {
    const rule = record(spec.rules[0]);
    return { metadata: { labels: rule.labels }, spec: { taints: rule.taints } };
  }
  return undefined;
}

/**
 * A pool's node labels with those the team's own NFD rules among `objects`
 * give its GPUs: nodes that exist before their pods (Cluster API, static)
 * carry them, while Karpenter launches for no such label. A static pool's
 * own labels come from a NodeFeatureRule too, so where both set a label NFD's
 * order decides it; a Cluster API node's kubelet labels are its own.
 */
function withTeamNfdLabels(
  pool: PoolObjectLike,
  own: Record<string, string>,
  objects: readonly unknown[],
): Record<string, string> {
  if (pool.kind === 'NodePool') return own;
  const team = nfdRulesOnGpuNodes(objects, poolGpuDeviceIds(pool));
  if (pool.kind === 'NodeFeatureRule') {
    return nfdMergedLabels([
      ...team,
      { rule: pool.metadata.name, labels: own },
    ]);
  }
  return { ...nfdMergedLabels(team), ...own };
}

/**
 * The labels a NodePool's provider derives from the names of the instance
 * types its requirements list (`In`), each as a requirement `In` the values
 * those types have: a NodeClaim carries the labels of the instance type it
 * launches (kubernetes-sigs/karpenter v1.14.1 `pkg/controllers/provisioning/
 * scheduling/nodeclaim.go`, the instance type's requirements intersected),
 * so a well-known label is open only as far as the allowed types leave it:
 * an EC2 family none of them has is on none of its nodes.
 */
function instanceTypeNameRequirements(
  requirements: readonly NodeSelectorRequirement[],
  nodeClassGroup: string | undefined,
): NodeSelectorRequirement[] {
  const named = requirements.filter(
    r => r.key === WELL_KNOWN_KEYS.instanceType && r.operator === 'In',
  );
  if (named.length === 0) return [];
  const names = (named[0].values ?? []).filter(n =>
    named.every(r => r.values?.includes(n)),
  );
  const labels = names.map(n => machineNameLabelsOf(nodeClassGroup, n));
  if (labels.length === 0) return [];
  return Object.keys(labels[0])
    .filter(key => key !== WELL_KNOWN_KEYS.instanceType)
    .filter(key => labels.every(l => l[key] !== undefined))
    .map(key => ({
      key,
      operator: 'In' as const,
      values: [...new Set(labels.map(l => l[key]))].sort(),
    }));
}

/**
 * The shape of a pool's nodes. A NodePool's nodes carry its template labels
 * and `karpenter.sh/nodepool`, one value of each requirement, any value of
 * the well-known labels it leaves open (those its instance types' names
 * fix, as those names say), its `taints` (`startupTaints` are
 * removed once the node is ready and never keep a pod off). A Cluster API
 * node carries its kubelet labels (and, read as a NodePool, its flavor as
 * `node.kubernetes.io/instance-type`, which the cloud provider sets); a
 * static node carries the rule's labels; both also carry the labels the
 * team's own NFD rules among `objects` give their GPUs (`nfdRuleLabels.ts`). `resources`: what each node advertises,
 * from the device plugin's config (the caller reads it).
 *
 * @public
 */
export function nodeShapeOf(
  pool: PoolObjectLike,
  options: {
    resources?: AdvertisedNodeResource[];
    /** The other built objects (a MachineDeployment's KubeadmConfigTemplate). */
    objects?: readonly unknown[];
  } = {},
): PoolNodeShape {
  const { resources } = options;
  const template =
    asTemplate(pool, options.objects ?? []) ??
    record(record(pool.spec).template);
  const spec = record(template.spec);
  const karpenter = pool.kind === 'NodePool';
  const labels = withTeamNfdLabels(
    pool,
    stringsOf(record(template.metadata).labels),
    options.objects ?? [],
  );
  const requirements = requirementsOf(spec.requirements).filter(
    r =>
      karpenter ||
      (pool.kind === 'MachineDeployment' &&
        r.key === WELL_KNOWN_KEYS.instanceType),
  );
  const { group, name: className } = record(spec.nodeClassRef);
  const nodeClassGroup =
    karpenter && typeof group === 'string' ? group : undefined;
  if (karpenter) {
    requirements.push(
      ...instanceTypeNameRequirements(requirements, nodeClassGroup),
    );
  }
  return {
    pool: pool.metadata.name,
    kind: pool.kind,
    ...(nodeClassGroup ? { nodeClassGroup } : {}),
    ...(karpenter && typeof className === 'string'
      ? { nodeClassName: className }
      : {}),
    labels: karpenter
      ? { ...labels, [WELL_KNOWN_KEYS.karpenterNodePool]: pool.metadata.name }
      : labels,
    requirements,
    launchesWellKnown: karpenter,
    taints: taintsOf(spec.taints),
    ...(resources ? { resources } : {}),
  };
}
