/**
 * Cluster API on AWS (CAPA): each sharing mode the profile allows, planned
 * on the built-in catalog's EC2 instance types and rendered; every pool
 * object checked against the CRDs of Cluster API v1.14.0 and CAPA v2.11.1
 * (AWSMachineTemplate v1beta2, its storage version).
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
  clusterName: 'ml-aws',
  namespace: 'default',
  infrastructure: 'aws',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
  kubeletExtraArgs: { 'cloud-provider': 'external' },
  aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
};

const capa = resolveClusterProfile({
  name: 'ml-aws',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'nvidia.com/gpu',
  clusterApi,
});
const capaAutoscaled = resolveClusterProfile({
  name: 'ml-aws-auto',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: { ...clusterApi, autoscaler: true },
});

describe('Cluster API on AWS: plan and render', () => {
  for (const cluster of [capa, capaAutoscaled]) {
    for (const [model, sharing, gpu] of CLUSTER_API_MODE_REQUESTS) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPA v2.11.1`, () => {
        const { thePlan, objects } = renderPool(
          cluster,
          builtinCatalog,
          model,
          sharing,
          gpu,
        );
        const instanceType = builtinCatalog.instanceTypes.find(
          t => t.name === thePlan.nodes.instanceType,
        )!;
        // Only EC2 instance types, never another cloud's machine.
        expect(instanceType.provider).toBe('aws');
        const template = expectClusterApiPool(
          objects,
          thePlan,
          cluster,
          'AWSMachineTemplate',
          instanceType,
        );
        expect(template.apiVersion).toBe(
          'infrastructure.cluster.x-k8s.io/v1beta2',
        );
        // The planned type, the profile's instance profile, the GPU flavor's root volume.
        expect(template.spec.template.spec).toEqual({
          instanceType: instanceType.name,
          iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
          rootVolume: { size: 100, type: 'gp2' },
        });
      });
    }
  }

  it('takes the disk and key from the profile, and names the template by them', () => {
    const withKey = resolveClusterProfile({
      name: 'ml-aws',
      provider: 'cluster-api',
      migStrategy: 'single',
      clusterApi: {
        ...clusterApi,
        aws: {
          iamInstanceProfile: 'gpu-nodes',
          sshKeyName: 'ml-ops',
          rootVolumeGiB: 200,
          rootVolumeType: 'gp3',
        },
      },
    });
    const template = (cluster: typeof capa) =>
      byKind(
        renderPool(cluster, builtinCatalog, 't4', 'exclusive', {
          replicas: 1,
          vramGiB: 8,
        }).objects,
        'AWSMachineTemplate',
      );
    expect(template(withKey).spec.template.spec).toMatchObject({
      iamInstanceProfile: 'gpu-nodes',
      sshKeyName: 'ml-ops',
      rootVolume: { size: 200, type: 'gp3' },
    });
    expect(template(withKey).metadata.name).not.toBe(
      template(capa).metadata.name,
    );
  });

  it('checks the objects for real: the CRD refuses what CAPA would', () => {
    const template = byKind(
      renderPool(capa, builtinCatalog, 't4', 'exclusive', {
        replicas: 1,
        vramGiB: 8,
      }).objects,
      'AWSMachineTemplate',
    );
    const broken = JSON.parse(JSON.stringify(template));
    broken.spec.template.spec.rootVolume.size = 4;
    delete broken.spec.template.spec.instanceType;
    expect(
      crdSchemaErrors(broken, CLUSTER_API_CRD_FILES.AWSMachineTemplate),
    ).toEqual([
      expect.stringMatching(
        /^\/spec\/template\/spec must have required property 'instanceType'/,
      ),
      expect.stringMatching(
        /^\/spec\/template\/spec\/rootVolume\/size must be >= 8/,
      ),
    ]);
  });

  it("offers the catalog's EC2 GPU models and names the infrastructure", () => {
    const capabilities = clusterCapabilities(capa, builtinCatalog);
    const offered = capabilities.models
      .filter(m => !m.unavailable)
      .map(m => m.id);
    expect(offered).toEqual(
      expect.arrayContaining(['t4', 'a10g', 'a100-40gb']),
    );
    expect(capabilities.label).toBe('ml-aws — Cluster API (AWS)');
  });
});

describe('Cluster API profile on AWS', () => {
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

  it('needs the aws settings object and its instance profile, and refuses another infrastructure’s', () => {
    expect(issues(profile({ aws: undefined }))).toEqual([
      'clusterApi.aws [infrastructure-settings]: is required for infrastructure "aws"',
    ]);
    expect(issues(profile({ aws: {} }))).toEqual([
      'clusterApi.aws.iamInstanceProfile [required]: is required',
    ]);
    expect(issues(profile({ azure: {} }))).toEqual([
      'clusterApi.azure [infrastructure-settings]: applies only to infrastructure "azure", not "aws"; set aws instead',
    ]);
  });

  it('names each bad field', () => {
    expect(
      issues(
        profile({
          aws: {
            iamInstanceProfile: 'nodes',
            rootVolumeType: 'ssd',
            instanceType: 'g4dn.xlarge',
          },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^clusterApi\.aws\.rootVolumeType \[enum\]/),
        'clusterApi.aws.instanceType [unknown-key]: unknown key "instanceType" is not allowed here',
      ]),
    );
  });
});
