/**
 * Cluster API on Azure (CAPZ): each sharing mode the profile allows,
 * planned on the built-in catalog's Azure VM sizes and rendered; every pool
 * object checked against the CRDs of Cluster API v1.14.0 and CAPZ v1.26.0
 * (AzureMachineTemplate v1beta1).
 */
import { builtinCatalog } from '../catalog/builtin';
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

const clusterApi = {
  clusterName: 'ml-azure',
  namespace: 'default',
  infrastructure: 'azure',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
  kubeletExtraArgs: { 'cloud-provider': 'external' },
  azure: {},
};

const capz = resolveClusterProfile({
  name: 'ml-azure',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'nvidia.com/gpu',
  clusterApi,
});
const capzAutoscaled = resolveClusterProfile({
  name: 'ml-azure-auto',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: { ...clusterApi, autoscaler: true },
});

describe('Cluster API on Azure: plan and render', () => {
  for (const cluster of [capz, capzAutoscaled]) {
    for (const [model, sharing, gpu] of CLUSTER_API_MODE_REQUESTS) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPZ v1.26.0`, () => {
        const { thePlan, objects } = renderPool(
          cluster,
          builtinCatalog,
          model,
          sharing,
          gpu,
        );
        const vmSize = builtinCatalog.instanceTypes.find(
          t => t.name === thePlan.nodes.instanceType,
        )!;
        // Only Azure VM sizes, never another cloud's machine.
        expect(vmSize.provider).toBe('azure');
        const template = expectClusterApiPool(
          objects,
          thePlan,
          cluster,
          'AzureMachineTemplate',
          vmSize,
        );
        expect(template.apiVersion).toBe(
          'infrastructure.cluster.x-k8s.io/v1beta1',
        );
        // The planned size on the GPU flavor's OS disk.
        expect(template.spec.template.spec).toEqual({
          vmSize: vmSize.name,
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            managedDisk: { storageAccountType: 'Premium_LRS' },
          },
        });
      });
    }
  }

  it('takes the disk and key from the profile, and names the template by them', () => {
    const withKey = resolveClusterProfile({
      name: 'ml-azure',
      provider: 'cluster-api',
      migStrategy: 'single',
      clusterApi: {
        ...clusterApi,
        azure: {
          osDiskSizeGB: 256,
          osDiskStorageAccountType: 'StandardSSD_LRS',
          sshPublicKey: 'c3NoLXJzYSBBQUFB',
        },
      },
    });
    const template = (cluster: typeof capz) =>
      byKind(
        renderPool(cluster, builtinCatalog, 't4', 'exclusive', {
          replicas: 1,
          vramGiB: 8,
        }).objects,
        'AzureMachineTemplate',
      );
    expect(template(withKey).spec.template.spec).toMatchObject({
      osDisk: {
        diskSizeGB: 256,
        managedDisk: { storageAccountType: 'StandardSSD_LRS' },
      },
      sshPublicKey: 'c3NoLXJzYSBBQUFB',
    });
    expect(template(withKey).metadata.name).not.toBe(
      template(capz).metadata.name,
    );
  });

  it('checks the objects for real: the CRD refuses what CAPZ would', () => {
    const template = byKind(
      renderPool(capz, builtinCatalog, 't4', 'exclusive', {
        replicas: 1,
        vramGiB: 8,
      }).objects,
      'AzureMachineTemplate',
    );
    const broken = JSON.parse(JSON.stringify(template));
    delete broken.spec.template.spec.osDisk;
    expect(
      crdSchemaErrors(broken, CLUSTER_API_CRD_FILES.AzureMachineTemplate),
    ).toEqual([
      expect.stringMatching(
        /^\/spec\/template\/spec must have required property 'osDisk'/,
      ),
    ]);
  });

  it("offers the catalog's Azure GPU models and names the infrastructure", () => {
    const capabilities = clusterCapabilities(capz, builtinCatalog);
    const offered = capabilities.models
      .filter(m => !m.unavailable)
      .map(m => m.id);
    expect(offered).toEqual(expect.arrayContaining(['t4', 'a100-40gb']));
    expect(offered).not.toContain('a10g'); // an AWS-only GPU
    expect(capabilities.label).toBe('ml-azure — Cluster API (Azure)');
  });
});

describe('Cluster API profile on Azure', () => {
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

  it('needs the azure settings object, and refuses another infrastructure’s', () => {
    expect(issues(profile({ azure: undefined }))).toEqual([
      'clusterApi.azure [infrastructure-settings]: is required for infrastructure "azure"',
    ]);
    expect(issues(profile({ aws: { iamInstanceProfile: 'nodes' } }))).toEqual([
      'clusterApi.aws [infrastructure-settings]: applies only to infrastructure "aws", not "azure"; set azure instead',
    ]);
  });

  it('names each bad field', () => {
    expect(
      issues(
        profile({ azure: { osDiskSizeGB: 0, vmSize: 'Standard_NC4as_T4_v3' } }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^clusterApi\.azure\.osDiskSizeGB \[/),
        'clusterApi.azure.vmSize [unknown-key]: unknown key "vmSize" is not allowed here',
      ]),
    );
  });
});
