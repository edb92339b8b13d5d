import { builtinCatalog } from '../catalog/builtin';
import { findModel } from '../catalog/lookup';
import { migConfigName, migResourceName } from './names';

const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

describe('migConfigName', () => {
  it('names an empty layout all-disabled, ignoring zero counts', () => {
    expect(migConfigName({})).toBe('all-disabled');
    expect(migConfigName({ '1g.5gb': 0 })).toBe('all-disabled');
  });

  it.each([
    [{ '1g.10gb': 7 }, 'all-1g.10gb'],
    [{ '1g.10gb+me': 1 }, 'all-1g.10gb.me'],
    [{ '1g.24gb+me.all': 1 }, 'all-1g.24gb.me.all'],
    [{ '1g.24gb-me': 4 }, 'all-1g.24gb-me'],
    [{ '3g.20gb': 2, '1g.5gb': 0 }, 'all-3g.20gb'],
  ])('names the uniform layout %j %s like NVIDIA', (layout, name) => {
    expect(migConfigName(layout)).toBe(name);
  });

  it('names a mixed layout deterministically, larger profiles first', () => {
    expect(migConfigName({ '3g.20gb': 1, '2g.10gb': 2 })).toBe(
      'custom-1x3g.20gb-2x2g.10gb',
    );
    expect(migConfigName({ '2g.10gb': 2, '3g.20gb': 1 })).toBe(
      'custom-1x3g.20gb-2x2g.10gb',
    );
    expect(migConfigName({ '1g.5gb': 2, '3g.20gb': 1, '2g.10gb': 1 })).toBe(
      'custom-1x3g.20gb-1x2g.10gb-2x1g.5gb',
    );
    // Same compute, more memory first; then by name.
    expect(migConfigName({ '1g.10gb': 1, '1g.10gb+me': 1, '1g.20gb': 2 })).toBe(
      'custom-2x1g.20gb-1x1g.10gb-1x1g.10gb.me',
    );
  });

  it('with the model, keeps all-<profile> for full GPUs only', () => {
    const a100 = findModel(builtinCatalog, 'a100-40gb')!;
    const h100 = findModel(builtinCatalog, 'h100-80gb')!;
    expect(migConfigName({ '1g.10gb': 4 }, a100)).toBe('all-1g.10gb');
    expect(migConfigName({ '1g.10gb': 7 }, h100)).toBe('all-1g.10gb');
    expect(migConfigName({ '1g.10gb': 3 }, h100)).toBe('custom-3x1g.10gb');
    expect(migConfigName({ '3g.20gb': 1, '2g.10gb': 2 }, a100)).toBe(
      'custom-1x3g.20gb-2x2g.10gb',
    );
    expect(migConfigName({}, a100)).toBe('all-disabled');
  });

  it('keeps long names valid, distinct label values', () => {
    // 71 characters before shortening.
    const layout = {
      '1g.135gb+me.all': 1,
      '1g.135gb': 1,
      '1g.270gb': 1,
      '2g.270gb': 1,
      '1c.2g.270gb': 1,
    };
    const a = migConfigName(layout);
    const b = migConfigName({ ...layout, '1g.135gb': 2 });
    for (const name of [a, b]) {
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(LABEL_VALUE);
      expect(name).toMatch(/^custom-1x1c\.2g\.270gb-.*gb-[0-9a-f]{8}$/);
      expect(name).not.toContain('--');
    }
    expect(a).not.toBe(b);
    expect(migConfigName({ '3g.20gb': 1, '2g.10gb': 2 })).toMatch(LABEL_VALUE);
  });
});

describe('migResourceName', () => {
  it.each([
    ['1g.10gb', 'single', 'nvidia.com/gpu'],
    ['1g.10gb+me', 'single', 'nvidia.com/gpu'],
    ['3g.40gb', 'mixed', 'nvidia.com/mig-3g.40gb'],
    ['1g.10gb+me', 'mixed', 'nvidia.com/mig-1g.10gb.me'],
    ['1g.24gb+me.all', 'mixed', 'nvidia.com/mig-1g.24gb.me.all'],
    ['2g.48gb+gfx', 'mixed', 'nvidia.com/mig-2g.48gb.gfx'],
    ['1g.24gb-me', 'mixed', 'nvidia.com/mig-1g.24gb-me'],
  ] as const)('%s under %s is %s', (profile, strategy, resource) => {
    expect(migResourceName(profile, strategy)).toBe(resource);
  });
});
