/**
 * TEST-ONLY: a platform's bare-metal GPU host classes as a catalog override
 * for a Cluster API cluster on Metal3 (owned hardware: price 0). A class's
 * name is the value of the host class label on its BareMetalHosts. The
 * docs/platform-engineers.md's "Cluster providers" section shows the same override.
 */
import { builtinCatalog } from '../../catalog/builtin';
import { mergeCatalog } from '../../catalog/override';

export const METAL3_HOST_CLASSES = {
  instanceTypes: [
    ['bm-t4x4', 't4', 4, 256, 48],
    ['bm-a100x8', 'a100-40gb', 8, 1024, 128],
  ].map(([name, gpuModel, gpusPerNode, ramGiB, vcpu]) => ({
    name,
    family: 'bm',
    provider: 'metal3',
    gpuModel,
    gpusPerNode,
    vcpu,
    memoryMiB: Number(ramGiB) * 1024,
    onDemandUsdPerHour: 0,
  })),
};

export const metal3Catalog = mergeCatalog(builtinCatalog, METAL3_HOST_CLASSES);
