/**
 * The bootstrap's part of the workload-cluster delivery
 * (`gpuConfigsDelivery.ts`): on a Cluster API management repository whose
 * GPU folder generates GPU ConfigMaps, it writes the delivery file, lists
 * it in the GPU kustomization and keeps the generated ConfigMaps out of every
 * build (`LOCAL_CONFIG_ANNOTATION`): the workload cluster gets them through
 * the delivery only; a Cluster without labels cannot be selected
 * by a ClusterResourceSet, so then it says what to label instead.
 */
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { writeBootstrapFiles } from '../bootstrap/bootstrapFile';
import {
  openKustomization,
  relativeTo,
} from '../../kustomize/editKustomization';
import { addResource } from '../../kustomize/editResources';
import { annotateGenerated } from '../../kustomize/editGenerators';
import type { StagedTree } from '../stagedTree';
import {
  LOCAL_CONFIG_ANNOTATION,
  deliveryPath,
  deliveryResourceSet,
  generatedGpuConfigMaps,
  renderDelivery,
} from './gpuConfigsDelivery';
import type { WorkloadCluster } from './managementCluster';
import type { CarriedResource } from './schedulerDelivery';

/** Writes the delivery when the folder is a management cluster's; the notes for the pull request. */
export async function bootstrapGpuConfigsDelivery(
  staged: StagedTree,
  workload: WorkloadCluster | undefined,
  cluster: ClusterProfile,
  gpuKustomizationPath: string,
  carried: CarriedResource[] = [],
): Promise<string[]> {
  if (!workload) return [];
  const configMaps = await generatedGpuConfigMaps(
    staged,
    gpuKustomizationPath,
    cluster,
  );
  if (configMaps.length === 0 && carried.length === 0) return [];
  if (Object.keys(workload.labels).length === 0) {
    return [
      `This folder is applied to the Cluster API management cluster, and the GPU ConfigMaps must reach the workload cluster \`${workload.name}\`: label its Cluster (e.g. \`gpu-configs: ${workload.name}\`), then run the bootstrap again — it delivers them with a ClusterResourceSet selecting that label.`,
    ];
  }
  const path = deliveryPath(gpuKustomizationPath);
  await writeBootstrapFiles(staged, [
    {
      path,
      content: renderDelivery(
        deliveryResourceSet(workload, carried),
        configMaps,
      ),
      what: `the ClusterResourceSet that carries the GPU ConfigMaps to the workload cluster \`${workload.name}\``,
      remedy: 'Move it, then run the bootstrap again.',
    },
  ]);
  const kustomization = openKustomization(
    gpuKustomizationPath,
    await staged.read(gpuKustomizationPath),
  );
  addResource(kustomization, relativeTo(gpuKustomizationPath, path));
  annotateGenerated(kustomization, LOCAL_CONFIG_ANNOTATION, 'true');
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(gpuKustomizationPath, content);
  return [
    `This folder is applied to the Cluster API management cluster: the GPU ConfigMaps reach the workload cluster \`${workload.name}\` through ClusterResourceSet \`${workload.namespace}/${String(
      deliveryResourceSet(workload).metadata.name,
    )}\` (\`${path}\`), which selects its Cluster by ${Object.entries(
      workload.labels,
    )
      .map(([k, v]) => `\`${k}: ${v}\``)
      .join(
        ', ',
      )}; requests and releases keep it up to date. The management cluster never applies them itself (the GPU kustomization marks what it generates \`config.kubernetes.io/local-config\`, which kustomize leaves out of every build): it has no GPU nodes.`,
  ];
}
