import { buildDevicePluginConfig } from './devicePluginConfig';
import {
  draL4Plan,
  exclusiveT4Plan,
  migA100Plan,
  mpsL4Plan,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';

describe('buildDevicePluginConfig', () => {
  it('builds a time-slicing config named by the plan', () => {
    expect(buildDevicePluginConfig(timeSlicingT4Plan)).toEqual({
      name: 'ts-4-1a2b3c4d',
      config: {
        version: 'v1',
        flags: { migStrategy: 'none' },
        sharing: {
          timeSlicing: {
            renameByDefault: true,
            failRequestsGreaterThanOne: true,
            resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
          },
        },
      },
    });
  });

  it('builds an MPS config with migStrategy none and the MPS root', () => {
    const built = buildDevicePluginConfig(mpsL4Plan)!;
    expect(built.name).toBe('mps-4-9f8e7d6c');
    expect(built.config.flags).toEqual({
      migStrategy: 'none',
      mpsRoot: '/run/nvidia/mps',
    });
    expect(built.config.sharing).toEqual({
      mps: {
        renameByDefault: true,
        failRequestsGreaterThanOne: true,
        resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
      },
    });
  });

  it('returns nothing for modes without a device-plugin config', () => {
    expect(buildDevicePluginConfig(exclusiveT4Plan)).toBeUndefined();
    expect(buildDevicePluginConfig(migA100Plan)).toBeUndefined();
    expect(buildDevicePluginConfig(draL4Plan)).toBeUndefined();
  });

  it('refuses a shared plan without a config name', () => {
    const plan = {
      ...timeSlicingT4Plan,
      sharing: { mode: 'time-slicing' as const, slicesPerGpu: 4 },
    };
    expect(() => buildDevicePluginConfig(plan)).toThrow(/deviceConfigName/);
  });
});
