import {
  infrastructureSettingsOf,
  type ClusterApiSettings,
} from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { poolTemplate } from './poolTemplate';

/**
 * The EC2 instance of a pool's nodes (CAPA v2.11.1 `AWSMachineTemplate`
 * v1beta2): the instance type the plan priced its nodes on
 * (`plan.nodes.instanceType`, a catalog `aws` type; one type per
 * MachineDeployment), the profile's instance profile and key, and a root
 * volume large enough for the NVIDIA driver and toolkit images (CAPA's GPU
 * flavor's 100 GiB gp2, kubernetes-sigs/cluster-api-provider-aws v2.11.1
 * `test/e2e/data/infrastructure-aws/withoutclusterclass/kustomize_sources/gpu/patches/gpu-instance-type.yaml`).
 * The AMI, subnet and security groups come from the AWSCluster's defaults.
 */
export function buildAwsMachineTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
): KubernetesObject {
  const aws = infrastructureSettingsOf(settings, 'aws');
  const machine: Record<string, unknown> = {
    instanceType: plan.nodes.instanceType,
    iamInstanceProfile: aws.iamInstanceProfile,
    rootVolume: {
      size: aws.rootVolumeGiB ?? 100,
      type: aws.rootVolumeType ?? 'gp2',
    },
  };
  if (aws.sshKeyName) machine.sshKeyName = aws.sshKeyName;
  return poolTemplate(CLUSTER_API.awsMachineTemplate, plan, cluster, settings, {
    template: { spec: machine },
  });
}
