/**
 * TEST-ONLY: the seed's OpenStack GPU flavors (CERN: "Adding and managing
 * GPUs on Kubernetes"; current list https://clouddocs.web.cern.ch/gpu_overview.html)
 * as a catalog override for a Cluster API cluster on OpenStack: name, GPU,
 * GPUs per node, RAM (GB), vCPUs. Owned hardware, so price 0. The platform
 * engineers' guide's "Cluster providers" section (docs/platform-engineers.md) shows the same override.
 */
import { builtinCatalog } from '../../catalog/builtin';
import { mergeCatalog } from '../../catalog/override';

export const SEED_OPENSTACK_FLAVORS = {
  instanceTypes: [
    ['g2.5xlarge', 't4', 1, 168, 28],
    ['g4.p1.40g', 'a100-40gb', 1, 120, 16],
    ['g4.p2.40g', 'a100-40gb', 2, 240, 32],
    ['g4.p4.40g', 'a100-40gb', 4, 480, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name,
    family: String(name).split('.')[0],
    provider: 'openstack',
    gpuModel,
    gpusPerNode,
    vcpu,
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
};

export const seedOpenStackCatalog = mergeCatalog(
  builtinCatalog,
  SEED_OPENSTACK_FLAVORS,
);
