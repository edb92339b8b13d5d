/**
 * The one thing a workload patched through a kustomization has changed
 * outside its patch file: the count of a kustomization's `replicas:` entry
 * (kustomize applies that list after every patch, so a request's count goes
 * there). The team's count before the request is recorded in the patch's own
 * `<labelDomain>/replaced` annotation (the record `replacedFields.ts` keeps
 * for in-place manifests; here one field: `<kustomization>#replicas[<name>]`),
 * so a re-render keeps the team's count, not the request's earlier one, and
 * the release, which removes the patch file, puts that count back.
 */
import { parseDocument } from 'yaml';
import {
  gpuAnnotationKeys,
  type KubernetesObject,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn, parseYamlDocuments } from '../repo/yamlObjects';
import { toYaml } from './canonical';
import { setReplicasCount } from '../kustomize/editReplicas';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

/** The team's count of a kustomization `replicas:` entry before a request. */
export interface ReplicasEntryBefore {
  /** The kustomization holding the entry. */
  file: string;
  /** The entry's `name` (the workload's). */
  name: string;
  count: number;
}

const ENTRY_KEY = /^(.+)#replicas\[(.+)\]$/;

/** The patch, carrying the record of the entry's count before the request. */
export function withReplicasEntryRecord(
  patch: KubernetesObject,
  labelDomain: string,
  before: ReplicasEntryBefore,
): KubernetesObject {
  const record = toYaml({
    [`${before.file}#replicas[${before.name}]`]: before.count,
  });
  return {
    ...patch,
    metadata: {
      ...patch.metadata,
      annotations: {
        ...(patch.metadata.annotations as Record<string, string> | undefined),
        [gpuAnnotationKeys(labelDomain).replaced]: record,
      },
    },
  };
}

/** The entry counts a patch object records (none for a patch without a record). */
export function recordedReplicasEntries(
  patch: unknown,
  labelDomain: string,
): ReplicasEntryBefore[] {
  const text = getIn(
    patch,
    'metadata',
    'annotations',
    gpuAnnotationKeys(labelDomain).replaced,
  );
  if (typeof text !== 'string') return [];
  const record = parseDocument(text).toJS() as Record<string, unknown> | null;
  return Object.entries(record ?? {}).flatMap(([key, count]) => {
    const entry = ENTRY_KEY.exec(key);
    return entry && typeof count === 'number'
      ? [{ file: entry[1], name: entry[2], count }]
      : [];
  });
}

/** The entry counts recorded in the documents of a patch file (`read`: a tree's or a staged tree's reader). */
export async function recordedInPatchFile(
  read: (path: string) => Promise<string | undefined>,
  file: string,
  labelDomain: string,
): Promise<ReplicasEntryBefore[]> {
  const text = await read(file);
  if (text === undefined) return [];
  return parseYamlDocuments(file, text).documents.flatMap(d =>
    recordedReplicasEntries(d.value, labelDomain),
  );
}

/** Puts each recorded count back in its kustomization. */
export async function restoreReplicasEntries(
  staged: StagedTree,
  entries: readonly ReplicasEntryBefore[],
): Promise<void> {
  for (const { file: path, name, count } of entries) {
    const text = await staged.read(path);
    if (text === undefined) continue;
    const file = YamlFile.parse(path, text);
    try {
      setReplicasCount(file, name, count);
    } catch {
      continue; // the team took the entry out since: nothing to put back
    }
    const content = file.newContent();
    if (content !== undefined) await staged.write(path, content);
  }
}
