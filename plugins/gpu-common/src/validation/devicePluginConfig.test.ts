import { buildDevicePluginConfig } from '../manifests/devicePluginConfig';
import { mpsL4Plan, timeSlicingT4Plan } from '../manifests/__testUtils__/fixtures';
import { checkDevicePluginConfig } from './devicePluginConfig';

const timeSlicing = () =>
  structuredClone(buildDevicePluginConfig(timeSlicingT4Plan)!.config) as any;
const mps = () =>
  structuredClone(buildDevicePluginConfig(mpsL4Plan)!.config) as any;
const rules = (config: unknown, options = {}) =>
  checkDevicePluginConfig(config, options).map(f => `${f.path}:${f.rule}`);

describe('checkDevicePluginConfig', () => {
  it('finds nothing in generated time-slicing and MPS configs', () => {
    expect(checkDevicePluginConfig(timeSlicing())).toEqual([]);
    expect(checkDevicePluginConfig(mps(), { mpsMaxReplicas: 48 })).toEqual([]);
  });

  it('accepts only version v1', () => {
    expect(rules({ ...timeSlicing(), version: 'v2' })).toEqual([
      'version:version',
    ]);
  });

  it('reports both strategies at once (MPS would silently win) and neither', () => {
    const both = timeSlicing();
    both.sharing.mps = mps().sharing.mps;
    expect(rules(both)).toContain('sharing:one-sharing-strategy');
    expect(rules({ version: 'v1' })).toEqual(['sharing:required']);
    expect(rules({ version: 'v1' }, { requireSharing: false })).toEqual([]);
  });

  it('requires non-empty resources with name and replicas >= 2', () => {
    const empty = timeSlicing();
    empty.sharing.timeSlicing.resources = [];
    expect(rules(empty)).toEqual([
      'sharing.timeSlicing.resources:resources-empty',
    ]);
    const one = timeSlicing();
    one.sharing.timeSlicing.resources = [
      { name: 'nvidia.com/gpu', replicas: 1 },
      { replicas: 2 },
      { name: 'nvidia.com/gpu' },
    ];
    expect(rules(one)).toEqual([
      'sharing.timeSlicing.resources[0].replicas:min-replicas',
      'sharing.timeSlicing.resources[1].name:required',
      'sharing.timeSlicing.resources[2].replicas:required',
    ]);
  });

  it('checks resource names like the plugin (prefix added, <= 63, DNS-1123 subdomain)', () => {
    const config = timeSlicing();
    config.sharing.timeSlicing.resources = [
      { name: 'gpu', replicas: 2 },
      { name: 'nvidia.com/GPU_X', replicas: 2 },
      { name: `nvidia.com/${'a'.repeat(60)}`, replicas: 2 },
    ];
    expect(rules(config)).toEqual([
      'sharing.timeSlicing.resources[1].name:resource-name',
      'sharing.timeSlicing.resources[2].name:resource-name',
    ]);
  });

  it('caps MPS replicas at the model limit', () => {
    const config = mps();
    config.sharing.mps.resources[0].replicas = 20;
    expect(rules(config, { mpsMaxReplicas: 48 })).toEqual([]);
    expect(rules(config, { mpsMaxReplicas: 16 })).toEqual([
      'sharing.mps.resources[0].replicas:mps-max-replicas',
    ]);
    config.sharing.mps.resources[0].replicas = 49;
    expect(rules(config)).toEqual([
      'sharing.mps.resources[0].replicas:mps-max-replicas',
    ]);
  });

  it('rejects MPS with migStrategy mixed, in flags or from the ClusterPolicy', () => {
    const config = mps();
    config.flags.migStrategy = 'mixed';
    expect(rules(config)).toEqual(['flags.migStrategy:mps-mig-mixed']);
    expect(rules(mps(), { effectiveMigStrategy: 'mixed' })).toEqual([
      'sharing.mps:mps-mig-mixed',
    ]);
    // time-slicing does not care
    expect(rules(timeSlicing(), { effectiveMigStrategy: 'mixed' })).toEqual([]);
  });

  it('reports keys the plugin silently ignores, at every known level', () => {
    const config = timeSlicing();
    config.renameByDefault = true;
    config.flags.renameByDefault = true; // issue #1433: wrong level, dropped
    config.sharing.timeSlicing.replicas = 4;
    config.sharing.timeSlicing.resources[0].rename = 'my-gpu';
    config.sharing.timeSlicing.resources[0].devices = [0, 1];
    expect(rules(config)).toEqual([
      'renameByDefault:unknown-key',
      'flags.renameByDefault:unknown-key',
      'sharing.timeSlicing.replicas:unknown-key',
      'sharing.timeSlicing.resources[0].rename:ignored-field',
      'sharing.timeSlicing.resources[0].devices:ignored-field',
    ]);
  });

  it('checks flag enums and imex channels', () => {
    const config = timeSlicing();
    config.flags.migStrategy = 'dual';
    config.flags.plugin = {
      deviceIDStrategy: 'serial',
      deviceListStrategy: ['envvar', 'files'],
    };
    config.imex = { channelIDs: [1] };
    expect(rules(config)).toEqual([
      'flags.migStrategy:enum',
      'flags.plugin.deviceIDStrategy:enum',
      'flags.plugin.deviceListStrategy[1]:enum',
      'imex.channelIDs:imex-channels',
    ]);
  });

  it('rejects a non-boolean renameByDefault and a non-map config', () => {
    const config = timeSlicing();
    config.sharing.timeSlicing.renameByDefault = 'true';
    expect(rules(config)).toEqual(['sharing.timeSlicing.renameByDefault:type']);
    expect(rules('version: v1')).toEqual([':type']);
  });
});
