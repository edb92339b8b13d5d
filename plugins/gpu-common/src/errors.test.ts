import { GpuInputError, isGpuInputError } from './errors';

describe('GpuInputError', () => {
  it('names every field path and keeps the structured issues', () => {
    const error = new GpuInputError([
      { path: 'spec.gpu.replicas', rule: 'min', message: 'must be at least 1' },
      { path: '', rule: 'yaml', message: 'the document is not YAML' },
    ]);
    expect(error.message).toBe(
      'spec.gpu.replicas: must be at least 1\nthe document is not YAML',
    );
    expect(error.issues.map(i => i.rule)).toEqual(['min', 'yaml']);
    expect(isGpuInputError(error)).toBe(true);
    expect(isGpuInputError(new Error('other'))).toBe(false);
  });
});
