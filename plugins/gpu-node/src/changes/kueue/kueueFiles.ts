/**
 * Where a cluster's Kueue objects live: one file per object under the GPU
 * folder (`kueue/<kind>/<name>.yaml`), so two requests touching different
 * teams or pools never edit one file, and the GPU kustomization lists each.
 */
import { posix } from 'node:path';
import { GpuInputError, type KueueObject } from '@gpu-gitops/plugin-gpu-common';
import { parseAllDocuments } from 'yaml';
import { toYaml } from '../canonical';
import { isManagedObject } from '../ownership';
import type { StagedTree } from '../stagedTree';

const FOLDERS: Record<KueueObject['kind'], string> = {
  ResourceFlavor: 'resource-flavors',
  ClusterQueue: 'cluster-queues',
  LocalQueue: 'local-queues',
};

/** The file of one Kueue object, beside the cluster's GPU kustomization. */
export function kueueObjectPath(
  gpuKustomizationPath: string,
  object: KueueObject,
): string {
  const name = object.metadata.namespace
    ? `${object.metadata.namespace}.${object.metadata.name}`
    : object.metadata.name;
  return posix.join(
    posix.dirname(gpuKustomizationPath),
    'kueue',
    FOLDERS[object.kind],
    `${name}.yaml`,
  );
}

const HEADER =
  '# Kueue queue written by the Backstage GPU self-service from the pools and gpu.policy quotas; edits are overwritten.\n';

/** The file's text for `object`. */
export function kueueFileText(object: KueueObject): string {
  return HEADER + toYaml(object);
}

/** True when the file at `path` holds only objects the product wrote (or does not exist). */
export async function isOursToWrite(
  staged: StagedTree,
  path: string,
): Promise<boolean> {
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') return true;
  return parseAllDocuments(text)
    .map(d => d.toJS())
    .every(o => o === null || isManagedObject(o));
}

/** Refuses to write over a Kueue file someone wrote by hand. */
export function handWrittenKueueFile(path: string): GpuInputError {
  return new GpuInputError([
    {
      path: 'repository',
      rule: 'kueue-file-written-by-hand',
      message: `${path} holds objects the GPU self-service did not write; move them elsewhere (the product writes its Kueue queues there). Nothing was written.`,
    },
  ]);
}
