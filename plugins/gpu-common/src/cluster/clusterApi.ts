/**
 * The profile part of a Cluster API cluster (`provider: cluster-api`): what
 * its GPU pools' MachineDeployments and machine templates need that the
 * planner does not decide. Each infrastructure provider has its own settings
 * object, and the profile carries exactly the one its `infrastructure` names:
 * `openStack` (CAPO), `vSphere` (CAPV), `metal3` (CAPM3, bare metal),
 * `azure` (CAPZ) or `aws` (CAPA).
 */
import { z } from 'zod';
import { GpuInputError } from '../errors';
import {
  openStackSettingsSchema,
  type ClusterApiOpenStackSettings,
} from './clusterApiOpenStack';
import {
  metal3SettingsSchema,
  type ClusterApiMetal3Settings,
} from './clusterApiMetal3';
import {
  vSphereSettingsSchema,
  type ClusterApiVSphereSettings,
} from './clusterApiVSphere';
import { awsSettingsSchema, type ClusterApiAwsSettings } from './clusterApiAws';
import {
  azureSettingsSchema,
  type ClusterApiAzureSettings,
} from './clusterApiAzure';
import { dns1123Label } from './profileFields';

/**
 * The Cluster API infrastructure provider that launches the GPU nodes.
 *
 * @public
 */
export type ClusterApiInfrastructure =
  'openstack' | 'vsphere' | 'metal3' | 'azure' | 'aws';

/**
 * The settings key each infrastructure reads: the schema requires it and
 * refuses the others, and the template builders read it.
 */
export const CLUSTER_API_SETTINGS_KEYS = {
  openstack: 'openStack',
  vsphere: 'vSphere',
  metal3: 'metal3',
  azure: 'azure',
  aws: 'aws',
} as const;

/**
 * Cluster API settings of a cluster profile.
 *
 * @public
 */
export interface ClusterApiSettings {
  /** The Cluster object's name (`spec.clusterName` of every MachineDeployment). */
  clusterName: string;
  /** Namespace of the Cluster object, where its MachineDeployments and templates live. */
  namespace: string;
  /** The infrastructure provider; its settings object is the one required beside it. */
  infrastructure: ClusterApiInfrastructure;
  /** Kubernetes version of the nodes (`spec.template.spec.version`), e.g. `v1.33.1`. */
  kubernetesVersion: string;
  /**
   * The Cluster API cluster autoscaler manages the GPU MachineDeployments:
   * pools carry its min/max size and scale-from-zero capacity annotations
   * instead of `spec.replicas`. Off: replicas are the planned node count.
   */
  autoscaler: boolean;
  /** Further kubelet flags of the GPU nodes (e.g. `provider-id`), beside `node-labels`. */
  kubeletExtraArgs?: Record<string, string>;
  /** Infrastructure `openstack`: the OpenStack machine of the GPU nodes, besides the flavor the plan picks. */
  openStack?: ClusterApiOpenStackSettings;
  /** Infrastructure `vsphere`: where the GPU VMs are cloned, besides the machine the plan picks. */
  vSphere?: ClusterApiVSphereSettings;
  /** Infrastructure `metal3`: which hosts the GPU pools claim and their image, besides the host class the plan picks. */
  metal3?: ClusterApiMetal3Settings;
  /** Infrastructure `azure`: the Azure VM's disk and key, besides the VM size the plan picks. */
  azure?: ClusterApiAzureSettings;
  /** Infrastructure `aws`: the EC2 instance's profile, key and root volume, besides the instance type the plan picks. */
  aws?: ClusterApiAwsSettings;
}

/**
 * The `clusterApi` profile key: strict, every field named in its errors.
 *
 * @public
 */
export const clusterApiSchema = z
  .strictObject({
    // spec.clusterName is at most 63 characters (CAPI v1.14.0 MachineDeployment CRD).
    clusterName: dns1123Label,
    namespace: dns1123Label,
    infrastructure: z.enum(['openstack', 'vsphere', 'metal3', 'azure', 'aws']),
    kubernetesVersion: z
      .string()
      .regex(/^v\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/, {
        message: 'must be a Kubernetes version such as "v1.33.1"',
      }),
    autoscaler: z.boolean(),
    kubeletExtraArgs: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
          message:
            'must be a kubelet flag name without dashes, e.g. "provider-id"',
        }),
        z.string().max(1024),
      )
      .refine(args => !('node-labels' in args), {
        message:
          'must not set node-labels: the product writes the pool labels there',
        params: { rule: 'node-labels-reserved' },
      })
      .optional(),
    openStack: openStackSettingsSchema.optional(),
    vSphere: vSphereSettingsSchema.optional(),
    metal3: metal3SettingsSchema.optional(),
    azure: azureSettingsSchema.optional(),
    aws: awsSettingsSchema.optional(),
  })
  // The settings object must be the infrastructure's: another one would be
  // silently ignored, and a missing one leaves its templates unbuildable.
  .superRefine((settings, ctx) => {
    const wanted = CLUSTER_API_SETTINGS_KEYS[settings.infrastructure];
    for (const [infrastructure, key] of Object.entries(
      CLUSTER_API_SETTINGS_KEYS,
    )) {
      const given = settings[key] !== undefined;
      if (key === wanted && !given) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `is required for infrastructure "${settings.infrastructure}"`,
          params: { rule: 'infrastructure-settings' },
        });
      }
      if (key !== wanted && given) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `applies only to infrastructure "${infrastructure}", not "${settings.infrastructure}"; set ${wanted} instead`,
          params: { rule: 'infrastructure-settings' },
        });
      }
    }
  });

/**
 * The settings object of the cluster's infrastructure (the profile schema
 * guarantees it; a profile built in code without it is refused here).
 */
export function infrastructureSettingsOf<I extends ClusterApiInfrastructure>(
  settings: ClusterApiSettings,
  infrastructure: I,
): NonNullable<ClusterApiSettings[(typeof CLUSTER_API_SETTINGS_KEYS)[I]]> {
  const key = CLUSTER_API_SETTINGS_KEYS[infrastructure];
  const found = settings[key];
  if (settings.infrastructure !== infrastructure || found === undefined) {
    throw new GpuInputError([
      {
        path: `clusterApi.${key}`,
        rule: 'infrastructure-settings',
        message:
          settings.infrastructure !== infrastructure
            ? `cluster ${settings.clusterName} has infrastructure "${settings.infrastructure}", not "${infrastructure}"`
            : `cluster ${settings.clusterName} has infrastructure "${infrastructure}" but no clusterApi.${key} settings`,
      },
    ]);
  }
  return found as NonNullable<
    ClusterApiSettings[(typeof CLUSTER_API_SETTINGS_KEYS)[I]]
  >;
}
