import { builtinCatalog } from '../catalog/builtin';
import { findModel } from '../catalog/lookup';
import { fitMig } from './fit';

const a100 = findModel(builtinCatalog, 'a100-40gb')!;

describe('fitMig', () => {
  it('fits 3g.20gb + 2 x 2g.10gb on an A100-40GB', () => {
    expect(fitMig(a100, { '3g.20gb': 1, '2g.10gb': 2 })).toEqual({
      fits: true,
      placement: [
        { profile: '2g.10gb', start: 0, memorySlices: 2, computeSlices: 2 },
        { profile: '2g.10gb', start: 2, memorySlices: 2, computeSlices: 2 },
        { profile: '3g.20gb', start: 4, memorySlices: 4, computeSlices: 3 },
      ],
    });
  });
  it('rejects 4g.20gb + 2 x 2g.10gb', () => {
    const r = fitMig(a100, { '4g.20gb': 1, '2g.10gb': 2 });
    expect(r.fits).toBe(false);
  });
});
