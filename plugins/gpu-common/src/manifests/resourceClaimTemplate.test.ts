import { buildResourceClaimTemplate } from './resourceClaimTemplate';
import { draL4Plan } from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildResourceClaimTemplate', () => {
  it('claims one gpu.nvidia.com device with enough memory (exclusive claim)', () => {
    const template = buildResourceClaimTemplate(draL4Plan) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    expect(template.apiVersion).toBe('resource.k8s.io/v1');
    expect(template.metadata).toMatchObject({
      name: 'l4-dra-gpu',
      namespace: 'ml-team',
    });
    expect(template.spec.spec.devices.requests).toEqual([
      {
        name: 'gpu',
        exactly: {
          deviceClassName: 'gpu.nvidia.com',
          count: 1,
          selectors: [
            {
              cel: {
                expression:
                  "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('20Gi')) >= 0",
              },
            },
          ],
        },
      },
    ]);
    expect(template.spec.spec.devices.config).toBeUndefined();
  });

  it('adds an MPS GpuConfig when pinned memory is planned', () => {
    const plan = {
      ...draL4Plan,
      sharing: {
        mode: 'dra' as const,
        slicesPerGpu: 2,
        mpsPinnedMemoryMiB: 10240,
      },
    };
    const template = buildResourceClaimTemplate(plan) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    expect(template.spec.spec.devices.config).toEqual([
      {
        requests: ['gpu'],
        opaque: {
          driver: 'gpu.nvidia.com',
          parameters: {
            apiVersion: 'resource.nvidia.com/v1beta1',
            kind: 'GpuConfig',
            sharing: {
              strategy: 'MPS',
              mpsConfig: {
                defaultPinnedDeviceMemoryLimit: '10240Mi',
                defaultActiveThreadPercentage: 50,
              },
            },
          },
        },
      },
    ]);
  });

  it('adds a TimeSlicing GpuConfig when slices are planned', () => {
    const plan = {
      ...draL4Plan,
      sharing: { mode: 'dra' as const, slicesPerGpu: 4 },
    };
    const template = buildResourceClaimTemplate(plan) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    expect(
      template.spec.spec.devices.config[0].opaque.parameters.sharing,
    ).toEqual({
      strategy: 'TimeSlicing',
      timeSlicingConfig: { interval: 'Default' },
    });
  });

  it('the schema really rejects a broken ResourceClaimTemplate', () => {
    const template = buildResourceClaimTemplate(draL4Plan) as any;
    const broken = JSON.parse(JSON.stringify(template));
    delete broken.spec.spec.devices.requests[0].exactly.deviceClassName;
    expect(() => validateAgainstSchema(broken)).toThrow(/deviceClassName/);
  });
});
