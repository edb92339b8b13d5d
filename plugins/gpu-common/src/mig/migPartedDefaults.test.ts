import { builtinCatalog } from '../catalog/builtin';
import { findModel } from '../catalog/lookup';
import { fitMig } from './fit';
import { migConfigName } from './names';
import { uniformMigLayout } from './select';

/**
 * Every MIG layout of NVIDIA's default mig-parted config
 * (mig-parted `examples/config.yaml`, shipped by the GPU Operator as
 * `default-mig-parted-config`) that applies to a GPU in our catalog, keyed by
 * catalog id, with NVIDIA's config name. Copied as data: tests never read the
 * reference tree. Entries with a `device-filter` (all-1g.10gb, all-1g.35gb,
 * all-balanced) are listed under the GPUs their filter selects.
 */
const NVIDIA_DEFAULT_LAYOUTS: Record<
  string,
  [string, Record<string, number>][]
> = {
  'a100-40gb': [
    ['all-enabled', {}],
    ['all-1g.5gb', { '1g.5gb': 7 }],
    ['all-1g.5gb.me', { '1g.5gb+me': 1 }],
    ['all-1g.10gb', { '1g.10gb': 4 }],
    ['all-2g.10gb', { '2g.10gb': 3 }],
    ['all-3g.20gb', { '3g.20gb': 2 }],
    ['all-4g.20gb', { '4g.20gb': 1 }],
    ['all-7g.40gb', { '7g.40gb': 1 }],
    ['all-balanced', { '1g.5gb': 2, '2g.10gb': 1, '3g.20gb': 1 }],
  ],
  'a100-80gb': [
    ['all-enabled', {}],
    ['all-1g.10gb', { '1g.10gb': 7 }],
    ['all-1g.10gb.me', { '1g.10gb+me': 1 }],
    ['all-1g.20gb', { '1g.20gb': 4 }],
    ['all-2g.20gb', { '2g.20gb': 3 }],
    ['all-3g.40gb', { '3g.40gb': 2 }],
    ['all-4g.40gb', { '4g.40gb': 1 }],
    ['all-7g.80gb', { '7g.80gb': 1 }],
    ['all-balanced', { '1g.10gb': 2, '2g.20gb': 1, '3g.40gb': 1 }],
  ],
  'h100-80gb': [
    ['all-enabled', {}],
    ['all-1g.10gb', { '1g.10gb': 7 }],
    ['all-1g.10gb.me', { '1g.10gb+me': 1 }],
    ['all-1g.20gb', { '1g.20gb': 4 }],
    ['all-2g.20gb', { '2g.20gb': 3 }],
    ['all-3g.40gb', { '3g.40gb': 2 }],
    ['all-4g.40gb', { '4g.40gb': 1 }],
    ['all-7g.80gb', { '7g.80gb': 1 }],
    ['all-balanced', { '1g.10gb': 2, '2g.20gb': 1, '3g.40gb': 1 }],
  ],
  'h100-nvl': [
    ['all-enabled', {}],
    ['all-1g.12gb', { '1g.12gb': 7 }],
    ['all-1g.12gb.me', { '1g.12gb+me': 1 }],
    ['all-1g.24gb', { '1g.24gb': 4 }],
    ['all-2g.24gb', { '2g.24gb': 3 }],
    ['all-3g.47gb', { '3g.47gb': 2 }],
    ['all-4g.47gb', { '4g.47gb': 1 }],
    ['all-7g.94gb', { '7g.94gb': 1 }],
    ['all-balanced', { '1g.12gb': 2, '2g.24gb': 1, '3g.47gb': 1 }],
  ],
  h200: [
    ['all-enabled', {}],
    ['all-1g.18gb', { '1g.18gb': 7 }],
    ['all-1g.18gb.me', { '1g.18gb+me': 1 }],
    ['all-1g.35gb', { '1g.35gb': 4 }],
    ['all-2g.35gb', { '2g.35gb': 3 }],
    ['all-3g.71gb', { '3g.71gb': 2 }],
    ['all-4g.71gb', { '4g.71gb': 1 }],
    ['all-7g.141gb', { '7g.141gb': 1 }],
    ['all-balanced', { '1g.18gb': 2, '2g.35gb': 1, '3g.71gb': 1 }],
  ],
  b200: [
    ['all-enabled', {}],
    ['all-1g.23gb', { '1g.23gb': 7 }],
    ['all-1g.23gb.me', { '1g.23gb+me': 1 }],
    ['all-1g.45gb', { '1g.45gb': 4 }],
    ['all-2g.45gb', { '2g.45gb': 3 }],
    ['all-3g.90gb', { '3g.90gb': 2 }],
    ['all-4g.90gb', { '4g.90gb': 1 }],
    ['all-7g.180gb', { '7g.180gb': 1 }],
    ['all-balanced', { '1g.23gb': 2, '2g.45gb': 1, '3g.90gb': 1 }],
  ],
  a30: [
    ['all-enabled', {}],
    ['all-1g.6gb', { '1g.6gb': 4 }],
    ['all-1g.6gb.me', { '1g.6gb+me': 1 }],
    ['all-2g.12gb', { '2g.12gb': 2 }],
    ['all-2g.12gb.me', { '2g.12gb+me': 1 }],
    ['all-4g.24gb', { '4g.24gb': 1 }],
    ['all-balanced', { '1g.6gb': 2, '2g.12gb': 1 }],
  ],
};

const cases = Object.entries(NVIDIA_DEFAULT_LAYOUTS).flatMap(([id, layouts]) =>
  layouts.map(([name, layout]) => [id, name, layout] as const),
);

describe("NVIDIA's default mig-parted layouts", () => {
  it('covers every MIG model of the catalog', () => {
    expect(Object.keys(NVIDIA_DEFAULT_LAYOUTS).sort()).toEqual(
      builtinCatalog.models
        .filter(m => m.mig)
        .map(m => m.id)
        .sort(),
    );
  });

  it.each(cases)('%s %s fits one GPU', (id, _name, layout) => {
    const result = fitMig(findModel(builtinCatalog, id)!, layout);
    expect(result).toEqual(expect.objectContaining({ fits: true }));
  });

  it.each(
    cases.filter(
      ([, name]) => name !== 'all-balanced' && name !== 'all-enabled',
    ),
  )('%s %s is our uniform layout and config name', (id, name, layout) => {
    const [profile] = Object.keys(layout);
    // NVIDIA's count is the profile's max count on this GPU...
    expect(uniformMigLayout(findModel(builtinCatalog, id)!, profile)).toEqual(
      layout,
    );
    // ...and our naming reproduces NVIDIA's.
    expect(migConfigName(layout)).toBe(name);
  });

  it('has an all-<profile> config for every profile of every MIG model', () => {
    for (const [id, layouts] of Object.entries(NVIDIA_DEFAULT_LAYOUTS)) {
      const covered = layouts
        .filter(([name]) => name !== 'all-balanced')
        .flatMap(([, layout]) => Object.keys(layout))
        .sort();
      expect({ id, covered }).toEqual({
        id,
        covered: findModel(builtinCatalog, id)!
          .mig!.profiles.map(p => p.name)
          .sort(),
      });
    }
  });
});
