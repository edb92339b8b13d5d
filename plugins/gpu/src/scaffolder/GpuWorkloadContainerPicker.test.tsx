import type { ApiRef } from '@backstage/core-plugin-api';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import type {
  RepositoryWorkload,
  WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { gpuApiRef, type GpuApi } from '../api/GpuApi';
import { fakeGpuApi } from '../__testUtils__/fakeGpuApi';
import {
  GpuWorkloadContainerPicker,
  validateGpuWorkloadContainerPicker,
} from './GpuWorkloadContainerPicker';

/** What the backend's index holds of test/fixtures/gitops-platform-repo. */
const REPOSITORY: RepositoryWorkload[] = [
  {
    kind: 'Deployment',
    name: 'recommender',
    namespace: 'ml',
    path: 'apps/ml/recommender/base/deployment.yaml',
    containers: ['api', 'metrics-exporter'],
    replicas: 3,
    overlay: 'apps/ml/recommender/overlays/prod-eu',
  },
  {
    kind: 'StatefulSet',
    name: 'vector-db',
    namespace: 'ml',
    path: 'apps/ml/vector-db/statefulset.yaml',
    containers: ['db', 'backup-agent'],
    replicas: 2,
    overlay: 'apps/ml/vector-db',
  },
  {
    kind: 'Job',
    name: 'train-nightly',
    namespace: 'batch',
    path: 'apps/batch/train-nightly/job.yaml',
    containers: ['trainer'],
    replicas: 2,
    overlay: 'apps/batch/train-nightly',
  },
];

const KINDS: WorkloadKind[] = ['Deployment', 'StatefulSet', 'Job', 'CronJob'];

/** A GpuApi answering GET /workloads from REPOSITORY, recording the queries. */
function repositoryApi() {
  const queries: Parameters<GpuApi['getWorkloads']>[0][] = [];
  const api = fakeGpuApi({
    getWorkloads: async query => {
      queries.push(query);
      return {
        workloads: REPOSITORY.filter(
          w =>
            w.name === query.name &&
            (!query.namespace || w.namespace === query.namespace) &&
            (!query.kind || w.kind === query.kind),
        ),
        kinds: KINDS,
      };
    },
  });
  return { api, queries };
}

/** Holds the field's value the way the scaffolder form does. */
function Form(props: {
  formData: Record<string, unknown>;
  onValue?: (v: string | undefined) => void;
}) {
  const [value, setValue] = useState<string | undefined>();
  const fieldProps: any = {
    formData: value,
    onChange: (v: string | undefined) => {
      setValue(v);
      props.onValue?.(v);
    },
    uiSchema: { 'ui:options': { debounceMs: 10 } },
    schema: { title: 'Container', type: 'string' },
    formContext: {
      formData: { ...props.formData, existingContainer: value },
    },
    rawErrors: [],
    idSchema: { $id: 'root_existingContainer' },
    name: 'existingContainer',
    disabled: false,
    readonly: false,
  };
  return <GpuWorkloadContainerPicker {...fieldProps} />;
}

async function renderField(api: GpuApi, props: Parameters<typeof Form>[0]) {
  await renderInTestApp(
    <TestApiProvider apis={[[gpuApiRef, api]]}>
      <Form {...props} />
    </TestApiProvider>,
  );
}

/** The form's data for an existing workload. */
const existing = (namespace: string, kind: WorkloadKind, name: string) => ({
  namespace,
  workloadType: 'existing',
  existingKind: kind,
  existingName: name,
});

function apiHolder(api: GpuApi) {
  return {
    get: <T,>(ref: ApiRef<T>) =>
      (ref.id === gpuApiRef.id ? api : undefined) as T | undefined,
  };
}

async function validate(
  api: GpuApi,
  value: string | undefined,
  formData: Record<string, unknown>,
) {
  const errors: string[] = [];
  await validateGpuWorkloadContainerPicker(
    value,
    { addError: m => errors.push(m) },
    { apiHolder: apiHolder(api), formData },
  );
  return errors;
}

describe('GpuWorkloadContainerPicker', () => {
  it("offers the workload's containers from the repository, with its replicas now, and stores the choice", async () => {
    const { api, queries } = repositoryApi();
    const values: Array<string | undefined> = [];
    await renderField(api, {
      formData: existing('ml', 'Deployment', 'recommender'),
      onValue: v => values.push(v),
    });

    expect(
      await screen.findByTestId('gpu-workload-replicas'),
    ).toHaveTextContent('3 replicas now');
    expect(queries).toEqual([{ namespace: 'ml', name: 'recommender' }]);
    // Several containers: nothing chosen for the user, the choice is asked for.
    expect(values).toEqual(['']);
    expect(
      screen.getByText(
        'Deployment "recommender" has 2 containers (api, metrics-exporter): name the one that gets the GPU',
      ),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByLabelText(/Container/));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual(['api', 'metrics-exporter']);
    await userEvent.click(within(listbox).getByText('metrics-exporter'));
    expect(values[values.length - 1]).toBe('metrics-exporter');
    await waitFor(() =>
      expect(screen.queryByText(/name the one that gets the GPU/)).toBeNull(),
    );
  });

  it("chooses the only container by itself and shows a Job's parallelism", async () => {
    const { api } = repositoryApi();
    const values: Array<string | undefined> = [];
    await renderField(api, {
      formData: existing('batch', 'Job', 'train-nightly'),
      onValue: v => values.push(v),
    });
    expect(
      await screen.findByTestId('gpu-workload-replicas'),
    ).toHaveTextContent('parallelism 2 now');
    await waitFor(() => expect(values[values.length - 1]).toBe('trainer'));
    expect(screen.getByLabelText(/Container/)).toHaveTextContent('trainer');
  });

  it('says when the repository does not hold the workload, naming the kinds it knows and the kind it has', async () => {
    const { api } = repositoryApi();
    await renderField(api, {
      formData: existing('ml', 'Deployment', 'vector-db'),
    });
    const notFound = await screen.findByTestId('gpu-workload-not-found');
    expect(notFound).toHaveTextContent(
      'No Deployment "vector-db" in namespace "ml" in the GitOps repository. It holds a StatefulSet of that name: choose that kind.',
    );
    expect(notFound).toHaveTextContent(
      'knows workloads of kind Deployment, StatefulSet, Job, CronJob',
    );
    // A container can still be typed for a workload elsewhere in the repository.
    await userEvent.type(screen.getByLabelText(/Container/), 'db');
    expect(screen.getByLabelText(/Container/)).toHaveValue('db');
  });

  it('waits for a workload name before asking the repository', async () => {
    const { api, queries } = repositoryApi();
    await renderField(api, {
      formData: { namespace: 'ml', workloadType: 'existing' },
    });
    expect(
      screen.getByText(/Name the existing workload first/),
    ).toBeInTheDocument();
    expect(queries).toEqual([]);
  });

  it("validates: a choice among several containers is required, by the actions' rule", async () => {
    const { api } = repositoryApi();
    const recommender = existing('ml', 'Deployment', 'recommender');
    expect(await validate(api, '', recommender)).toEqual([
      'Deployment "recommender" has 2 containers (api, metrics-exporter): name the one that gets the GPU',
    ]);
    expect(await validate(api, 'web', recommender)).toEqual([
      'Deployment "recommender" has no container "web"; its containers: api, metrics-exporter',
    ]);
    expect(await validate(api, 'api', recommender)).toEqual([]);
    // One container, or a workload the index does not know: nothing to refuse.
    expect(
      await validate(api, '', existing('batch', 'Job', 'train-nightly')),
    ).toEqual([]);
    expect(
      await validate(api, '', existing('ml', 'Deployment', 'elsewhere')),
    ).toEqual([]);
    // The backend cannot be asked: the action checks when it runs.
    const down = fakeGpuApi({
      getWorkloads: () => Promise.reject(new Error('down')),
    });
    expect(await validate(down, '', recommender)).toEqual([]);
  });
});
