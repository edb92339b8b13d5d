/**
 * Writes a cluster's Kueue objects (one file each, see `kueueFiles.ts`) and
 * lists them in the GPU kustomization; a file whose object is unchanged is
 * left as it is.
 */
import type { KueuePlan } from '@gpu-gitops/plugin-gpu-common';
import { listResource } from '../listing';
import type { StagedTree } from '../stagedTree';
import type { YamlFile } from '../yamlFile';
import {
  handWrittenKueueFile,
  isOursToWrite,
  kueueFileText,
  kueueObjectPath,
} from './kueueFiles';

export async function applyKueue(
  staged: StagedTree,
  gpuKustomization: YamlFile,
  kueue: KueuePlan,
): Promise<void> {
  for (const object of kueue.objects) {
    const path = kueueObjectPath(gpuKustomization.path, object);
    if (!(await isOursToWrite(staged, path))) throw handWrittenKueueFile(path);
    const text = kueueFileText(object);
    if ((await staged.read(path)) !== text) await staged.write(path, text);
    await listResource(staged, gpuKustomization, path);
  }
}
