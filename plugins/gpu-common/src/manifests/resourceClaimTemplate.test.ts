import { buildResourceClaimTemplate } from './resourceClaimTemplate';
import { draL4Plan } from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildResourceClaimTemplate', () => {
  it('claims one gpu.nvidia.com device of the model by product name, with enough memory (exclusive claim)', () => {
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
                  "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA L4'",
              },
            },
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

  it('lists every form factor NVML names for a model', () => {
    const plan = {
      ...draL4Plan,
      pool: { ...draL4Plan.pool, gpuModel: 'a100-80gb' },
    };
    const template = buildResourceClaimTemplate(plan) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    expect(
      template.spec.spec.devices.requests[0].exactly.selectors[0].cel
        .expression,
    ).toBe(
      "device.attributes['gpu.nvidia.com'].productName in ['NVIDIA A100-SXM4-80GB', 'NVIDIA A100 80GB PCIe']",
    );
  });

  it('selects by memory only for a model without known product names', () => {
    const plan = {
      ...draL4Plan,
      pool: { ...draL4Plan.pool, gpuModel: 'a800-40gb' },
    };
    const template = buildResourceClaimTemplate(plan) as any;
    expect(template.spec.spec.devices.requests[0].exactly.selectors).toEqual([
      {
        cel: {
          expression:
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('20Gi')) >= 0",
        },
      },
    ]);
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

  it('requests its shares of a GPU the driver shares, with no GpuConfig', () => {
    const plan = {
      ...draL4Plan,
      sharing: { mode: 'dra' as const, slicesPerGpu: 4 },
      resourcePerReplica: 3,
    };
    const template = buildResourceClaimTemplate(plan) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    expect(template.spec.spec.devices.requests[0].exactly.capacity).toEqual({
      requests: { shares: '3' },
    });
    // The driver time-slices the claims itself; a TimeSlicing GpuConfig
    // would need its TimeSlicingSettings gate and shares only in one claim.
    expect(template.spec.spec.devices.config).toBeUndefined();
  });

  it('the schema really rejects a broken ResourceClaimTemplate', () => {
    const template = buildResourceClaimTemplate(draL4Plan) as any;
    const broken = JSON.parse(JSON.stringify(template));
    delete broken.spec.spec.devices.requests[0].exactly.deviceClassName;
    expect(() => validateAgainstSchema(broken)).toThrow(/deviceClassName/);
  });
});
