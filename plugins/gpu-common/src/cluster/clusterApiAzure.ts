/**
 * The `clusterApi.azure` profile key: the Azure VM of a Cluster API
 * cluster's GPU pools (CAPZ).
 */
import { z } from 'zod';
import { nonEmpty } from './profileFields';

/**
 * Azure machine defaults of the GPU pools (CAPZ v1.26.0 `AzureMachineTemplate`
 * v1beta1 `spec.template.spec`; the VM size comes from the plan). Every field
 * has CAPZ's GPU flavor's value as its default
 * (kubernetes-sigs/cluster-api-provider-azure v1.26.0
 * `templates/flavors/nvidia-gpu/machine-deployment.yaml`).
 *
 * @public
 */
export interface ClusterApiAzureSettings {
  /** OS disk size (`osDisk.diskSizeGB`); default 128, room for the NVIDIA driver and toolkit images. */
  osDiskSizeGB?: number;
  /** OS disk type (`osDisk.managedDisk.storageAccountType`); default `Premium_LRS`. */
  osDiskStorageAccountType?: string;
  /** Base64 OpenSSH public key of the nodes (`sshPublicKey`); else none. */
  sshPublicKey?: string;
}

export const azureSettingsSchema = z.strictObject({
  // Azure's managed OS disks are 1 to 4095 GiB.
  osDiskSizeGB: z.number().int().min(1).max(4095).optional(),
  osDiskStorageAccountType: nonEmpty.optional(),
  sshPublicKey: nonEmpty.optional(),
});
