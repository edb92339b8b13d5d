/**
 * The node shapes of the GPU pools a reader found (gpu-common
 * `scheduling/`): each pool's object among the documents it was read from
 * (a Cluster API MachineDeployment or NodeFeatureRule read as the NodePool
 * it stands for, as `parsePools` reads it), its nodes advertising the
 * resource the pool serves and the product name its model's GPUs get
 * (gpu-common `poolGpuProducts`, the rule of every node shape). Per-node counts are a request's to judge, not a
 * reader's. The readers (`readRepoState`, the import, the allocation index)
 * land the repository's workloads on these shapes.
 */
import {
  nodeShapeOf,
  poolGpuProducts,
  type MigStrategy,
  type PoolNodeShape,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { POOL_OBJECT_KINDS } from './machineDeploymentPools';
import { poolObjectAsNodePool, type PoolObject } from './poolObjectAsNodePool';
import { asKubernetesObject, type ParsedDocument } from './yamlObjects';

/**
 * One shape per pool of `pools` whose object is among `documents` (the
 * first pool object of its name).
 *
 * @public
 */
export function gpuPoolShapes(
  documents: readonly ParsedDocument[],
  pools: readonly PoolState[],
  migStrategy?: MigStrategy,
): PoolNodeShape[] {
  const values = documents.map(d => d.value);
  const byName = new Map<string, PoolObject>();
  for (const value of values) {
    const object = asKubernetesObject(value);
    if (!object || !POOL_OBJECT_KINDS.includes(object.kind)) continue;
    if (!byName.has(object.metadata.name)) {
      byName.set(object.metadata.name, object);
    }
  }
  return pools.flatMap(pool => {
    const object = byName.get(pool.name);
    if (!object) return [];
    const gpuProducts = poolGpuProducts(pool, migStrategy);
    return [
      {
        ...nodeShapeOf(poolObjectAsNodePool(object, values), {
          resources: [{ name: pool.resourceName }],
        }),
        ...(gpuProducts ? { gpuProducts } : {}),
      },
    ];
  });
}
