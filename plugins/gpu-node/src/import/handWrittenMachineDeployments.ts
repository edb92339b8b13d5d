/**
 * A Cluster API cluster's own GPU workers (a MachineDeployment written by
 * hand whose machine template names a catalog GPU machine, e.g. a CAPZ or
 * CAPA GPU flavor's `md-0`) are GPU nodes the import sees but does not
 * adopt: it adopts Karpenter NodePools (annotations only), while a Cluster
 * API pool's node labels live in a KubeadmConfigTemplate the product would
 * have to replace. The report says so, with the machine, so nobody takes
 * the silence for "no GPU here".
 */
import {
  findInstanceType,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import {
  isGpuMachineDeployment,
  MACHINE_DEPLOYMENT,
  machineTypeOf,
  templatesOf,
} from '../repo/machineDeploymentPools';
import { getIn, type ParsedDocument } from '../repo/yamlObjects';
import type { ImportFinding } from './convert/findings';

export function handWrittenGpuMachineDeploymentNotes(
  files: Iterable<{ documents: ParsedDocument[] }>,
  catalog: GpuCatalog,
): ImportFinding[] {
  const documents = [...files].flatMap(f => f.documents);
  const values = documents.map(d => d.value);
  return documents.flatMap(d => {
    if (getIn(d.value, 'kind') !== MACHINE_DEPLOYMENT) return [];
    if (isGpuMachineDeployment(d.value)) return [];
    const machine = machineTypeOf(templatesOf(d.value, values).infrastructure);
    const type = machine ? findInstanceType(catalog, machine) : undefined;
    if (!type) return [];
    const name = String(getIn(d.value, 'metadata', 'name'));
    return [
      {
        kind: 'note' as const,
        path: d.path,
        object: `MachineDeployment "${name}"`,
        message: `GPU workers written by hand (${machine}: ${type.gpusPerNode} × ${type.gpuModel} per node), not adopted: the import adopts Karpenter NodePools only. Its workloads get no request record and new requests open pools of their own beside it; \`validate\` still judges the workloads that land on it`,
      },
    ];
  });
}
