/**
 * A release's part of the queues: the files of the product's Kueue objects
 * are rewritten as the pools after the release give them, and those no team
 * or pool needs any more (the team's last request, a removed pool's flavor,
 * a namespace's last request) are deleted and unlisted. A release never adds
 * a queue: it only gives back what the product added.
 */
import {
  stateAfterRelease,
  type RepoState,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import { posix } from 'node:path';
import { clusterKustomizationPath, resolveLayout } from '../../layout/layout';
import { unlistResource } from '../listing';
import type { StagedTree } from '../stagedTree';
import { isOursToWrite, kueueFileText, kueueObjectPath } from './kueueFiles';
import { kueueOfState, type KueueSources } from './requestKueue';

export async function releaseKueue(
  staged: StagedTree,
  sources: KueueSources & { state: RepoState; plan: ReleasePlan },
): Promise<void> {
  if (!sources.cluster.kueue) return;
  const gpuKustomization = clusterKustomizationPath(
    resolveLayout(sources.layout),
    sources.cluster.name,
  );
  const kueue = await kueueOfState(
    sources,
    stateAfterRelease(sources.state, sources.plan),
  );
  const wanted = new Map(
    kueue.objects.map(o => [kueueObjectPath(gpuKustomization, o), o]),
  );
  const folder = posix.join(posix.dirname(gpuKustomization), 'kueue');
  for (const path of await staged.list(`${folder}/`)) {
    if (!path.endsWith('.yaml') || !(await isOursToWrite(staged, path)))
      continue;
    const object = wanted.get(path);
    if (object) {
      const text = kueueFileText(object);
      if ((await staged.read(path)) !== text) await staged.write(path, text);
    } else {
      await staged.remove(path);
      await unlistResource(staged, gpuKustomization, path);
    }
  }
}
