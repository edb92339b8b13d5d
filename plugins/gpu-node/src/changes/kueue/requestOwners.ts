/**
 * The owner of each request a pool's ledger names, read from its stored
 * GpuRequest (`requests/<namespace>/<name>.yaml` in the default layout), and
 * the request being built (not stored yet): a team's queue is the requests
 * it owns.
 */
import {
  parseGpuRequestYaml,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { requestPath, type LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';

export async function ledgerRequestOwners(
  tree: RepoTree,
  requestIds: Iterable<string>,
  layout: LayoutInput | undefined,
  current: GpuRequest,
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const id of requestIds) {
    const [namespace, name] = id.split('/');
    let text: string | undefined;
    try {
      text = await tree.readFile(requestPath(layout, namespace, name));
    } catch {
      continue; // a name the layout cannot hold has no request file
    }
    if (text === undefined) continue;
    try {
      owners.set(id, parseGpuRequestYaml(text).spec.owner);
    } catch {
      // An invalid request file attributes nothing; the readers report it.
    }
  }
  const { namespace, name } = current.metadata;
  owners.set(`${namespace}/${name}`, current.spec.owner);
  return owners;
}
