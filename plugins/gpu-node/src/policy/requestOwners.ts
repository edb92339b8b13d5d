import {
  parseGpuRequestYaml,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { requestPath, type LayoutInput } from '../layout/layout';
import type { RepoTree } from '../repo/tree';

/**
 * Who owns each GPU workload of a checkout, for quotas: the owner of the
 * GpuRequest stored beside it (`requests/<namespace>/<name>.yaml` in the
 * default layout). A workload without a readable stored request has no
 * owner (the gpu backend's index reads the same files with the same parser,
 * so both count the same workloads).
 *
 * @public
 */
export async function readRequestOwners(
  tree: RepoTree,
  workloads: WorkloadState[],
  layout?: LayoutInput,
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const workload of workloads) {
    let path: string;
    try {
      path = requestPath(layout, workload.namespace, workload.name);
    } catch {
      continue; // a name the layout cannot hold has no request file
    }
    const text = await tree.readFile(path);
    if (text === undefined) continue;
    try {
      const { metadata, spec } = parseGpuRequestYaml(text);
      // The index keys stored requests by what they name, not by their path.
      if (`${metadata.namespace}/${metadata.name}` === workload.id) {
        owners.set(workload.id, spec.owner);
      }
    } catch {
      // An invalid request file attributes nothing; the readers report it.
    }
  }
  return owners;
}
