import { gpuRequestFromFormValues } from './formValues';
import { parseGpuRequest } from './schema';

const base = {
  name: 'chat',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  vramGiB: 8,
};

describe('gpuRequestFromFormValues', () => {
  it('applies the form defaults to blank fields, as the schema would', () => {
    const request = gpuRequestFromFormValues({
      ...base,
      model: '',
      sharing: null,
      replicas: undefined,
      gpusPerReplica: null,
      slicesPerGpu: '',
      image: 'ghcr.io/acme/chat:1',
      existingName: '',
      capacityTypes: [],
      cluster: '',
    });
    expect(request).toEqual({
      apiVersion: 'gpu.backstage.io/v1alpha1',
      kind: 'GpuRequest',
      metadata: { name: 'chat', namespace: 'ml' },
      spec: {
        owner: 'group:default/ml-platform',
        gpu: {
          model: 'auto',
          sharing: 'exclusive',
          replicas: 1,
          vramGiB: 8,
          gpusPerReplica: 1,
        },
        workload: { image: 'ghcr.io/acme/chat:1' },
        capacityTypes: ['on-demand'],
      },
    });
    expect(parseGpuRequest(request)).toEqual(request);
  });

  it('names an existing workload, Deployment when no kind is given, its container only when chosen', () => {
    expect(
      gpuRequestFromFormValues({ ...base, existingName: 'recommender' }).spec
        .workload,
    ).toEqual({ existing: { kind: 'Deployment', name: 'recommender' } });
    expect(
      gpuRequestFromFormValues({
        ...base,
        existingKind: 'CronJob',
        existingName: 'refresh',
        existingContainer: 'worker',
      }).spec.workload,
    ).toEqual({
      existing: { kind: 'CronJob', name: 'refresh', container: 'worker' },
    });
  });

  it('keeps every filled field, cluster and slices included', () => {
    const request = gpuRequestFromFormValues({
      ...base,
      cluster: 'eu-west',
      model: 'l4',
      sharing: 'time-slicing',
      replicas: 4,
      slicesPerGpu: 3,
      image: 'ghcr.io/acme/chat:1',
      capacityTypes: ['spot', 'on-demand'],
    });
    expect(request.spec.cluster).toBe('eu-west');
    expect(request.spec.gpu).toEqual({
      model: 'l4',
      sharing: 'time-slicing',
      replicas: 4,
      vramGiB: 8,
      gpusPerReplica: 1,
      slicesPerGpu: 3,
    });
    expect(request.spec.capacityTypes).toEqual(['spot', 'on-demand']);
  });

  it('leaves the checking to the schema (both image and workload are passed on)', () => {
    const request = gpuRequestFromFormValues({
      ...base,
      image: 'ghcr.io/acme/chat:1',
      existingName: 'recommender',
    });
    expect(() => parseGpuRequest(request)).toThrow();
  });
});
