/**
 * What a release leaves in the folder of the workload the request created:
 * the objects the product did not write (a Service, a ConfigMap the team
 * added beside the Deployment). The release removes only what carries the
 * request's annotation, so a reviewer must be told, before it is sent, which
 * objects stay, or a Service is left selecting pods that no longer exist.
 * Read from the change itself: each YAML file of the folder as the release
 * leaves it.
 */
import { posix } from 'path';
import type {
  GpuRequest,
  ReleaseLeftObject,
} from '@gpu-gitops/plugin-gpu-common';
import { workloadDirPath, type LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { getIn, parseYamlDocuments } from '../../repo/yamlObjects';
import type { ChangeSet } from '../types';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/** The objects of a new workload's folder that stay after `changeSet`, by file. */
export async function objectsLeftByRelease(
  tree: RepoTree,
  layout: LayoutInput | undefined,
  request: GpuRequest,
  changeSet: ChangeSet,
): Promise<ReleaseLeftObject[]> {
  if (request.spec.workload.existing) return [];
  const { namespace, name } = request.metadata;
  const dir = workloadDirPath(layout, namespace, name);
  const changed = new Map(changeSet.changes.map(c => [c.path, c]));
  const left: ReleaseLeftObject[] = [];
  for (const path of await tree.listFiles(dir)) {
    if (!isYaml(path) || posix.basename(path) === 'kustomization.yaml')
      continue;
    const change = changed.get(path);
    if (change?.action === 'delete') continue;
    const text = change ? change.content : await tree.readFile(path);
    if (text === undefined) continue;
    for (const { value } of parseYamlDocuments(path, text).documents) {
      const kind = getIn(value, 'kind');
      const objectName = getIn(value, 'metadata', 'name');
      if (typeof kind !== 'string' || typeof objectName !== 'string') continue;
      left.push({ kind, name: objectName, path });
    }
  }
  return left;
}
