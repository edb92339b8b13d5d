import { profileEnablesDra } from './draSettings';

describe('profileEnablesDra', () => {
  it.each([
    [{ dra: {}, kubernetesVersion: '1.34' }, true],
    [{ dra: { consumableShares: 4 }, kubernetesVersion: '1.36.2' }, true],
    [{ dra: {}, kubernetesVersion: '1.33.9' }, false],
    [{ dra: {} }, false],
    [{ kubernetesVersion: '1.36.2' }, false],
  ])('%j → %s', (cluster, enabled) => {
    expect(profileEnablesDra(cluster)).toBe(enabled);
  });
});
