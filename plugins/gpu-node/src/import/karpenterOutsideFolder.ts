/**
 * Karpenter objects the cluster deploys from outside its folder: a
 * kustomization of `clusters/<cluster>/` may include a shared base
 * (`resources: [../../../infra/karpenter]`). The import reads and rewrites
 * only the cluster's folder (a shared base may deploy to other clusters
 * too), so such objects are neither converted nor adopted: the report
 * names them, rather than calling the repository adopted.
 */
import { posix } from 'node:path';
import { parse } from 'yaml';
import { isKustomizationFile } from '../kustomize/roots';
import { readFiles } from '../repo/readFiles';
import type { RepoTree } from '../repo/tree';
import {
  isPlainObject,
  isYamlPath,
  parseYamlDocuments,
} from '../repo/yamlObjects';
import { objectLabel, type ImportFinding } from './convert/findings';
import { isKarpenterObject } from './convert/legacyKinds';

/** Where a kustomization's `resources` / `bases` / `components` point outside `scope`. */
function outsideEntries(
  kustomization: string,
  text: string,
  scope: string,
): string[] {
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return [];
  }
  if (!isPlainObject(value)) return [];
  const folder = posix.dirname(kustomization);
  return ['resources', 'bases', 'components'].flatMap(key =>
    (Array.isArray(value[key]) ? (value[key] as unknown[]) : [])
      .filter((e): e is string => typeof e === 'string' && !e.includes('://'))
      .map(e => posix.normalize(posix.join(folder, e)))
      .filter(p => !p.startsWith('../') && !p.startsWith(`${scope}/`)),
  );
}

export async function karpenterOutsideFolder(
  tree: RepoTree,
  scope: string,
  kustomizations: Map<string, string>,
): Promise<ImportFinding[]> {
  const findings: ImportFinding[] = [];
  const seen = new Set<string>();
  for (const [kustomization, text] of kustomizations) {
    for (const target of outsideEntries(kustomization, text, scope)) {
      if (seen.has(target)) continue;
      seen.add(target);
      const paths = (await tree.listFiles(target)).filter(
        p => isYamlPath(p) && !isKustomizationFile(p),
      );
      const texts = await readFiles(tree, paths);
      const objects = paths.flatMap((path, i) =>
        /karpenter\.(sh|k8s\.aws)\//.test(texts[i] ?? '')
          ? parseYamlDocuments(path, texts[i]!)
              .documents.map(d => d.value)
              .filter(v => isPlainObject(v) && isKarpenterObject(v))
              .map(
                v =>
                  `${objectLabel(v as object)} (${String((v as { apiVersion?: unknown }).apiVersion)})`,
              )
          : [],
      );
      if (objects.length === 0) continue;
      findings.push({
        kind: 'not-understood',
        path: kustomization,
        object: target,
        message: `${kustomization} deploys ${target}, outside the cluster's folder ${scope}/; its Karpenter objects ${objects.join(', ')} are neither converted nor adopted (a folder outside may deploy to other clusters too): convert them there by hand, or move the cluster's own into ${scope}/ and import again`,
      });
    }
  }
  return findings;
}
