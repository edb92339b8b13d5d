import { isGpuInputError } from '../errors';
import { gitOpsTimeoutMs } from './timeout';

describe('gitOpsTimeoutMs', () => {
  it('turns seconds (number or text) into milliseconds; none stays none', () => {
    expect(gitOpsTimeoutMs(30, 'gpu.gitops.timeoutSeconds')).toBe(30_000);
    expect(gitOpsTimeoutMs('1.5', '--timeout')).toBe(1500);
    expect(gitOpsTimeoutMs(undefined, '--timeout')).toBeUndefined();
  });

  it.each([[0], [-1], ['soon'], [''], [3601], [Number.NaN]])(
    'refuses %p, naming the field',
    value => {
      let error: unknown;
      try {
        gitOpsTimeoutMs(value, '--timeout');
      } catch (e) {
        error = e;
      }
      expect(isGpuInputError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^--timeout: /);
    },
  );
});
