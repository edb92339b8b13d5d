/**
 * The `clusterApi.aws` profile key: the EC2 instance of a Cluster API
 * cluster's GPU pools (CAPA).
 */
import { z } from 'zod';
import { nonEmpty } from './profileFields';

/**
 * EC2 machine defaults of the GPU pools (CAPA v2.11.1 `AWSMachineTemplate`
 * v1beta2 `spec.template.spec`; the instance type comes from the plan).
 * The root volume defaults to CAPA's GPU test flavor's (100 GiB gp2,
 * kubernetes-sigs/cluster-api-provider-aws v2.11.1
 * `test/e2e/data/infrastructure-aws/withoutclusterclass/kustomize_sources/gpu/patches/gpu-instance-type.yaml`).
 *
 * @public
 */
export interface ClusterApiAwsSettings {
  /** IAM instance profile of the nodes (`iamInstanceProfile`), e.g. CAPA's `nodes.cluster-api-provider-aws.sigs.k8s.io`. */
  iamInstanceProfile: string;
  /** EC2 key pair of the nodes (`sshKeyName`). */
  sshKeyName?: string;
  /** Root volume size in GiB (`rootVolume.size`); default 100. */
  rootVolumeGiB?: number;
  /** Root volume type (`rootVolume.type`, an EBS volume type); default `gp2`. */
  rootVolumeType?: 'standard' | 'io1' | 'io2' | 'gp2' | 'gp3' | 'sc1' | 'st1';
}

export const awsSettingsSchema = z.strictObject({
  iamInstanceProfile: nonEmpty,
  sshKeyName: nonEmpty.optional(),
  // The CRD's minimum (CAPA v2.11.1 `rootVolume.size`: 8).
  rootVolumeGiB: z.number().int().min(8).max(16384).optional(),
  rootVolumeType: z
    .enum(['standard', 'io1', 'io2', 'gp2', 'gp3', 'sc1', 'st1'])
    .optional(),
});
