/**
 * The import as its tests run it: the built-in catalog, one owner, the
 * profile of a cluster of the default provider; and a file's objects.
 */
import {
  builtinCatalog,
  defaultClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { parseAllDocuments } from 'yaml';
import { writeChangeSet } from '../../changes/stagedTree';
import type { FsRepoTree } from '../../repo/tree';
import { buildImportChange } from '../buildImportChange';
import { copyOf } from './fixtureCopies';

export const IMPORT_OWNER = 'group:default/ml-platform';

/** Cluster `name` on the default provider, with its own node class object. */
export const importProfile = (name: string): ClusterProfile => ({
  ...defaultClusterProfile,
  name,
  nodeClass: { ...defaultClusterProfile.nodeClass },
});

/** The import of `cluster` from the checkout `tree`. */
export const importCluster = (tree: FsRepoTree, cluster: ClusterProfile) =>
  buildImportChange({
    tree,
    dir: tree.root,
    cluster,
    catalog: builtinCatalog,
    owner: IMPORT_OWNER,
  });

/** A copy of fixture `shape` with the import of `cluster` written, as a merge would. */
export async function importedCopy(shape: string, cluster: ClusterProfile) {
  const tree = await copyOf(shape);
  const change = await importCluster(tree, cluster);
  await writeChangeSet(tree, change.changeSet);
  return { tree, change };
}

/** The objects of a YAML file's text. */
export const yamlDocs = (text: string | undefined) =>
  parseAllDocuments(text!).map(d => d.toJS());
