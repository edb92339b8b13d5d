/**
 * Cluster API on bare metal with Metal3: the platform's GPU host classes,
 * each sharing mode the profile allows, planned and rendered; every pool
 * object checked against the CRDs of Cluster API v1.14.0 (MachineDeployment,
 * KubeadmConfigTemplate: v1beta2) and CAPM3 v1.13.2 (Metal3MachineTemplate
 * v1beta2, its storage version).
 */
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
import { metal3Catalog } from './__testUtils__/metal3HostClasses';

const CRD = CLUSTER_API_CRD_FILES.Metal3MachineTemplate;

const metal3 = {
  hostClassLabel: 'gpu.example.com/host-class',
  image: {
    url: 'http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2',
    checksum:
      'http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2.sha256sum',
    checksumType: 'sha256',
    diskFormat: 'qcow2',
  },
  dataTemplateName: 'ml-metal-workers',
  automatedCleaningMode: 'metadata',
};

const clusterApi = {
  clusterName: 'ml-metal',
  namespace: 'capi-ml-metal',
  infrastructure: 'metal3',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
  kubeletExtraArgs: { 'provider-id': 'metal3://{{ ds.meta_data.providerid }}' },
  metal3,
};

const capm3 = resolveClusterProfile({
  name: 'ml-metal',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'node-role.kubernetes.io/gpu',
  clusterApi,
});
const capm3Mixed = resolveClusterProfile({
  name: 'ml-metal-mixed',
  provider: 'cluster-api',
  migStrategy: 'mixed',
  clusterApi,
});
const capm3Autoscaled = resolveClusterProfile({
  name: 'ml-metal-auto',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: { ...clusterApi, autoscaler: true },
});

