import { ConfigReader } from '@backstage/config';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import {
  catalogForOwner,
  checkAllowedChoices,
  checkQuota,
  normalizeOwnerRef,
  ruleForOwner,
} from './gpuPolicy';
import { readGpuPolicy } from '../config/readGpuPolicy';

const policy = readGpuPolicy(
  new ConfigReader({
    defaults: {
      allowedModels: ['t4', 'a10g'],
      allowedSharingModes: ['time-slicing', 'mps'],
      gpuQuota: 2,
    },
    groups: [
      {
        owner: 'ml-platform',
        allowedModels: ['t4', 'a10g', 'a100-40gb'],
        allowedSharingModes: ['exclusive', 'time-slicing', 'mps', 'mig'],
        gpuQuota: 8,
      },
      {
        owner: 'group:default/research',
        gpuQuota: 1.5,
        kueue: { borrowingLimit: 1, lendingLimit: 0.5 },
      },
    ],
  }),
);

describe('gpu policy', () => {
  it('normalises owner refs so every spelling hits the same rule', () => {
    expect(normalizeOwnerRef('ml-platform')).toBe('group:default/ml-platform');
    expect(normalizeOwnerRef('group:ml-platform')).toBe(
      'group:default/ml-platform',
    );
    expect(normalizeOwnerRef('user:default/jane')).toBe('user:default/jane');
  });

  it('lets a group rule override the defaults field by field', () => {
    expect(ruleForOwner(policy, 'group:default/ml-platform').gpuQuota).toBe(8);
    const research = ruleForOwner(policy, 'research');
    expect(research.gpuQuota).toBe(1.5);
    expect(research.allowedModels).toEqual(['t4', 'a10g']);
    expect(ruleForOwner(policy, 'group:default/other').gpuQuota).toBe(2);
  });

  it("reads a group's Kueue cohort limits, in GPUs", () => {
    expect(ruleForOwner(policy, 'research').kueue).toEqual({
      borrowingLimit: 1,
      lendingLimit: 0.5,
    });
    expect(ruleForOwner(policy, 'ml-platform').kueue).toBeUndefined();
  });

  it('rejects a model and a sharing mode the owner may not use, naming the field', () => {
    const issues = checkAllowedChoices(policy, {
      owner: 'group:default/research',
      model: 'a100-40gb',
      sharing: 'mig',
    });
    expect(issues.map(i => [i.path, i.rule])).toEqual([
      ['spec.gpu.model', 'policy-model'],
      ['spec.gpu.sharing', 'policy-sharing'],
    ]);
    expect(issues[0].message).toContain('allowed: t4, a10g');
    expect(
      checkAllowedChoices(policy, {
        owner: 'ml-platform',
        model: 'a100-40gb',
        sharing: 'mig',
      }),
    ).toEqual([]);
  });

  it('says by how much a request exceeds the quota on its cluster', () => {
    const use = {
      owner: 'group:default/research',
      cluster: 'dev',
      used: 1,
      requested: 0.75,
      quota: ruleForOwner(policy, 'research').gpuQuota,
    };
    const issues = checkQuota(use);
    expect(issues).toEqual([
      {
        path: 'spec.gpu.replicas',
        rule: 'policy-quota',
        message:
          'GPU quota exceeded for group:default/research on dev by 0.25 GPU: quota 1.5, already used 1, this request needs 0.75 (physical-GPU equivalents)',
      },
    ]);
    expect(checkQuota({ ...use, requested: 0.5 })).toEqual([]);
  });

  it('has no quota when no rule sets one', () => {
    expect(ruleForOwner(readGpuPolicy(undefined), 'anyone').gpuQuota).toBe(
      undefined,
    );
    expect(
      checkQuota({
        owner: 'group:default/anyone',
        cluster: 'dev',
        used: 100,
        requested: 100,
      }),
    ).toEqual([]);
  });

  it('fails at start-up on an unknown sharing mode in config', () => {
    expect(() =>
      readGpuPolicy(
        new ConfigReader({ defaults: { allowedSharingModes: ['timeslice'] } }),
      ),
    ).toThrow(/unknown sharing mode\(s\) timeslice/);
  });
});

describe('catalogForOwner', () => {
  const catalog = {
    models: [
      { id: 't4' },
      { id: 'a10g' },
      { id: 'a100-40gb' },
    ] as unknown as GpuCatalog['models'],
    instanceTypes: [
      { name: 'g4dn.xlarge', gpuModel: 't4' },
      { name: 'p4d.24xlarge', gpuModel: 'a100-40gb' },
    ] as unknown as GpuCatalog['instanceTypes'],
  };

  it('keeps only the models (and their machines) the owner may use', () => {
    const restricted = catalogForOwner(policy, 'group:default/web', catalog);
    expect(restricted.models.map(m => m.id)).toEqual(['t4', 'a10g']);
    expect(restricted.instanceTypes.map(t => t.name)).toEqual(['g4dn.xlarge']);
  });

  it('returns the catalog unchanged without an allowedModels rule', () => {
    expect(catalogForOwner(readGpuPolicy(undefined), 'anyone', catalog)).toBe(
      catalog,
    );
  });
});
