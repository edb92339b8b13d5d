/**
 * Cluster API on the clouds, one table: Azure (CAPZ) and AWS (CAPA). Each
 * sharing mode the profile allows, planned on the built-in catalog's
 * machines of that cloud and rendered; every pool object checked against
 * the CRDs of Cluster API v1.14.0 and of the provider (CAPZ v1.26.0
 * AzureMachineTemplate v1beta1, CAPA v2.11.1 AWSMachineTemplate v1beta2,
 * its storage version); the profile's settings of each infrastructure.
 */
import { builtinCatalog } from '../catalog/builtin';
import type { InstanceType } from '../catalog/types';
import {
  clusterCapabilities,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { GpuInputError } from '../errors';
import { crdSchemaErrors } from '../manifests/__testUtils__/crdSchemas';
import {
  byKind,
  CLUSTER_API_CRD_FILES,
  CLUSTER_API_MODE_REQUESTS,
  expectClusterApiPool,
  renderPool,
} from './__testUtils__/clusterApiPool';

interface Cloud {
  title: string;
  provider: string;
  clusterName: string;
  settings: Record<string, unknown>;
  /** The CRD's release, for the test names. */
  crd: string;
  template: 'AzureMachineTemplate' | 'AWSMachineTemplate';
  templateApiVersion: string;
  /** The template spec of a planned machine on the default settings. */
  plannedSpec(machine: InstanceType): Record<string, unknown>;
  /** Settings of the profile's own, and what the template then holds. */
  custom: { settings: Record<string, unknown>; spec: Record<string, unknown> };
  /** A template broken as the provider would refuse it, and the CRD's errors. */
  breakTemplate(spec: Record<string, any>): void;
  crdErrors: RegExp[];
  offered: string[];
  notOffered: string[];
  label: string;
  /** The other cloud's settings key, refused beside this one's. */
  other: [string, unknown];
  /** Issues of settings missing a required field, when the cloud has one. */
  requiredField?: [Record<string, unknown>, string];
  badFields: [Record<string, unknown>, RegExp, string];
}

const CLOUDS: Cloud[] = [
  {
    title: 'Azure',
    provider: 'azure',
    clusterName: 'ml-azure',
    settings: { azure: {} },
    crd: 'CAPZ v1.26.0',
    template: 'AzureMachineTemplate',
    templateApiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    // The planned size on the GPU flavor's OS disk.
    plannedSpec: machine => ({
      vmSize: machine.name,
      osDisk: {
        osType: 'Linux',
        diskSizeGB: 128,
        managedDisk: { storageAccountType: 'Premium_LRS' },
      },
    }),
    custom: {
      settings: {
        azure: {
          osDiskSizeGB: 256,
          osDiskStorageAccountType: 'StandardSSD_LRS',
          sshPublicKey: 'c3NoLXJzYSBBQUFB',
        },
      },
      spec: {
        osDisk: {
          diskSizeGB: 256,
          managedDisk: { storageAccountType: 'StandardSSD_LRS' },
        },
        sshPublicKey: 'c3NoLXJzYSBBQUFB',
      },
    },
    breakTemplate: spec => {
      delete spec.osDisk;
    },
    crdErrors: [/^\/spec\/template\/spec must have required property 'osDisk'/],
    offered: ['t4', 'a100-40gb'],
    notOffered: ['a10g'], // an AWS-only GPU
    label: 'ml-azure — Cluster API (Azure)',
    other: ['aws', { iamInstanceProfile: 'nodes' }],
    badFields: [
      { azure: { osDiskSizeGB: 0, vmSize: 'Standard_NC4as_T4_v3' } },
      /^clusterApi\.azure\.osDiskSizeGB \[/,
      'clusterApi.azure.vmSize [unknown-key]: unknown key "vmSize" is not allowed here',
    ],
  },
  {
    title: 'AWS',
    provider: 'aws',
    clusterName: 'ml-aws',
    settings: {
      aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
    crd: 'CAPA v2.11.1',
    template: 'AWSMachineTemplate',
    templateApiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    // The planned type, the profile's instance profile, the GPU flavor's root volume.
    plannedSpec: machine => ({
      instanceType: machine.name,
      iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
      rootVolume: { size: 100, type: 'gp2' },
    }),
    custom: {
      settings: {
        aws: {
          iamInstanceProfile: 'gpu-nodes',
          sshKeyName: 'ml-ops',
          rootVolumeGiB: 200,
          rootVolumeType: 'gp3',
        },
      },
      spec: {
        iamInstanceProfile: 'gpu-nodes',
        sshKeyName: 'ml-ops',
        rootVolume: { size: 200, type: 'gp3' },
      },
    },
    breakTemplate: spec => {
      spec.rootVolume.size = 4;
      delete spec.instanceType;
    },
    crdErrors: [
      /^\/spec\/template\/spec must have required property 'instanceType'/,
      /^\/spec\/template\/spec\/rootVolume\/size must be >= 8/,
    ],
    offered: ['t4', 'a10g', 'a100-40gb'],
    notOffered: [],
    label: 'ml-aws — Cluster API (AWS)',
    other: ['azure', {}],
    requiredField: [
      { aws: {} },
      'clusterApi.aws.iamInstanceProfile [required]: is required',
    ],
    badFields: [
      {
        aws: {
          iamInstanceProfile: 'nodes',
          rootVolumeType: 'ssd',
          instanceType: 'g4dn.xlarge',
        },
      },
      /^clusterApi\.aws\.rootVolumeType \[enum\]/,
      'clusterApi.aws.instanceType [unknown-key]: unknown key "instanceType" is not allowed here',
    ],
  },
];

describe.each(CLOUDS.map(c => [c.title, c] as const))(
  'Cluster API on %s',
  (_, cloud) => {
    const clusterApi = {
      clusterName: cloud.clusterName,
      namespace: 'default',
      infrastructure: cloud.provider,
      kubernetesVersion: 'v1.33.1',
      autoscaler: false,
      kubeletExtraArgs: { 'cloud-provider': 'external' },
      ...cloud.settings,
    };
    const fixed = resolveClusterProfile({
      name: cloud.clusterName,
      provider: 'cluster-api',
      migStrategy: 'single',
      gpuTaintKey: 'nvidia.com/gpu',
      clusterApi,
    });
    const autoscaled = resolveClusterProfile({
      name: `${cloud.clusterName}-auto`,
      provider: 'cluster-api',
      migStrategy: 'single',
      clusterApi: { ...clusterApi, autoscaler: true },
    });
    const templateOf = (cluster: typeof fixed) =>
      byKind(
        renderPool(cluster, builtinCatalog, 't4', 'exclusive', {
          replicas: 1,
          vramGiB: 8,
        }).objects,
        cloud.template,
      );

    describe('plan and render', () => {
      for (const cluster of [fixed, autoscaled]) {
        for (const [model, sharing, gpu] of CLUSTER_API_MODE_REQUESTS) {
          if (sharingModeUnavailable(cluster, sharing)) continue;
          it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and ${cloud.crd}`, () => {
            const { thePlan, objects } = renderPool(
              cluster,
              builtinCatalog,
              model,
              sharing,
              gpu,
            );
            const machine = builtinCatalog.instanceTypes.find(
              t => t.name === thePlan.nodes.instanceType,
            )!;
            // Only this cloud's machines, never another cloud's.
            expect(machine.provider).toBe(cloud.provider);
            const template = expectClusterApiPool(
              objects,
              thePlan,
              cluster,
              cloud.template,
              machine,
            );
            expect(template.apiVersion).toBe(cloud.templateApiVersion);
            expect(template.spec.template.spec).toEqual(
              cloud.plannedSpec(machine),
            );
          });
        }
      }

      it('takes the machine settings from the profile, and names the template by them', () => {
        const custom = resolveClusterProfile({
          name: cloud.clusterName,
          provider: 'cluster-api',
          migStrategy: 'single',
          clusterApi: { ...clusterApi, ...cloud.custom.settings },
        });
        expect(templateOf(custom).spec.template.spec).toMatchObject(
          cloud.custom.spec,
        );
        expect(templateOf(custom).metadata.name).not.toBe(
          templateOf(fixed).metadata.name,
        );
      });

      it('checks the objects for real: the CRD refuses what the provider would', () => {
        const broken = JSON.parse(JSON.stringify(templateOf(fixed)));
        cloud.breakTemplate(broken.spec.template.spec);
        expect(
          crdSchemaErrors(broken, CLUSTER_API_CRD_FILES[cloud.template]),
        ).toEqual(cloud.crdErrors.map(e => expect.stringMatching(e)));
      });

      it("offers the catalog's GPU models of the cloud and names the infrastructure", () => {
        const capabilities = clusterCapabilities(fixed, builtinCatalog);
        const offered = capabilities.models
          .filter(m => !m.unavailable)
          .map(m => m.id);
        expect(offered).toEqual(expect.arrayContaining(cloud.offered));
        for (const model of cloud.notOffered) {
          expect(offered).not.toContain(model);
        }
        expect(capabilities.label).toBe(cloud.label);
      });
    });

    describe('the profile', () => {
      function issues(override: unknown) {
        try {
          resolveClusterProfile(override);
        } catch (e) {
          expect(e).toBeInstanceOf(GpuInputError);
          return (e as GpuInputError).issues.map(
            i => `${i.path} [${i.rule}]: ${i.message}`,
          );
        }
        return [];
      }
      const profile = (settings: Record<string, unknown>) => ({
        name: 'x',
        provider: 'cluster-api',
        clusterApi: { ...clusterApi, ...settings },
      });

      it('needs its settings object (and its required fields), and refuses another infrastructure’s', () => {
        expect(issues(profile({ [cloud.provider]: undefined }))).toEqual([
          `clusterApi.${cloud.provider} [infrastructure-settings]: is required for infrastructure "${cloud.provider}"`,
        ]);
        if (cloud.requiredField) {
          const [settings, issue] = cloud.requiredField;
          expect(issues(profile(settings))).toEqual([issue]);
        }
        const [other, otherSettings] = cloud.other;
        expect(issues(profile({ [other]: otherSettings }))).toEqual([
          `clusterApi.${other} [infrastructure-settings]: applies only to infrastructure "${other}", not "${cloud.provider}"; set ${cloud.provider} instead`,
        ]);
      });

      it('names each bad field', () => {
        const [settings, pattern, unknownKey] = cloud.badFields;
        expect(issues(profile(settings))).toEqual(
          expect.arrayContaining([expect.stringMatching(pattern), unknownKey]),
        );
      });
    });
  },
);