describe('Cluster API on Metal3: plan and render', () => {
  for (const cluster of [capm3, capm3Mixed, capm3Autoscaled]) {
    for (const [model, sharing, gpu] of CLUSTER_API_MODE_REQUESTS) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPM3 v1.13.2`, () => {
        const { thePlan, objects } = renderPool(
          cluster,
          metal3Catalog,
          model,
          sharing,
          gpu,
        );
        const hostClass = metal3Catalog.instanceTypes.find(
          t => t.name === thePlan.nodes.instanceType,
        )!;
        // Only the platform's host classes, never a cloud instance type.
        expect(hostClass.provider).toBe('metal3');
        const template = expectClusterApiPool(
          objects,
          thePlan,
          cluster,
          'Metal3MachineTemplate',
          hostClass,
        );
        expect(template.apiVersion).toBe(
          'infrastructure.cluster.x-k8s.io/v1beta2',
        );
        // Hosts of the planned class, provisioned with the profile's image.
        expect(template.spec.template.spec).toEqual({
          hostSelector: {
            matchLabels: { 'gpu.example.com/host-class': hostClass.name },
          },
          image: metal3.image,
          dataTemplate: { name: 'ml-metal-workers' },
          automatedCleaningMode: 'metadata',
        });
        // The host class travels with the template, for the reader.
        expect(template.spec.template.metadata.labels).toEqual({
          'gpu.backstage.io/machine': hostClass.name,
        });
      });
    }
  }

  it('sizes replicas in hosts: 3 × A100 replicas of 30 GiB on one 8-GPU host', () => {
    const { thePlan, objects } = renderPool(
      capm3,
      metal3Catalog,
      'a100-40gb',
      'exclusive',
      { replicas: 3, vramGiB: 30 },
    );
    expect(thePlan.nodes.instanceType).toBe('bm-a100x8');
    expect(byKind(objects, 'MachineDeployment').spec.replicas).toBe(1);
    expect(thePlan.cost.priceKnown).toBe(true); // owned hardware: 0, not unknown
    expect(thePlan.cost.usdPerMonth).toBe(0);
  });

  it('names templates by content: another host class label is a new template', () => {
    const first = renderPool(capm3, metal3Catalog, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 8,
    }).objects;
    const relabelled = resolveClusterProfile({
      name: 'ml-metal',
      provider: 'cluster-api',
      migStrategy: 'single',
      gpuTaintKey: 'node-role.kubernetes.io/gpu',
      clusterApi: {
        ...clusterApi,
        metal3: { ...metal3, hostClassLabel: 'example.com/gpu-class' },
      },
    });
    const other = renderPool(relabelled, metal3Catalog, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 8,
    }).objects;
    const template = (objects: typeof first) =>
      byKind(objects, 'Metal3MachineTemplate');
    expect(template(other).metadata.name).not.toBe(
      template(first).metadata.name,
    );
    expect(template(other).spec.template.spec.hostSelector).toEqual({
      matchLabels: { 'example.com/gpu-class': 'bm-t4x4' },
    });
  });

  it('checks the objects for real: the CRD refuses what CAPM3 would', () => {
    const { objects } = renderPool(capm3, metal3Catalog, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 8,
    });
    const template = byKind(objects, 'Metal3MachineTemplate');
    expect(crdSchemaErrors(template, CRD)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(template));
    // The key CAPM3's docs/api.md example uses, not the CRD's `diskFormat`...
    broken.spec.template.spec.image.format = 'qcow2';
    // ...is pruned, not refused; a checksum type outside the enum and a
    // missing checksum are refused.
    broken.spec.template.spec.image.checksumType = 'sha1';
    delete broken.spec.template.spec.image.checksum;
    expect(crdSchemaErrors(broken, CRD)).toEqual([
      expect.stringMatching(
        /^\/spec\/template\/spec\/image must have required property 'checksum'/,
      ),
      expect.stringMatching(
        /^\/spec\/template\/spec\/image\/checksumType must be equal to one of the allowed values/,
      ),
    ]);
  });

  it("offers only the catalog's metal3 host classes", () => {
    const capabilities = clusterCapabilities(capm3, metal3Catalog);
    expect(
      capabilities.models
        .filter(m => !m.unavailable)
        .map(m => m.id)
        .sort(),
    ).toEqual(['a100-40gb', 't4']);
    expect(capabilities.label).toBe('ml-metal — Cluster API (Metal3)');
  });
});

describe('Cluster API profile on Metal3', () => {
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
  const withMetal3 = (settings: Record<string, unknown>) => ({
    name: 'x',
    provider: 'cluster-api',
    clusterApi: { ...clusterApi, metal3: settings },
  });

  it('keeps what it was given, and needs only the host class label and the image', () => {
    expect(capm3.clusterApi).toEqual(clusterApi);
    expect(
      issues(
        withMetal3({
          hostClassLabel: 'host-class',
          image: { url: 'https://images.example/u.img', checksum: 'abc123' },
        }),
      ),
    ).toEqual([]);
  });

  it('names each bad field and its rule', () => {
    expect(
      issues(
        withMetal3({
          hostClassLabel: 'gpu.example.com/host class',
          image: {
            url: 'images/ubuntu.img',
            checksum: '',
            checksumType: 'sha1',
            diskFormat: 'iso',
            format: 'raw',
          },
          automatedCleaningMode: 'always',
          hostSelector: { matchLabels: { rack: 'a' } },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^clusterApi\.metal3\.hostClassLabel \[label-key\]: must be a label key/,
        ),
        expect.stringMatching(
          /^clusterApi\.metal3\.image\.url \[format\]: must be an absolute URL/,
        ),
        expect.stringMatching(/^clusterApi\.metal3\.image\.checksum \[min\]: /),
        expect.stringMatching(
          /^clusterApi\.metal3\.image\.checksumType \[enum\]: /,
        ),
        expect.stringMatching(
          /^clusterApi\.metal3\.image\.diskFormat \[enum\]: /,
        ),
        'clusterApi.metal3.image.format [unknown-key]: unknown key "format" is not allowed here',
        expect.stringMatching(
          /^clusterApi\.metal3\.automatedCleaningMode \[enum\]: /,
        ),
        'clusterApi.metal3.hostSelector [unknown-key]: unknown key "hostSelector" is not allowed here',
      ]),
    );
    expect(issues(withMetal3({ hostClassLabel: 'host-class' }))).toEqual([
      'clusterApi.metal3.image [required]: is required',
    ]);
  });
});
