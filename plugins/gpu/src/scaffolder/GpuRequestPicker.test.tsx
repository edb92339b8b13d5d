import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { gpuApiRef } from '../api/GpuApi';
import type { GpuApi } from '../api/GpuApi';
import { plannerBackedGpuApi } from '../__testUtils__/plannerBackedGpuApi';
import { fakeGpuApi } from '../__testUtils__/fakeGpuApi';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { GpuRequestPicker, validateGpuRequestPicker } from './GpuRequestPicker';
import {
  DEFAULT_PICKER_VALUE,
  previewRequest,
  type GpuRequestPickerValue,
} from './previewRequest';

/** Holds the field's value the way the scaffolder form does. */
function Form(props: {
  initial?: GpuRequestPickerValue;
  formData?: Record<string, unknown>;
  onValue?: (v: GpuRequestPickerValue | undefined) => void;
}) {
  const [value, setValue] = useState(props.initial);
  const fieldProps: any = {
    formData: value,
    onChange: (v: GpuRequestPickerValue | undefined) => {
      setValue(v);
      props.onValue?.(v);
    },
    uiSchema: { 'ui:options': { debounceMs: 150 } },
    schema: { title: 'GPU', type: 'object' },
    formContext: { formData: props.formData ?? {} },
    rawErrors: [],
    idSchema: { $id: 'root_gpu' },
    name: 'gpu',
    disabled: false,
    readonly: false,
  };
  return <GpuRequestPicker {...fieldProps} />;
}

async function renderPicker(
  api: GpuApi,
  props: Parameters<typeof Form>[0] = {},
) {
  await renderInTestApp(
    <TestApiProvider apis={[[gpuApiRef, api]]}>
      <Form {...props} />
    </TestApiProvider>,
  );
}

/** Opens an MUI select by its label and picks the option with this text. */
async function choose(label: RegExp, option: string | RegExp) {
  const select = screen.getByLabelText(label);
  await userEvent.click(select);
  const listbox = await screen.findByRole('listbox');
  await userEvent.click(within(listbox).getByText(option));
}

