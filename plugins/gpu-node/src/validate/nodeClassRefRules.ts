import type { BuiltObject } from '../kustomize';
import { isManagedObject } from '../changes/ownership';
import { asKubernetesObject, getIn } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

interface NodeClassId {
  group: string;
  kind: string;
  name: string;
}

/**
 * A node class of any provider (EC2NodeClass, AKSNodeClass, EKS Auto Mode's
 * NodeClass, …): what a NodePool's `nodeClassRef` names (karpenter.sh/v1
 * NodeClassReference: group, kind, name).
 */
function nodeClassOf(value: unknown): NodeClassId | undefined {
  const obj = asKubernetesObject(value);
  if (!obj || !obj.kind.endsWith('NodeClass')) return undefined;
  const apiVersion = String(obj.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return { group, kind: obj.kind, name: obj.metadata.name };
}

/**
 * The classes EKS Auto Mode gives every cluster without a manifest (EKS docs,
 * "Create a Node Class for Amazon EKS": the built-in `default` NodeClass).
 */
function isBuiltIn(ref: NodeClassId): boolean {
  return ref.group === 'eks.amazonaws.com' && ref.name === 'default';
}

function refOf(pool: BuiltObject): NodeClassId | undefined {
  const ref = getIn(pool, 'spec', 'template', 'spec', 'nodeClassRef');
  const [group, kind, name] = ['group', 'kind', 'name'].map(k => getIn(ref, k));
  if (typeof kind !== 'string' || typeof name !== 'string') return undefined;
  return { group: typeof group === 'string' ? group : '', kind, name };
}

const show = (c: NodeClassId) => `${c.kind}/${c.name}`;

/**
 * Every NodePool's `nodeClassRef` names a node class the cluster defines:
 * Karpenter launches no node for a pool whose class does not exist. The
 * classes of the pool's own root count; a root that defines none (pools and
 * classes applied apart) is checked against every class of the tree. A tree
 * that defines no node class at all gets them from elsewhere (Terraform, a
 * Helm release): nothing can be told, nothing is reported. The same holds
 * when the only classes in the tree are the product's own (the bootstrap's
 * GPU class beside a team's classes kept in Terraform): the team's are
 * elsewhere, so a team's NodePool naming one is not judged.
 */
export function checkNodeClassRefs(
  roots: BuiltRoot[],
  source: SourceTree,
  findings: Finding[],
): void {
  const objects = [
    ...source.docs.map(d => d.value),
    ...roots.flatMap(r => r.objects),
  ];
  const everywhere = objects.map(nodeClassOf).filter(c => c !== undefined);
  const teamWritesClasses = objects.some(
    o => nodeClassOf(o) !== undefined && !isManagedObject(o),
  );
  if (!teamWritesClasses) return;
  const reported = new Set<string>();
  for (const root of roots) {
    const own = root.objects.map(nodeClassOf).filter(c => c !== undefined);
    const classes = own.length > 0 ? own : everywhere;
    for (const pool of root.objects.filter(o => o.kind === 'NodePool')) {
      const ref = refOf(pool);
      if (!ref || isBuiltIn(ref)) continue;
      const found = classes.some(
        c =>
          c.kind === ref.kind &&
          c.name === ref.name &&
          (ref.group === '' || c.group === ref.group),
      );
      const file = sourceFileOf(source, root, pool);
      const key = `${file} ${pool.metadata.name} ${show(ref)}`;
      if (found || reported.has(key)) continue;
      reported.add(key);
      const known = [...new Set(classes.map(show))].sort().join(', ');
      findings.push({
        file,
        object: `NodePool/${pool.metadata.name}`,
        rule: 'node-class-not-found',
        message: `spec.template.spec.nodeClassRef names ${show(ref)}${ref.group ? ` (${ref.group})` : ''}, which no object of the cluster defines (its node classes: ${known}); Karpenter launches no node for this pool`,
      });
    }
  }
}
