/**
 * What a release will delete and what it will leave, asked before it is
 * sent: the scaffolder's dry run of the `gpu:gitops:release` action (the
 * same action the Release template runs, with `isDryRun`: it builds the
 * release change and pushes nothing). Its outputs say which files the change
 * touches, its unified diff (a deleted file is `+++ /dev/null`, as gpu-node's
 * renderFileChangeDiff and git print it) and `leaves`: the objects the
 * product did not write beside the workload it created, which the release
 * does not delete.
 */
import type { scaffolderApiRef } from '@backstage/plugin-scaffolder-react';

type DryRun = (typeof scaffolderApiRef.T)['dryRun'];
type DryRunTemplate = Parameters<DryRun>[0]['template'];
type DryRunResponse = Awaited<ReturnType<DryRun>>;

/** An object the release leaves where it is (the action's `leaves` output). */
export interface ReleaseLeftObject {
  kind: string;
  name: string;
  path: string;
}

/** The release, as its dry run answers it. */
export interface ReleasePreview {
  /** Files the release deletes, in path order. */
  deletes: string[];
  /** Files the release changes and keeps (a pool's ledger, a kustomization). */
  changes: string[];
  /** Objects the product did not write: they stay. */
  leaves: ReleaseLeftObject[];
  /** What it saves, or why it saves no money (the plan's words). */
  savings: string;
}

const RELEASE_STEP = 'release';

/** The one-step template whose dry run is the release of `namespace/name`. */
export function releasePreviewTemplate(request: {
  namespace: string;
  name: string;
}): DryRunTemplate {
  const output = (key: string) => `\${{ steps.${RELEASE_STEP}.output.${key} }}`;
  return {
    apiVersion: 'scaffolder.backstage.io/v1beta3',
    kind: 'Template',
    metadata: { name: 'gpu-release-preview' },
    spec: {
      type: 'service',
      steps: [
        {
          id: RELEASE_STEP,
          name: 'Release (dry run)',
          action: 'gpu:gitops:release',
          input: { namespace: request.namespace, name: request.name },
        },
      ],
      output: {
        files: output('files'),
        diff: output('diff'),
        leaves: output('leaves'),
        savings: output('savings'),
      },
    },
  };
}

/** The files a unified diff deletes: `--- a/<path>` followed by `+++ /dev/null`. */
export function filesDeletedByDiff(diff: string): string[] {
  const deleted: string[] = [];
  const lines = diff.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('--- a/') && lines[i + 1] === '+++ /dev/null') {
      deleted.push(lines[i].slice('--- a/'.length));
    }
  }
  return deleted.sort();
}

function isLeftObject(value: unknown): value is ReleaseLeftObject {
  const o = value as Partial<ReleaseLeftObject> | null;
  return (
    typeof o?.kind === 'string' &&
    typeof o.name === 'string' &&
    typeof o.path === 'string'
  );
}

/** The preview from the dry run's outputs. */
export function readReleasePreview(
  response: Pick<DryRunResponse, 'output'>,
): ReleasePreview {
  const output = response.output as Record<string, unknown>;
  const diff = typeof output.diff === 'string' ? output.diff : '';
  const files = Array.isArray(output.files)
    ? output.files.filter((f): f is string => typeof f === 'string')
    : [];
  const deletes = filesDeletedByDiff(diff);
  return {
    deletes,
    changes: files.filter(f => !deletes.includes(f)).sort(),
    leaves: Array.isArray(output.leaves)
      ? output.leaves.filter(isLeftObject)
      : [],
    savings: typeof output.savings === 'string' ? output.savings : '',
  };
}
