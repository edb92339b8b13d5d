/**
 * `node-class-missing`: a Karpenter NodePool whose `nodeClassRef` names a
 * node class the tree does not build, while it builds node classes: the
 * NodePool launches no node (Karpenter marks it not ready,
 * `NodeClassReady=False`). A tree that builds no node class at all keeps
 * them elsewhere (Terraform, another repository) and is not judged.
 */
import type { BuiltObject } from '../kustomize';
import { getIn } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

/** `kind/name` of a node class object, or of a reference to one (v1beta1 references carry no group). */
function classId(kind: unknown, name: unknown): string {
  return `${String(kind)}/${String(name)}`;
}

function isNodeClass(o: BuiltObject): boolean {
  return o.kind.endsWith('NodeClass') && String(o.apiVersion).includes('/');
}

export function checkNodeClassRefs(
  roots: readonly BuiltRoot[],
  source: SourceTree,
  findings: Finding[],
): void {
  const classes = roots.flatMap(r => r.objects.filter(isNodeClass));
  if (classes.length === 0) return;
  const defined = new Set(classes.map(c => classId(c.kind, c.metadata.name)));
  const reported = new Set<string>();
  for (const root of roots) {
    for (const pool of root.objects.filter(o => o.kind === 'NodePool')) {
      const ref = getIn(pool, 'spec', 'template', 'spec', 'nodeClassRef');
      const id = classId(getIn(ref, 'kind'), getIn(ref, 'name'));
      if (
        ref === undefined ||
        defined.has(id) ||
        reported.has(`${pool.metadata.name}|${id}`)
      ) {
        continue;
      }
      reported.add(`${pool.metadata.name}|${id}`);
      findings.push({
        file: sourceFileOf(source, root, pool),
        object: `NodePool/${pool.metadata.name}`,
        rule: 'node-class-missing',
        message: `nodeClassRef ${String(getIn(ref, 'kind'))} "${String(getIn(ref, 'name'))}" is not built here, while ${classes.map(c => `${c.kind} "${c.metadata.name}"`).join(', ')} ${classes.length > 1 ? 'are' : 'is'}: Karpenter launches no node for this NodePool`,
      });
    }
  }
}
