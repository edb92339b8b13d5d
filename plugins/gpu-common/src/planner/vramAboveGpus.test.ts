import { inputIssues } from './__testUtils__/expectError';
import { refuseVramAboveGpus, VRAM_EXCEEDS_GPU } from './vramAboveGpus';

describe('refuseVramAboveGpus', () => {
  it('accepts an ask up to the memory of the GPUs, exactly included', () => {
    expect(() =>
      refuseVramAboveGpus(16, 'one t4', 16 * 1024, 'advice'),
    ).not.toThrow();
  });

  it('refuses more, naming the GPUs, their memory and what to do instead', () => {
    expect(
      inputIssues(() =>
        refuseVramAboveGpus(
          40,
          '2 x t4',
          32 * 1024,
          'ask for more GPUs per replica',
        ),
      ),
    ).toEqual([
      {
        path: 'spec.gpu.vramGiB',
        rule: VRAM_EXCEEDS_GPU,
        message:
          '40.0 GiB does not fit 2 x t4 (32.0 GiB); ask for more GPUs per replica',
      },
    ]);
  });
});
