import { basePoolName, fitName, freeName, MAX_POOL_NAME } from './poolNaming';
import { plan } from './plan';
import { awsCluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import { canonicalJson, contentHash, fnv1a32 } from './contentHash';

describe('pool naming', () => {
  it('builds the documented names', () => {
    expect(basePoolName('t4', '')).toBe('gpu-t4');
    expect(basePoolName('t4', '-ts4')).toBe('gpu-t4-ts4');
    expect(basePoolName('a100-80gb', '-mig-3g.40gb')).toBe(
      'gpu-a100-80gb-mig-3g.40gb',
    );
    expect(basePoolName('a100-80gb', '-mig-1g.10gb+me')).toBe(
      'gpu-a100-80gb-mig-1g.10gb-me',
    );
  });

  it('cuts over-long names to a valid label value with a hash', () => {
    const long = basePoolName('m'.repeat(63), '-mig-1g.10gb');
    expect(long.length).toBeLessThanOrEqual(MAX_POOL_NAME);
    expect(long).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
    expect(basePoolName('n'.repeat(63), '-mig-1g.10gb')).not.toBe(long);
    expect(fitName('abc', 10)).toBe('abc');
  });

  it('finds the first free name deterministically', () => {
    const taken = new Set(['gpu-t4', 'gpu-t4-2']);
    expect(freeName('gpu-t4', n => taken.has(n))).toBe('gpu-t4-3');
    expect(freeName('gpu-l4', n => taken.has(n))).toBe('gpu-l4');
  });

  it('gives the same plan for the same inputs', () => {
    const request = gpuRequest({
      sharing: 'time-slicing',
      vramGiB: 2,
      replicas: 9,
    });
    expect(plan(request, fixtureCatalog, awsCluster)).toEqual(
      plan(request, fixtureCatalog, awsCluster),
    );
  });
});

describe('content hash', () => {
  it('is FNV-1a 32 bit', () => {
    expect(fnv1a32('')).toBe('811c9dc5');
    expect(fnv1a32('a')).toBe('e40c292c');
    expect(fnv1a32('foobar')).toBe('bf9cf968');
  });

  it('ignores key order but not values', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(
      '{"a":[{"c":3,"d":2}],"b":1}',
    );
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
});
