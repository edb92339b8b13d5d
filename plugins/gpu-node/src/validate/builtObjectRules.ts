import {
  untoleratedTaints,
  type NodeTaint,
} from '@gpu-gitops/plugin-gpu-common';
import { asKubernetesObject } from '../repo/yamlObjects';
import { BuiltRoot, isUnderFolders } from './builtRoots';
import type { BuiltPool } from './builtPools';
import { asksFor, declaresContainer, GpuWorkload } from './builtWorkloads';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

/**
 * What a pool can serve, for the workload rules: a built pool, or one in a
 * root that did not build (then nothing is known about it, and nothing is
 * reported against it: the build error is the finding).
 */
interface ServingPool {
  name: string;
  /** Resources its nodes advertise; undefined when unknown. */
  resources?: string[];
  /** Undefined when unknown. */
  taints?: NodeTaint[];
}

function servingPools(
  pools: BuiltPool[],
  roots: BuiltRoot[],
  source: SourceTree,
): ServingPool[] {
  const out: ServingPool[] = pools.map(p => ({
    name: p.name,
    ...(p.advertised ? { resources: p.advertised.map(a => a.resource) } : {}),
    taints: p.taints,
  }));
  const unbuilt = roots.filter(r => r.error !== undefined);
  for (const doc of source.docs) {
    const obj = asKubernetesObject(doc.value);
    if (obj?.kind !== 'NodePool') continue;
    if (unbuilt.some(r => isUnderFolders(doc.path, r.folders))) {
      out.push({ name: obj.metadata.name });
    }
  }
  return out;
}

/**
 * Every container that asks for a GPU has an image. The API server refuses
 * a pod template without one; kustomize builds it happily when a
 * strategic-merge patch names a container the base does not have (the
 * patch's container is added, image-less, and the real one gets no GPU).
 */
export function checkGpuContainerImages(
  workloads: GpuWorkload[],
  source: SourceTree,
  findings: Finding[],
): void {
  const seen = new Set<string>();
  for (const workload of workloads) {
    if (seen.has(workload.id)) continue;
    seen.add(workload.id);
    for (const container of workload.gpuContainers) {
      if (container.image !== undefined) continue;
      const asks = [
        ...Object.keys(container.limits).sort(),
        ...(container.claims ? ['a DRA claim'] : []),
      ].join(', ');
      const others = workload.containers
        .filter(c => c !== container)
        .map(c => `"${c.name}"`);
      findings.push({
        file: sourceFileOf(source, workload.root, workload.object, doc =>
          declaresContainer(doc, container.name),
        ),
        object: `${workload.object.kind}/${workload.object.metadata.name}`,
        rule: 'gpu-container-without-image',
        message: `container "${container.name}" asks for ${asks} but has no image, so the API server rejects the ${workload.object.kind}${others.length > 0 ? `; the other containers are ${others.join(', ')}: does a patch name a container the base does not have?` : ''}`,
      });
    }
  }
}

/**
 * Every GPU resource a workload asks for (in `resources.limits`) is
 * advertised by a pool it may land on (the one its nodeSelector pins, else
 * any), and some such pool has taints it tolerates. DRA claims are served
 * by a DeviceClass, not a pool resource, and are not checked here.
 */
export function checkWorkloadsServed(
  workloads: GpuWorkload[],
  pools: BuiltPool[],
  roots: BuiltRoot[],
  source: SourceTree,
  findings: Finding[],
): void {
  const serving = servingPools(pools, roots, source);
  const reported = new Set<string>();
  for (const workload of workloads) {
    // The same workload from two roots is one workload to the reviewer.
    if (reported.has(workload.id)) continue;
    reported.add(workload.id);
    const object = `${workload.object.kind}/${workload.object.metadata.name}`;
    const resources = [
      ...new Set(workload.gpuContainers.flatMap(c => Object.keys(c.limits))),
    ].sort();
    for (const resource of resources) {
      const file = sourceFileOf(source, workload.root, workload.object, doc =>
        asksFor(doc, resource),
      );
      const candidates = serving.filter(
        p =>
          (!workload.pool || p.name === workload.pool) &&
          (p.resources === undefined || p.resources.includes(resource)),
      );
      if (candidates.length === 0) {
        findings.push({
          file,
          object,
          rule: 'unserved-resource',
          message: workload.pool
            ? `the workload is pinned to pool ${workload.pool}, which does not exist or does not serve ${resource}`
            : `no GPU pool serves ${resource}; the pods would stay Pending`,
        });
        continue;
      }
      const tolerated = candidates.filter(
        p =>
          !p.taints ||
          untoleratedTaints(p.taints, workload.tolerations).length === 0,
      );
      if (tolerated.length === 0) {
        findings.push({
          file,
          object,
          rule: 'untolerated-taint',
          message: `no pool serving ${resource} (${candidates.map(p => p.name).join(', ')}) has taints this workload tolerates; add a toleration for ${candidates[0].taints!.map(t => `${t.key}:${t.effect}`).join(', ')}`,
        });
      }
    }
  }
}
