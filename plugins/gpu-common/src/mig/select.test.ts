import { builtinCatalog } from '../catalog/builtin';
import { findModel } from '../catalog/lookup';
import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import { isPlainMigProfile } from './profileName';
import { smallestMigProfileFor, uniformMigLayout } from './select';

const model = (id: string): GpuModel => findModel(builtinCatalog, id)!;

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

describe('smallestMigProfileFor', () => {
  it('picks by REAL memory, not the name', () => {
    const a100 = model('a100-40gb');
    expect(smallestMigProfileFor(a100, 4)?.name).toBe('1g.5gb');
    // 1g.5gb really offers less than 5 GiB.
    expect(smallestMigProfileFor(a100, 5)?.name).toBe('1g.10gb');
    // A job that needs 10 GiB does not fit a 1g.10gb / 2g.10gb.
    expect(smallestMigProfileFor(a100, 10)?.name).toBe('3g.20gb');
    // Nothing on a 40 GB GPU offers a full 40 GiB.
    expect(smallestMigProfileFor(a100, 40)).toBeUndefined();
  });

  it('prefers fewer compute slices at equal memory and never picks attribute profiles', () => {
    const nvl = model('h100-nvl');
    expect(smallestMigProfileFor(nvl, 10)?.name).toBe('1g.12gb');
    expect(smallestMigProfileFor(nvl, 20)?.name).toBe('1g.24gb');
    expect(smallestMigProfileFor(nvl, 40)?.name).toBe('3g.47gb');
  });

  it('is undefined for a model without MIG', () => {
    expect(smallestMigProfileFor(model('l4'), 1)).toBeUndefined();
  });

  it.each(
    builtinCatalog.models.filter(m => m.mig).map(m => [m.id, m] as const),
  )(
    '%s: the answer is the minimum over plain profiles that hold the request',
    (_id, gpu) => {
      for (let gib = 1; gib <= 200; gib += 1) {
        const chosen = smallestMigProfileFor(gpu, gib);
        const holding = gpu.mig!.profiles.filter(
          p => isPlainMigProfile(p.name) && p.memoryMiB >= gib * 1024,
        );
        // An answer exactly when some plain profile holds the request...
        expect(chosen === undefined).toBe(holding.length === 0);
        // ...that holds it itself...
        expect(chosen === undefined || holding.includes(chosen)).toBe(true);
        // ...and no holding profile is smaller (memory, then compute slices).
        const smaller = holding.filter(
          p =>
            p.memoryMiB < chosen!.memoryMiB ||
            (p.memoryMiB === chosen!.memoryMiB &&
              p.computeSlices < chosen!.computeSlices),
        );
        expect(smaller).toEqual([]);
      }
    },
  );
});

describe('uniformMigLayout', () => {
  it('fills one GPU with the profile, as NVIDIA’s all-<profile> configs do', () => {
    expect(uniformMigLayout(model('a100-40gb'), '1g.10gb')).toEqual({
      '1g.10gb': 4,
    });
    expect(uniformMigLayout(model('h100-80gb'), '1g.10gb')).toEqual({
      '1g.10gb': 7,
    });
    expect(uniformMigLayout(model('a30'), '2g.12gb')).toEqual({ '2g.12gb': 2 });
  });

  it('throws GpuInputError naming the rule for unknown profiles and non-MIG models', () => {
    expect(() => uniformMigLayout(model('a100-40gb'), '1g.10gb+me')).toThrow(
      GpuInputError,
    );
    const unknown = inputErrorOf(() =>
      uniformMigLayout(model('a100-40gb'), '3g.40gb'),
    );
    expect(unknown.issues[0]).toMatchObject({
      path: 'mig.profile',
      rule: 'unknown-mig-profile',
    });
    expect(unknown.message).toContain('1g.5gb');
    expect(
      inputErrorOf(() => uniformMigLayout(model('t4'), '1g.5gb')).issues[0]
        .rule,
    ).toBe('mig-unsupported');
  });
});
