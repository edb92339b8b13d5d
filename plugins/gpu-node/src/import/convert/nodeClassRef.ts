/**
 * A legacy node class reference → v1 `nodeClassRef {group, kind, name}` (all
 * three required from v1.1: "NodeClassRef Requirements",
 * `website/content/en/v1.0/upgrading/v1-migration.md`). The v1 webhook fills
 * a missing group or kind with its own cloud provider's default node class
 * (`NodeClaimTemplate.convertFrom`, `pkg/apis/v1/nodepool_conversion.go`,
 * kubernetes-sigs/karpenter v1.0.0): EC2NodeClass on AWS, AKSNodeClass on
 * Azure (Azure/karpenter-provider-azure, whose v1beta1 examples refer to
 * their AKSNodeClass by name only, `examples/v1beta1/general-purpose.yaml`).
 * The import is not inside a cluster, so it reads the provider where the
 * repository says it, in this order:
 *
 * 1. the reference's own `apiVersion` (its group) and `kind`;
 * 2. the node class of that name the cluster defines (its folder);
 * 3. the cluster profile's provider's node class;
 *
 * and never another provider's: with none of the three the pool is not
 * converted. An AWSNodeTemplate becomes the EC2NodeClass of the same name.
 */
import { KARPENTER_NODE_CLASSES } from '@gpu-gitops/plugin-gpu-common';
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';

/** A v1 node class's group and kind. */
export interface NodeClassKind {
  group: string;
  kind: string;
}

/** Where a reference without group or kind finds them. */
export interface NodeClassContext {
  /** The node classes the cluster defines, by name (as v1 refers to them). */
  defined?: ReadonlyMap<string, readonly NodeClassKind[]>;
  /** The cluster profile's provider's node class (Karpenter clusters only). */
  provider?: NodeClassKind;
}

const AWS_NODE_TEMPLATE = 'AWSNodeTemplate';
const AWS_NODE_CLASS: NodeClassKind = {
  group: 'karpenter.k8s.aws',
  kind: 'EC2NodeClass',
};

/** The v1 group and kind of a node class object (an AWSNodeTemplate is its EC2NodeClass). */
export function nodeClassKindOf(object: PlainObject): NodeClassKind {
  if (object.kind === AWS_NODE_TEMPLATE) return AWS_NODE_CLASS;
  return {
    group: String(object.apiVersion ?? '').split('/')[0],
    kind: String(object.kind),
  };
}

const sameKind = (a: NodeClassKind, b: NodeClassKind) =>
  a.group === b.group && a.kind === b.kind;

const describe = (k: NodeClassKind) => `${k.kind} (${k.group})`;

/** A reference's own group and kind, each where it says it. */
function ownParts(legacy: PlainObject): Partial<NodeClassKind> {
  const apiVersion =
    typeof legacy.apiVersion === 'string' ? legacy.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : undefined;
  const kind = typeof legacy.kind === 'string' ? legacy.kind : undefined;
  if (kind === AWS_NODE_TEMPLATE) return AWS_NODE_CLASS;
  return { ...(group ? { group } : {}), ...(kind ? { kind } : {}) };
}

/** A provider's node class that fits the parts the reference gives. */
const providerClassFitting = (parts: Partial<NodeClassKind>) =>
  KARPENTER_NODE_CLASSES.filter(
    c =>
      (parts.group === undefined || c.group === parts.group) &&
      (parts.kind === undefined || c.kind === parts.kind),
  );

function resolve(
  name: string,
  parts: Partial<NodeClassKind>,
  context: NodeClassContext,
): NodeClassKind | string {
  if (parts.group && parts.kind) {
    return { group: parts.group, kind: parts.kind };
  }
  const fits = (c: NodeClassKind) =>
    (parts.group === undefined || c.group === parts.group) &&
    (parts.kind === undefined || c.kind === parts.kind);
  const defined = (context.defined?.get(name) ?? []).filter(fits);
  if (defined.length === 1) return defined[0];
  if (defined.length > 1) {
    const provider = context.provider;
    if (provider && defined.some(c => sameKind(c, provider))) return provider;
    return `its node class reference names "${name}" without its kind, and the cluster defines ${defined.map(describe).join(' and ')} of that name: set the reference's apiVersion and kind to the one the pool uses, and import again`;
  }
  if (parts.group || parts.kind) {
    const known = providerClassFitting(parts);
    if (known.length === 1) return known[0];
  }
  if (context.provider && fits(context.provider)) return context.provider;
  return `its node class reference "${name}" says neither its group nor its kind, the cluster's folder defines no node class of that name, and the cluster profile's provider has no Karpenter node class: set the reference's apiVersion and kind, and import again`;
}

/**
 * The v1 reference, or `refused` with why it cannot be told; undefined when
 * the legacy reference names no class.
 */
export function v1NodeClassRef(
  legacy: unknown,
  context: NodeClassContext,
):
  | { ref: { group: string; kind: string; name: string } }
  | { refused: string }
  | undefined {
  if (!isPlainObject(legacy) || typeof legacy.name !== 'string') {
    return undefined;
  }
  const resolved = resolve(legacy.name, ownParts(legacy), context);
  return typeof resolved === 'string'
    ? { refused: resolved }
    : { ref: { ...resolved, name: legacy.name } };
}

/** The node classes among `objects` (role `nodeClass`), by name. */
export function definedNodeClasses(
  objects: readonly { value: PlainObject; isNodeClass: boolean }[],
): Map<string, NodeClassKind[]> {
  const defined = new Map<string, NodeClassKind[]>();
  for (const { value, isNodeClass } of objects) {
    if (!isNodeClass) continue;
    const name = String((value.metadata as PlainObject | undefined)?.name);
    const kinds = defined.get(name) ?? [];
    const kind = nodeClassKindOf(value);
    if (!kinds.some(k => sameKind(k, kind))) kinds.push(kind);
    defined.set(name, kinds);
  }
  return defined;
}
