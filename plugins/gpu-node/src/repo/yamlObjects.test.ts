import { parseCount } from './yamlObjects';

describe('parseCount', () => {
  it('reads a count written as the CRDs allow it: integer or quantity string', () => {
    // Karpenter limits are x-kubernetes-int-or-string quantities.
    expect(parseCount(8)).toBe(8);
    expect(parseCount('8')).toBe(8);
    expect(parseCount('1k')).toBe(1000);
    expect(parseCount('8000m')).toBe(8);
    expect(parseCount('2e3')).toBe(2000);
    expect(parseCount('1Ki')).toBe(1024);
  });

  it('is no count when the quantity is no whole number or no quantity', () => {
    expect(parseCount('500m')).toBeUndefined();
    expect(parseCount(2.5)).toBeUndefined();
    expect(parseCount('eight')).toBeUndefined();
    expect(parseCount('8x')).toBeUndefined();
    expect(parseCount(undefined)).toBeUndefined();
  });
});
