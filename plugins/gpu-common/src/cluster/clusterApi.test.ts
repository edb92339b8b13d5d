import { GpuInputError } from '../errors';
import { poolProviderOf } from '../providers/poolProviders';
import {
  infrastructureSettingsOf,
  type ClusterApiSettings,
} from './clusterApi';
import { resolveClusterProfile } from './schema';

const common = {
  clusterName: 'ml',
  namespace: 'capi-ml',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
};
const openStack = { imageName: 'ubuntu-2404-kube-v1.33.1' };
const vSphere = {
  template: 'ubuntu-2404-kube-v1.33.1',
  network: { devices: [{ networkName: 'ml-nodes', dhcp4: true }] },
};
const metal3 = {
  hostClassLabel: 'gpu.example.com/host-class',
  image: { url: 'http://images.example/u.img', checksum: 'abc' },
};

function issues(clusterApi: Record<string, unknown>): string[] {
  try {
    resolveClusterProfile({ name: 'ml', provider: 'cluster-api', clusterApi });
  } catch (e) {
    expect(e).toBeInstanceOf(GpuInputError);
    return (e as GpuInputError).issues.map(
      i => `${i.path} [${i.rule}]: ${i.message}`,
    );
  }
  return [];
}

describe('clusterApi infrastructure and its settings object', () => {
  it.each([
    ['openstack', { openStack }],
    ['vsphere', { vSphere }],
    ['metal3', { metal3 }],
  ])('%s takes its own settings object', (infrastructure, settings) => {
    expect(issues({ ...common, infrastructure, ...settings })).toEqual([]);
  });

  it("requires the infrastructure's settings object and refuses another one", () => {
    expect(issues({ ...common, infrastructure: 'vsphere', openStack })).toEqual(
      [
        'clusterApi.openStack [infrastructure-settings]: applies only to infrastructure "openstack", not "vsphere"; set vSphere instead',
        'clusterApi.vSphere [infrastructure-settings]: is required for infrastructure "vsphere"',
      ],
    );
    expect(
      issues({ ...common, infrastructure: 'metal3', metal3, vSphere }),
    ).toEqual([
      'clusterApi.vSphere [infrastructure-settings]: applies only to infrastructure "vsphere", not "metal3"; set metal3 instead',
    ]);
  });

  it('names the infrastructures it knows', () => {
    expect(issues({ ...common, infrastructure: 'gcp', openStack })).toEqual([
      'clusterApi.infrastructure [enum]: must be one of: "openstack", "vsphere", "metal3", "azure", "aws"',
    ]);
  });

  it("gives each infrastructure's clusters its own machines", () => {
    const machines = (infrastructure: string, settings: object) =>
      poolProviderOf(
        resolveClusterProfile({
          name: 'ml',
          provider: 'cluster-api',
          clusterApi: { ...common, infrastructure, ...settings },
        }),
      ).machines;
    expect(machines('openstack', { openStack })).toBe('openstack');
    expect(machines('vsphere', { vSphere })).toBe('vsphere');
    expect(machines('metal3', { metal3 })).toBe('metal3');
  });

  it('refuses a settings object a profile built in code lacks', () => {
    const settings = {
      ...common,
      infrastructure: 'vsphere',
      openStack,
    } as ClusterApiSettings;
    expect(() => infrastructureSettingsOf(settings, 'vsphere')).toThrow(
      'cluster ml has infrastructure "vsphere" but no clusterApi.vSphere settings',
    );
    expect(() => infrastructureSettingsOf(settings, 'openstack')).toThrow(
      'cluster ml has infrastructure "vsphere", not "openstack"',
    );
  });
});
