import { InputError } from '@backstage/errors';
import { gpuRequestFromInput, inputNameForPath } from './gpuRequestInput';

const base = {
  name: 'chat-api',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  vramGiB: 4,
};

describe('gpuRequestFromInput', () => {
  it('applies the action defaults the scaffolder does not apply', () => {
    const request = gpuRequestFromInput({ ...base, image: 'ghcr.io/x/y:1' });
    expect(request.spec.gpu).toMatchObject({
      model: 'auto',
      sharing: 'exclusive',
      replicas: 1,
      gpusPerReplica: 1,
    });
    expect(request.spec.capacityTypes).toEqual(['on-demand']);
    expect(request.spec.workload).toEqual({ image: 'ghcr.io/x/y:1' });
  });

  it('treats empty template values as absent and builds an existing-workload patch', () => {
    const request = gpuRequestFromInput({
      ...base,
      image: '',
      slicesPerGpu: '' as unknown as number,
      existingName: 'recommender-api',
      sharing: 'mig',
      model: 'a100-40gb',
    });
    expect(request.spec.workload).toEqual({
      existing: { kind: 'Deployment', name: 'recommender-api' },
    });
  });

  it('turns "release after N days" into spec.expiresAt from the clock, and refuses 0 days naming the input', () => {
    const now = new Date('2026-11-24T08:00:00Z');
    const request = gpuRequestFromInput(
      { ...base, image: 'ghcr.io/x/y:1', releaseAfterDays: 14 },
      now,
    );
    expect(request.spec.expiresAt).toBe('2026-12-08T08:00:00.000Z');
    expect(
      gpuRequestFromInput(
        { ...base, image: 'ghcr.io/x/y:1', releaseAfterDays: null },
        now,
      ).spec.expiresAt,
    ).toBeUndefined();
    expect(() =>
      gpuRequestFromInput(
        { ...base, image: 'ghcr.io/x/y:1', releaseAfterDays: 0 },
        now,
      ),
    ).toThrow(
      /Release after: "Release after N days" must be a whole number of days from 1 to 365; got 0 \(input "releaseAfterDays", spec.expiresAt\) \[release-after-days\]/,
    );
  });

  it('fails with an InputError that names the input and the rule', () => {
    let error: unknown;
    try {
      gpuRequestFromInput({
        ...base,
        name: 'Chat_API',
        replicas: 0,
        image: 'ghcr.io/x/y:1',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const message = (error as Error).message;
    expect(message).toContain('(input "name", metadata.name)');
    expect(message).toContain('[dns1123-label]');
    expect(message).toContain(
      'Replicas must be at least 1 (input "replicas", spec.gpu.replicas) [min]',
    );
  });

  it('names both workload inputs when neither is given', () => {
    expect(() => gpuRequestFromInput(base)).toThrow(
      /Workload needs exactly one of.*\(input "image \/ existingName", spec\.workload\)/,
    );
  });

  it('maps nested paths to their input', () => {
    expect(inputNameForPath('spec.workload.existing.name')).toBe(
      'existingName',
    );
    expect(inputNameForPath('spec.capacityTypes.1')).toBe('capacityTypes');
    expect(inputNameForPath('spec.unknown')).toBeUndefined();
  });
});
