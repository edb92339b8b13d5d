/**
 * The last check of an import before anything is written or pushed: every
 * kustomization root it touches is built with the real kustomize before and
 * after (`changes/rootBuilds.ts`, as for a request and a release), and the
 * difference must be exactly the import: each converted object replaced by
 * its v1 self (same name; Provisioner → NodePool, AWSNodeTemplate →
 * EC2NodeClass), adopted pools changed in their annotations only, node
 * classes that took their pools' kubelet settings. Nothing else appears,
 * disappears or changes.
 */
import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';
import type { BuildRootOptions } from '../kustomize/buildRoot';
import type { RepoTree } from '../repo/tree';
import { deepEqual } from '../changes/canonical';
import { describeBuilt } from '../changes/gpuWorkloadCheck';
import { buildTouchedRoots, builtObjectId } from '../changes/rootBuilds';
import type { ChangeSet } from '../changes/types';
import type { VerifyChangeResult } from '../changes/verifyChange';
import {
  expectedConversion,
  firstDifference,
  kindNameOf,
  type ImportIntent,
} from './expectedConversion';

export interface ExpectedImport extends ImportIntent {
  /** `<kind>/<name>` of every object the import converts or edits, before. */
  changedBefore: Set<string>;
  /** `<kind>/<name>` of what they are after. */
  changedAfter: Set<string>;
}

function refuse(message: string): never {
  throw new GpuInputError([{ path: 'repository', rule: 'verify', message }]);
}

/**
 * `tree` reads the checkout at `dir` (default: a plain reader of it): a git
 * checkout's blob ids key a big root's chunks, so its unchanged files are
 * not read (`kustomize/chunkedBuild.ts`).
 */
export async function verifyImport(
  dir: string,
  changeSet: ChangeSet,
  expected: ExpectedImport,
  kustomize?: BuildRootOptions,
  tree?: RepoTree,
): Promise<VerifyChangeResult> {
  const result: VerifyChangeResult = { verified: [], unverifiable: [] };
  const problems: string[] = [];
  for (const { root, before: was, after: now } of await buildTouchedRoots(
    dir,
    changeSet,
    kustomize,
    undefined,
    tree,
  )) {
    if (was.error !== undefined) {
      result.unverifiable.push({ root, reason: was.error });
      continue;
    }
    if (now.error !== undefined) {
      refuse(
        `the import would break \`kustomize build ${root}\`: ${now.error}. Nothing was written.`,
      );
    }
    const before = new Map(was.objects!.map(o => [builtObjectId(o), o]));
    const after = new Map(now.objects!.map(o => [builtObjectId(o), o]));
    for (const [id, o] of before) {
      const next = after.get(id);
      if (expected.changedBefore.has(kindNameOf(o))) continue;
      if (!next) problems.push(`${root}: ${describeBuilt(o)} would disappear`);
      else if (!deepEqual(o, next)) {
        problems.push(`${root}: ${describeBuilt(o)} would change`);
      }
    }
    // What changes must be exactly the conversion of what was built: the
    // base's patches and replacements followed it.
    const converted = expectedConversion(was.objects!, expected);
    for (const [id, o] of after) {
      if (!expected.changedAfter.has(kindNameOf(o))) {
        if (!before.has(id)) {
          problems.push(`${root}: ${describeBuilt(o)} would appear`);
        }
        continue;
      }
      const want = converted.get(kindNameOf(o));
      const differs = firstDifference(want, o);
      if (differs !== undefined) {
        problems.push(
          `${root}: ${describeBuilt(o)} would not be the v1 conversion of what kustomize built before (${differs} differs: a patch, replacement or transformer did not follow the conversion)`,
        );
      }
    }
    result.verified.push(root);
  }
  if (problems.length > 0) {
    refuse(
      `the import would change more than the conversion and the adoption: ${problems.join('; ')}. Nothing was written.`,
    );
  }
  return result;
}