describe('GpuRequestPicker', () => {
  it('lists the catalog models with memory and price and stores the choice', async () => {
    const { api } = plannerBackedGpuApi();
    const values: Array<GpuRequestPickerValue | undefined> = [];
    await renderPicker(api, { onValue: v => values.push(v) });

    await userEvent.click(screen.getByLabelText(/GPU model/));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox).getByText(
        'NVIDIA L4 — 22.3 GiB, no MIG, from $0.80/GPU-hour',
      ),
    ).toBeInTheDocument();
    expect(
      within(listbox).getByText(
        'NVIDIA A100 80GB — 80 GiB, MIG, from $3.43/GPU-hour',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(listbox).getByText(/^NVIDIA L4 /));

    // The untouched defaults were stored first, then the chosen model.
    expect(values[0]).toEqual({
      model: 'auto',
      sharing: 'exclusive',
      replicas: 1,
      vramGiB: 8,
    });
    expect(values[values.length - 1]).toMatchObject({ model: 'l4' });
  });

  it('previews the plan of what is typed, once typing pauses', async () => {
    const { api, requests } = plannerBackedGpuApi();
    await renderPicker(api, {
      formData: {
        name: 'chat',
        namespace: 'ml',
        owner: 'group:default/ml',
        image: 'ghcr.io/org/chat:1',
      },
    });

    // The defaults (exclusive, 8 GiB) plan at once.
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(await within(preview).findByText(/^Fits:/)).toBeInTheDocument();
    expect(requests[0].metadata).toEqual({ name: 'chat', namespace: 'ml' });
    expect(requests[0].spec.workload).toEqual({ image: 'ghcr.io/org/chat:1' });

    await choose(/GPU model/, /^NVIDIA L4 /);
    await choose(/Sharing mode/, /^Time-slicing/);
    const replicas = screen.getByLabelText('Replicas');
    await userEvent.clear(replicas);
    await userEvent.type(replicas, '4');
    const vram = screen.getByLabelText('GPU memory per replica (GiB)');
    await userEvent.clear(vram);
    await userEvent.type(vram, '10');

    await waitFor(() =>
      expect(requests[requests.length - 1].spec.gpu).toEqual({
        model: 'l4',
        sharing: 'time-slicing',
        replicas: 4,
        vramGiB: 10,
        gpusPerReplica: 1,
      }),
    );
    // Debounced: the half-typed "1" GiB was never sent.
    expect(requests.some(r => r.spec.gpu.vramGiB === 1)).toBe(false);

    const facts = await within(preview).findByLabelText('Plan preview');
    await waitFor(() =>
      expect(within(facts).getByText(/NOT guaranteed/)).toHaveTextContent(
        '10.0 GiB asked: 11.1 GiB NOT guaranteed',
      ),
    );
    const { plan } = await api.previewPlan(requests[requests.length - 1]);
    expect(within(preview).getByText(/^Fits:/)).toHaveTextContent(
      `Fits: 4 × ${plan.resourcePerReplica} ${plan.resourceName}`,
    );
    expect(within(facts).getByText(/^\d+ × /)).toHaveTextContent(
      `${plan.nodes.expected} × ${plan.nodes.instanceType} at`,
    );
    expect(within(facts).getByText(/its share of pool/).textContent).toContain(
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
      }).format(plan.cost.usdPerMonth),
    );
  });

  it("shows the existing workload's replicas now and the requested count, and sends the workload as the form names it", async () => {
    const { api: planner, requests } = plannerBackedGpuApi();
    // The backend's answer for test/fixtures/gitops-platform-repo's recommender.
    const api = fakeGpuApi({
      previewPlan: async (request, options) => ({
        ...(await planner.previewPlan(request, options)),
        existing: {
          kind: 'Deployment',
          name: 'recommender',
          namespace: 'ml',
          path: 'apps/ml/recommender/base/deployment.yaml',
          containers: ['api', 'metrics-exporter'],
          replicas: 3,
          overlay: 'apps/ml/recommender/overlays/prod-eu',
          gpuContainer: 'api',
        },
      }),
    });
    await renderPicker(api, {
      initial: { model: 'l4', sharing: 'exclusive', replicas: 2, vramGiB: 8 },
      formData: {
        name: 'recommender',
        namespace: 'ml',
        workloadType: 'existing',
        existingKind: 'Deployment',
        existingName: 'recommender',
        existingContainer: 'api',
      },
    });
    const facts = await screen.findByLabelText('Plan preview');
    expect(
      within(facts).getByText(
        'Existing Deployment recommender: 3 replicas now → 2 requested (containers: api, metrics-exporter; GPU to api)',
      ),
    ).toBeInTheDocument();
    expect(requests[0].spec.workload).toEqual({
      existing: { kind: 'Deployment', name: 'recommender', container: 'api' },
    });
  });

  it('says where the existing workload’s pods can land today when that is not one pool', async () => {
    const { api: planner } = plannerBackedGpuApi();
    const placementWarning =
      "GPU workload ml/recommender (apps/ml/recommender/base/deployment.yaml): its pods can land on pools gpu-l4, gpu-l4-b of cluster dev; it is counted on gpu-l4 (the first by name): select one pool's label to say which";
    const api = fakeGpuApi({
      previewPlan: async (request, options) => ({
        ...(await planner.previewPlan(request, options)),
        existing: {
          kind: 'Deployment',
          name: 'recommender',
          namespace: 'ml',
          path: 'apps/ml/recommender/base/deployment.yaml',
          containers: ['api'],
          replicas: 3,
          gpuContainer: 'api',
          placementWarning,
        },
      }),
    });
    await renderPicker(api, {
      initial: { model: 'l4', sharing: 'exclusive', replicas: 2, vramGiB: 8 },
      formData: {
        name: 'recommender',
        namespace: 'ml',
        workloadType: 'existing',
        existingKind: 'Deployment',
        existingName: 'recommender',
      },
    });
    const facts = await screen.findByLabelText('Plan preview');
    expect(within(facts).getByText('Where it runs now')).toBeInTheDocument();
    expect(
      within(facts).getByText(`⚠ ${placementWarning}`),
    ).toBeInTheDocument();
  });

  it('sends existing Jobs and CronJobs as their kind, without a container until one is chosen', () => {
    const request = previewRequest(DEFAULT_PICKER_VALUE, {
      workloadType: 'existing',
      existingKind: 'CronJob',
      existingName: 'embeddings-refresh',
      existingContainer: '',
    });
    expect(request.spec.workload).toEqual({
      existing: { kind: 'CronJob', name: 'embeddings-refresh' },
    });
    // A new workload ignores the existing fields the form still holds.
    expect(
      previewRequest(DEFAULT_PICKER_VALUE, {
        workloadType: 'new',
        image: 'ghcr.io/org/app:1',
        existingName: 'embeddings-refresh',
      }).spec.workload,
    ).toEqual({ image: 'ghcr.io/org/app:1' });
  });

  it('says when the request does not fit, with the planner issues', async () => {
    const { api } = plannerBackedGpuApi();
    await renderPicker(api, {
      initial: { model: 'l4', sharing: 'exclusive', replicas: 1, vramGiB: 200 },
    });
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(
      await within(preview).findByText('Does not fit'),
    ).toBeInTheDocument();
    // In the form's words, not the request's field path.
    expect(
      within(preview).getByRole('list', { name: 'Plan issues' }),
    ).toHaveTextContent(
      'GPU memory per replica: 200.0 GiB is more than the largest GPU',
    );
    expect(preview).not.toHaveTextContent('spec.gpu');
  });

  it('shows the rejection message when the backend gives no issues', async () => {
    await renderPicker(
      fakeGpuApi({
        previewPlan: () =>
          Promise.reject(
            new GpuPlanRejectedError('No pool may take more GPUs', []),
          ),
      }),
    );
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(
      await within(preview).findByText('Does not fit'),
    ).toBeInTheDocument();
    expect(
      within(preview).getByText('No pool may take more GPUs'),
    ).toBeInTheDocument();
    expect(within(preview).queryByRole('list')).toBeNull();
  });

  it('does not ask the backend while the request is incomplete', async () => {
    const { api, requests } = plannerBackedGpuApi();
    await renderPicker(api, {
      initial: { model: 'auto', sharing: 'mig', replicas: 0, vramGiB: 5 },
    });
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(within(preview).getByText('Incomplete request')).toBeInTheDocument();
    expect(
      within(preview).getByText(
        'Replicas must be a whole number of at least 1',
      ),
    ).toBeInTheDocument();
    // Only the gpusPerReplica box is hidden outside exclusive mode.
    expect(screen.queryByLabelText('GPUs per replica')).toBeNull();
    await new Promise(resolve => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
  });

  it('shows a backend failure instead of a stale or empty preview', async () => {
    await renderPicker(
      fakeGpuApi({
        previewPlan: () => Promise.reject(new Error('gpu backend is down')),
      }),
    );
    expect(
      await screen.findByText(/Could not preview the plan/),
    ).toBeInTheDocument();
    expect(screen.getAllByText(/gpu backend is down/).length).toBeGreaterThan(
      0,
    );
    expect(screen.queryByText(/^Fits:/)).toBeNull();
  });

  it('calls a blank Replicas box an error, never a default of 1, and asks nothing', async () => {
    const { api, requests } = plannerBackedGpuApi();
    const values: Array<GpuRequestPickerValue | undefined> = [];
    await renderPicker(api, { onValue: v => values.push(v) });
    const preview = await screen.findByTestId('gpu-plan-preview');
    await within(preview).findByText(/^Fits:/);
    const sent = requests.length;

    await userEvent.clear(screen.getByLabelText(/^Replicas/));
    expect(values[values.length - 1]!.replicas).toBeNull();
    expect(
      await within(preview).findByText('Replicas is required'),
    ).toBeInTheDocument();
    expect(within(preview).queryByText(/^Fits:/)).toBeNull();
    await new Promise(resolve => setTimeout(resolve, 300));
    expect(requests.length).toBe(sent);
  });

  it('offers the configured clusters with provider and region, and the modes a cluster cannot run disabled with the reason', async () => {
    const { api, requests } = plannerBackedGpuApi();
    const values: Array<GpuRequestPickerValue | undefined> = [];
    await renderPicker(api, { onValue: v => values.push(v) });

    // The default cluster is named in the value once the clusters are read.
    await waitFor(() =>
      expect(values[values.length - 1]).toMatchObject({ cluster: 'dev' }),
    );
    await userEvent.click(screen.getByLabelText(/^Cluster/));
    let listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual([
      'dev — AWS (Karpenter), us-east-1',
      'inference — AWS (Karpenter), eu-west-1',
    ]);
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByLabelText(/^Sharing mode/));
    listbox = await screen.findByRole('listbox');
    const mps = within(listbox).getByText(/^MPS/).closest('li')!;
    expect(mps).toHaveAttribute('aria-disabled', 'true');
    expect(mps).toHaveTextContent(
      'cluster dev cannot run MPS: its device plugin runs the MIG strategy "mixed"',
    );
    expect(
      within(listbox)
        .getByText(/^Time-slicing/)
        .closest('li'),
    ).not.toHaveAttribute('aria-disabled', 'true');
    await userEvent.keyboard('{Escape}');

    // MIG on a model without MIG: disabled for that model.
    await choose(/^GPU model/, /^NVIDIA Tesla T4 /);
    await userEvent.click(screen.getByLabelText(/^Sharing mode/));
    listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByText(/^MIG/).closest('li')).toHaveTextContent(
      't4 does not support MIG',
    );
    await userEvent.keyboard('{Escape}');

    // On inference MPS runs, and the preview plans there.
    await choose(/^Cluster/, /^inference /);
    await choose(/^Sharing mode/, /^MPS/);
    const vram = screen.getByLabelText(/^GPU memory per replica/);
    await userEvent.clear(vram);
    await userEvent.type(vram, '4');
    await waitFor(() =>
      expect(requests[requests.length - 1].spec.gpu).toMatchObject({
        sharing: 'mps',
        vramGiB: 4,
      }),
    );
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(
      await within(preview).findByText(/^Fits: .* nvidia\.com\/gpu\.shared/),
    ).toBeInTheDocument();
  });

  it('offers models and sharing modes once the cluster says which it can run; the built-in catalog if it cannot be read', async () => {
    const { api: planner } = plannerBackedGpuApi();
    let answer: (
      clusters: Awaited<ReturnType<GpuApi['getClusters']>>,
    ) => void = () => {};
    const api = fakeGpuApi({
      getClusters: () =>
        new Promise(resolve => {
          answer = resolve;
        }),
      previewPlan: planner.previewPlan,
    });
    await renderPicker(api);
    // Pending: a choice now could be one the cluster refuses a moment later.
    expect(screen.getByLabelText(/^GPU model/)).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByLabelText(/^Sharing mode/)).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    answer(await planner.getClusters());
    await waitFor(() =>
      expect(screen.getByLabelText(/^Sharing mode/)).not.toHaveAttribute(
        'aria-disabled',
      ),
    );
    expect(screen.getByLabelText(/^GPU model/)).not.toHaveAttribute(
      'aria-disabled',
    );

    const unreadable = fakeGpuApi({
      getClusters: () => Promise.reject(new Error('503 Service Unavailable')),
    });
    await renderPicker(unreadable);
    await screen.findByText(/Could not read the clusters: 503/);
    const models = screen.getAllByLabelText(/^GPU model/);
    expect(models[models.length - 1]).not.toHaveAttribute('aria-disabled');
  });

  it('shows a refusal by the team policy, with the team quota use', async () => {
    const quota = {
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      used: 0.5,
      requested: 8,
      quota: 8,
    };
    const { api: planner } = plannerBackedGpuApi();
    const api = fakeGpuApi({
      getClusters: planner.getClusters,
      getQuota: async () => ({ ...quota, requested: 0 }),
      // The backend's refusal of POST /plan (PlanRefusalResponse).
      previewPlan: () =>
        Promise.reject(
          new GpuPlanRejectedError(
            'Replicas: GPU quota exceeded …',
            [
              {
                path: 'spec.gpu.replicas',
                rule: 'policy-quota',
                message:
                  'GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU: quota 8, already used 0.5, this request needs 8 (physical-GPU equivalents)',
              },
            ],
            quota,
          ),
        ),
    });
    await renderPicker(api, {
      initial: { model: 't4', sharing: 'exclusive', replicas: 8, vramGiB: 8 },
      formData: { owner: 'group:default/ml-platform', name: 'svc' },
    });
    const preview = await screen.findByTestId('gpu-plan-preview');
    expect(
      await within(preview).findByText('Not allowed by the team policy'),
    ).toBeInTheDocument();
    expect(
      within(preview).getByRole('list', { name: 'Plan issues' }),
    ).toHaveTextContent(
      'Replicas: GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU',
    );
    expect(within(preview).getByTestId('gpu-quota')).toHaveTextContent(
      'GPU quota of group:default/ml-platform on dev: 0.5 used + 8 this request = 8.5 of 8 GPUs',
    );
  });

  describe('validation (Next / Review)', () => {
    const validate = async (
      value: Partial<GpuRequestPickerValue>,
      api?: GpuApi,
    ) => {
      const errors: string[] = [];
      await validateGpuRequestPicker(
        value as GpuRequestPickerValue,
        { addError: (m: string) => errors.push(m) } as any,
        {
          apiHolder: { get: () => api } as any,
          formData: { name: 'svc', namespace: 'ml', owner: 'group:default/ml' },
          schema: {},
        },
      );
      return errors;
    };

    it('refuses blank and invalid boxes in the form’s words without asking the backend', async () => {
      const { api, requests } = plannerBackedGpuApi();
      expect(
        await validate(
          { replicas: null, vramGiB: 0, sharing: 'exclusive' },
          api,
        ),
      ).toEqual([
        'Replicas is required',
        'GPU memory per replica must be more than 0 GiB',
      ]);
      expect(requests).toEqual([]);
    });

    it('blocks what the backend refuses, with its reasons, and lets what fits through', async () => {
      const { api } = plannerBackedGpuApi();
      expect(
        await validate(
          { model: 't4', sharing: 'mig', replicas: 2, vramGiB: 4 },
          api,
        ),
      ).toEqual([
        'GPU model: t4 does not support MIG; pick a MIG-capable model (A100, A30, H100, H200, B200...) or another sharing mode',
      ]);
      expect(
        await validate(
          {
            cluster: 'dev',
            model: 't4',
            sharing: 'mps',
            replicas: 2,
            vramGiB: 4,
          },
          api,
        ),
      ).toEqual([
        expect.stringContaining('Sharing mode: cluster dev cannot run MPS'),
      ]);
      expect(
        await validate(
          {
            cluster: 'inference',
            model: 't4',
            sharing: 'mps',
            replicas: 2,
            vramGiB: 4,
          },
          api,
        ),
      ).toEqual([]);
    });

    it('lets the step go on when the backend cannot be reached (the actions decide)', async () => {
      const api = fakeGpuApi({
        previewPlan: () => Promise.reject(new Error('gpu backend is down')),
      });
      expect(
        await validate({ replicas: 1, vramGiB: 8, sharing: 'exclusive' }, api),
      ).toEqual([]);
    });
  });
});
