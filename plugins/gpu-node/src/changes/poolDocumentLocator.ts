/**
 * Where a pool's document is in a file, for the pool writers (a request's
 * pool, the pools it leaves, a release's removal): the pool's own object of
 * a pool kind (`POOL_OBJECT_KINDS`), or, for a Cluster API pool, the worker
 * entry of that name in a managed topology's Cluster, edited as the
 * MachineDeployment it becomes (`topologyEntryDocument.ts`). The YAML editor
 * (`yamlFile.ts`) knows kind and name only.
 */
import { isMap, type Document } from 'yaml';
import {
  MACHINE_DEPLOYMENT,
  POOL_OBJECT_KINDS,
} from '../repo/machineDeploymentPools';
import { topologyEntryDocument } from './topologyEntryDocument';
import type { YamlFile } from './yamlFile';

/**
 * Pool `name`'s document in `file`, of the first of `kinds` that holds it
 * (any pool kind unless told); a MachineDeployment of its own comes before a
 * topology entry of the same name.
 */
export function findPoolDocument(
  file: YamlFile,
  name: string,
  kinds: readonly string[] = POOL_OBJECT_KINDS,
): Document | undefined {
  for (const kind of kinds) {
    const doc =
      file.findObject(kind, name) ??
      (kind === MACHINE_DEPLOYMENT ? topologyEntryIn(file, name) : undefined);
    if (doc) return doc;
  }
  return undefined;
}

/** The worker entry `name` of a topology Cluster `file` holds, as its MachineDeployment. */
function topologyEntryIn(file: YamlFile, name: string): Document | undefined {
  for (const doc of file.docs) {
    const entry = isMap(doc.contents)
      ? topologyEntryDocument(doc, name)
      : undefined;
    if (entry) return entry;
  }
  return undefined;
}
