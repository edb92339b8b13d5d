import { mpsMaxReplicasFor, parseComputeCapability } from './mps';

describe('mpsMaxReplicasFor', () => {
  it.each([
    ['7.0', 16],
    ['7.2', 16],
    ['7.5', 48],
    ['8.0', 48],
    ['8.9', 48],
    ['10.0', 48],
    ['12.0', 48],
    ['6.1', 16],
  ])('compute capability %s allows %i MPS clients', (cc, expected) => {
    expect(mpsMaxReplicasFor(cc)).toBe(expected);
  });

  it('compares major/minor numerically, not as text', () => {
    expect(parseComputeCapability('10.0')).toEqual({ major: 10, minor: 0 });
  });

  it('rejects malformed compute capabilities', () => {
    expect(() => mpsMaxReplicasFor('8')).toThrow(/major.*minor/);
    expect(() => mpsMaxReplicasFor('v8.0')).toThrow();
  });
});
