import { ConfigReader } from '@backstage/config';
import {
  builtinCatalog,
  clusterCapabilities,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { readGpuPolicy } from '../config/readGpuPolicy';
import { capabilitiesForOwner } from './ownerCapabilities';

const policy = readGpuPolicy(
  new ConfigReader({
    defaults: { allowedSharingModes: ['exclusive', 'time-slicing', 'mps'] },
    groups: [{ owner: 'research', allowedModels: ['t4', 'a100-40gb'] }],
  }),
);
const dev = clusterCapabilities(
  resolveClusterProfile({ name: 'dev' }),
  builtinCatalog,
);

describe('capabilitiesForOwner', () => {
  it('adds what the owner’s policy forbids, in the policy’s words, after what the cluster cannot run', () => {
    const research = capabilitiesForOwner(
      dev,
      policy,
      'group:default/research',
    );
    expect(
      research.sharingModes.map(m => [m.mode, m.unavailable?.rule]),
    ).toEqual([
      ['exclusive', undefined],
      ['time-slicing', undefined],
      // The cluster's reason comes first: MPS cannot run on dev at all.
      ['mps', 'mps-mig-strategy'],
      ['mig', 'policy-sharing'],
      ['dra', 'policy-sharing'],
    ]);
    expect(research.sharingModes[3].unavailable!.reason).toBe(
      'Sharing mode mig is not allowed for group:default/research; allowed: exclusive, time-slicing, mps',
    );
    const models = research.models.filter(m => !m.unavailable).map(m => m.id);
    expect(models).toEqual(['t4', 'a100-40gb']);
    expect(research.models.find(m => m.id === 'l4')!.unavailable).toEqual({
      path: 'spec.gpu.model',
      rule: 'policy-model',
      reason:
        'GPU model l4 is not allowed for group:default/research; allowed: t4, a100-40gb',
    });
  });

  it('leaves the cluster’s capabilities alone for an owner without restrictions on models', () => {
    const web = capabilitiesForOwner(dev, policy, 'group:default/web');
    expect(web.models).toEqual(dev.models);
  });
});
