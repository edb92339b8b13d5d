import { builtinCatalog } from '../catalog/builtin';
import { findModel } from '../catalog/lookup';
import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import { fitMig, type MigFitResult } from './fit';

const model = (id: string): GpuModel => findModel(builtinCatalog, id)!;
const a100 = model('a100-40gb');
const h100 = model('h100-80gb');
const a30 = model('a30');

/** A real placement: every start allowed for its profile, no overlapping slices, counts as asked. */
function expectValidPlacement(
  gpu: GpuModel,
  counts: Record<string, number>,
  result: MigFitResult,
) {
  if (!result.fits) throw new Error(`expected a fit: ${result.reason}`);
  const used = new Array(gpu.mig!.memorySlices).fill(false);
  for (const p of result.placement) {
    const profile = gpu.mig!.profiles.find(x => x.name === p.profile)!;
    expect(profile.startSlots).toContain(p.start);
    expect(p.memorySlices).toBe(profile.memorySlices);
    expect(p.computeSlices).toBe(profile.computeSlices);
    for (let s = p.start; s < p.start + p.memorySlices; s++) {
      expect(used[s]).toBe(false);
      used[s] = true;
    }
  }
  const placed: Record<string, number> = {};
  for (const p of result.placement)
    placed[p.profile] = (placed[p.profile] ?? 0) + 1;
  expect(placed).toEqual(
    Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)),
  );
}

/** The GpuInputError a call throws; fails the test when it throws nothing. */
function inputErrorOf(fn: () => unknown): GpuInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof GpuInputError) return error;
    throw error;
  }
  throw new Error('expected a GpuInputError');
}

function reasonOf(result: MigFitResult): string {
  if (result.fits) throw new Error('expected no fit');
  return result.reason;
}

describe('fitMig: worked examples on A100-40GB', () => {
  it('3g.20gb + 2 x 2g.10gb fits as 2g@0, 2g@2, 3g@4', () => {
    expect(fitMig(a100, { '3g.20gb': 1, '2g.10gb': 2 })).toEqual({
      fits: true,
      placement: [
        { profile: '2g.10gb', start: 0, memorySlices: 2, computeSlices: 2 },
        { profile: '2g.10gb', start: 2, memorySlices: 2, computeSlices: 2 },
        { profile: '3g.20gb', start: 4, memorySlices: 4, computeSlices: 3 },
      ],
    });
  });

  it('4g.20gb + 3g.20gb fits as 4g@0 + 3g@4', () => {
    const result = fitMig(a100, { '4g.20gb': 1, '3g.20gb': 1 });
    expectValidPlacement(a100, { '4g.20gb': 1, '3g.20gb': 1 }, result);
    expect(
      result.fits && result.placement.map(p => [p.profile, p.start]),
    ).toEqual([
      ['4g.20gb', 0],
      ['3g.20gb', 4],
    ]);
  });

  it.each([
    [{ '1g.5gb': 2, '2g.10gb': 1, '3g.20gb': 1 }], // NVIDIA's all-balanced
    [{ '2g.10gb': 3, '1g.5gb': 1 }],
  ])('%j fits', counts => {
    const result = fitMig(a100, counts);
    expect(result.fits).toBe(true);
    expectValidPlacement(a100, counts, result);
  });

  it('3 x 2g.10gb + 1g.5gb put the 1g at slice 6 when the 2g take 0, 2, 4', () => {
    const result = fitMig(a100, { '2g.10gb': 3, '1g.5gb': 1 });
    expect(result.fits && result.placement.map(p => p.start)).toEqual([
      0, 2, 4, 6,
    ]);
  });

  it('4g.20gb + 2 x 2g.10gb does not fit (8 compute slices)', () => {
    expect(reasonOf(fitMig(a100, { '4g.20gb': 1, '2g.10gb': 2 }))).toBe(
      'the mix needs 8 compute slices but one a100-40gb GPU has 7',
    );
  });

  it('2 x 3g.20gb + 1g.5gb does not fit (the two 3g use all 8 memory slices)', () => {
    expect(reasonOf(fitMig(a100, { '3g.20gb': 2, '1g.5gb': 1 }))).toMatch(
      /^no free start slot for instance 1 of profile 1g\.5gb \(allowed starts 0, 1, 2, 3, 4, 5, 6\)/,
    );
  });
});

