/**
 * Where the imported cluster's GPU pods can land: the readers' one model
 * (gpu-common `clusterLandingModel`, as `readRepoState` and the allocation
 * index build it). Its pools are every GPU pool the import read, adopted or
 * not: a workload that could also land on a pool the product already
 * manages is not put on the adopted one by a guess. Beside them sit the GPU
 * NodePools the import leaves to the team (a kustomize patch patches them,
 * or they cannot be converted) and the GPU servers the team's own
 * NodeFeatureRules label: pods land there too, so a workload that may is
 * not adopted onto a product pool.
 */
import {
  clusterLandingModel,
  type GpuCatalog,
  type LandingModel,
  type MigStrategy,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { gpuPoolShapes } from '../repo/gpuPoolShapes';
import { nodeOverlaysAmong } from '../repo/nodeOverlaysAmong';
import { parsePools, type PoolConfigs } from '../repo/parsePools';
import type { ParsedDocument } from '../repo/yamlObjects';

export interface ImportLandingInput {
  /** The pool objects the import may adopt, and the GPU pools read from them. */
  poolDocuments: readonly ParsedDocument[];
  pools: readonly PoolState[];
  /** The pool objects it leaves as they are (patched, or not converted). */
  leftDocuments: ParsedDocument[];
  /** Every object of the cluster's folder (its NodeFeatureRules among them). */
  objects: readonly unknown[];
  configs: PoolConfigs;
  catalog: GpuCatalog;
  migStrategy?: MigStrategy;
}

/** The landing model of the imported cluster. */
export function importLandingModel(input: ImportLandingInput): LandingModel {
  const left = parsePools(
    input.leftDocuments,
    input.configs,
    input.catalog,
    [],
  ).pools;
  return clusterLandingModel({
    pools: gpuPoolShapes(input.poolDocuments, input.pools, input.migStrategy),
    handWritten: gpuPoolShapes(input.leftDocuments, left, input.migStrategy),
    objects: input.objects,
    overlays: nodeOverlaysAmong(input.objects),
  });
}
