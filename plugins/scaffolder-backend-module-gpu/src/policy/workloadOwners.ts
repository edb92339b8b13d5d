import { parse } from 'yaml';
import type { WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import { resolveLayout, type RepoTree } from '@gpu-gitops/plugin-gpu-node';

function ownerFromYaml(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    for (const doc of text.split(/^---$/m)) {
      const value = parse(doc);
      const owner = value?.spec?.owner;
      if (value?.kind === 'GpuRequest' && typeof owner === 'string') {
        return owner;
      }
      const annotations = value?.metadata?.annotations ?? {};
      for (const [key, v] of Object.entries(annotations)) {
        if (key.endsWith('/owner') && typeof v === 'string') return v;
      }
    }
  } catch {
    // An unreadable file attributes nothing; the repo reader reports it.
  }
  return undefined;
}

/**
 * Who owns each GPU workload in the repository, for quotas: the owner of the
 * GpuRequest stored beside it (`requests/<namespace>/<name>.yaml` in the
 * default layout), else an annotation ending in `/owner` on the workload itself.
 */
export async function readWorkloadOwners(
  tree: RepoTree,
  workloads: WorkloadState[],
  layout?: Parameters<typeof resolveLayout>[0],
): Promise<Map<string, string>> {
  const resolved = resolveLayout(layout);
  const owners = new Map<string, string>();
  for (const workload of workloads) {
    let requestPath: string | undefined;
    try {
      requestPath = resolved.render('request', {
        namespace: workload.namespace,
        name: workload.name,
      });
    } catch {
      requestPath = undefined; // a name the layout cannot hold has no request file
    }
    const owner =
      (requestPath && ownerFromYaml(await tree.readFile(requestPath))) ||
      ownerFromYaml(await tree.readFile(workload.path));
    if (owner) owners.set(workload.id, owner);
  }
  return owners;
}
