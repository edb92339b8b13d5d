import type { BuiltObject } from '../kustomize';
import { asKubernetesObject } from '../repo/yamlObjects';
import { BuiltRoot, isUnderFolders } from './builtRoots';
import type { SourceTree } from './sourceTree';

/**
 * The file a reviewer should open for a finding about a built object: the
 * document of the same kind and name among the files the root builds from
 * (any file of the tree when none is there), one that `prefer`s when some
 * do (e.g. the patch that adds the GPU container), a full object before a
 * patch; the root's kustomization when no file names the object (a
 * generated one).
 */
export function sourceFileOf(
  source: Pick<SourceTree, 'docs' | 'patchFiles'>,
  root: BuiltRoot,
  object: BuiltObject,
  prefer?: (document: unknown) => boolean,
): string {
  const same = source.docs.filter(d => {
    const o = asKubernetesObject(d.value);
    return o?.kind === object.kind && o.metadata.name === object.metadata.name;
  });
  const inRoot = same.filter(d => isUnderFolders(d.path, root.folders));
  let candidates = inRoot.length > 0 ? inRoot : same;
  if (prefer) {
    const preferred = candidates.filter(d => prefer(d.value));
    if (preferred.length > 0) candidates = preferred;
  }
  const full = candidates.filter(d => !source.patchFiles.has(d.path));
  return (full[0] ?? candidates[0])?.path ?? root.file;
}