describe('fitMig: mixes NVIDIA placements forbid, with the reason', () => {
  it.each([
    // 4 x 1g.10gb cover slices 0-7; 5 compute slices would be fine.
    [{ '1g.10gb': 4, '1g.5gb': 1 }, 'instance 1 of profile 1g.5gb'],
    // 3g takes 0-3 or 4-7; only two 2-slice starts remain for three 1g.10gb.
    [{ '3g.20gb': 1, '1g.10gb': 3 }, 'instance 3 of profile 1g.10gb'],
    // Two 2g take two of {0,2,4}; only two of {0,2,4,6} remain for three 1g.10gb.
    [{ '2g.10gb': 2, '1g.10gb': 3 }, 'instance 3 of profile 1g.10gb'],
  ])('%j', (counts, stuck) => {
    const reason = reasonOf(fitMig(a100, counts));
    expect(reason).toContain(`no free start slot for ${stuck}`);
    expect(reason).toContain('a100-40gb');
  });

  it('rejects a count over the profile max', () => {
    expect(reasonOf(fitMig(a100, { '1g.10gb': 5 }))).toBe(
      '5 x 1g.10gb exceeds the maximum of 4 per a100-40gb GPU',
    );
    expect(reasonOf(fitMig(h100, { '3g.40gb': 3 }))).toBe(
      '3 x 3g.40gb exceeds the maximum of 2 per h100-80gb GPU',
    );
  });

  it('rejects more than one media-engine instance', () => {
    expect(reasonOf(fitMig(a30, { '1g.6gb+me': 1, '2g.12gb+me': 1 }))).toMatch(
      /^2 instances claim the media engines \(1g\.6gb\+me, 2g\.12gb\+me\)/,
    );
    expect(reasonOf(fitMig(a100, { '1g.5gb+me': 2 }))).toContain(
      'maximum of 1',
    );
  });

  it('rejects more compute slices than the GPU has', () => {
    expect(reasonOf(fitMig(a100, { '7g.40gb': 1, '1g.5gb': 1 }))).toBe(
      'the mix needs 8 compute slices but one a100-40gb GPU has 7',
    );
    expect(reasonOf(fitMig(a30, { '2g.12gb': 2, '1g.6gb': 1 }))).toBe(
      'the mix needs 5 compute slices but one a30 GPU has 4',
    );
  });

  it('names unknown profiles and lists the model’s profiles', () => {
    const reason = reasonOf(fitMig(a100, { '3g.40gb': 1, '1g.5gb': 1 }));
    expect(reason).toBe(
      'unknown MIG profile 3g.40gb for a100-40gb; its profiles are 1g.5gb, 1g.5gb+me, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb',
    );
  });

  it('answers fits:false for a model without MIG', () => {
    expect(reasonOf(fitMig(model('l40s'), { '1g.10gb': 1 }))).toBe(
      'l40s (NVIDIA L40S) does not support MIG',
    );
  });

  it('throws GpuInputError for counts that are not non-negative integers', () => {
    expect(() => fitMig(a100, { '1g.5gb': -1 })).toThrow(GpuInputError);
    expect(inputErrorOf(() => fitMig(a100, { '1g.5gb': 1.5 })).issues).toEqual([
      expect.objectContaining({
        path: 'counts.1g.5gb',
        rule: 'non-negative-integer',
      }),
    ]);
  });

  it('treats an empty layout and zero counts as MIG on with no instances', () => {
    expect(fitMig(a100, {})).toEqual({ fits: true, placement: [] });
    expect(fitMig(a100, { '1g.5gb': 0 })).toEqual({
      fits: true,
      placement: [],
    });
  });
});

describe('fitMig agrees with an exhaustive search on every A100-40GB / A30 mix', () => {
  /**
   * Independent oracle: try every start of every instance in the given order
   * (no sorting, no symmetry breaking) and accept any overlap-free assignment.
   */
  function bruteForcePacks(gpu: GpuModel, counts: Record<string, number>) {
    const geometry = gpu.mig!;
    const instances = Object.entries(counts).flatMap(([name, n]) =>
      new Array(n).fill(geometry.profiles.find(p => p.name === name)!),
    );
    const tryFrom = (i: number, used: number): boolean => {
      if (i === instances.length) return true;
      const p = instances[i];
      return p.startSlots.some((start: number) => {
        const mask = ((1 << p.memorySlices) - 1) << start;
        return (
          start + p.memorySlices <= geometry.memorySlices &&
          (used & mask) === 0 &&
          tryFrom(i + 1, used | mask)
        );
      });
    };
    return tryFrom(0, 0);
  }

  function* layouts(gpu: GpuModel): Generator<Record<string, number>> {
    const profiles = gpu.mig!.profiles;
    const walk = function* walkProfiles(
      i: number,
      acc: Record<string, number>,
    ): Generator<Record<string, number>> {
      if (i === profiles.length) {
        yield { ...acc };
        return;
      }
      for (let n = 0; n <= profiles[i].maxCount; n++) {
        acc[profiles[i].name] = n;
        yield* walk(i + 1, acc);
      }
    };
    yield* walk(0, {});
  }

  it.each([['a100-40gb'], ['a30']])('%s', id => {
    const gpu = model(id);
    const geometry = gpu.mig!;
    const all = [...layouts(gpu)];
    const mismatches: string[] = [];
    const fitting: [Record<string, number>, MigFitResult][] = [];
    for (const counts of all) {
      const instances = Object.entries(counts).flatMap(([name, n]) =>
        new Array(n).fill(geometry.profiles.find(p => p.name === name)!),
      );
      const compute = instances.reduce((s, p) => s + p.computeSlices, 0);
      const media = instances.filter(p => p.name.includes('+me')).length;
      const expected =
        compute <= geometry.computeSlices &&
        media <= 1 &&
        bruteForcePacks(gpu, counts);
      const result = fitMig(gpu, counts);
      if (result.fits !== expected) {
        mismatches.push(`${JSON.stringify(counts)}: fitMig ${result.fits}`);
      }
      if (result.fits) fitting.push([counts, result]);
    }
    expect(mismatches).toEqual([]);
    for (const [counts, result] of fitting) {
      expectValidPlacement(gpu, counts, result);
    }
    // Both outcomes are well represented, so the comparison means something.
    expect(all.length).toBeGreaterThan(fitting.length);
    expect(fitting.length).toBeGreaterThan(10);
  });
});
