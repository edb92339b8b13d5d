import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { gpuApiRef, type GpuApi } from '../api/GpuApi';
import { fakeGpuApi } from '../__testUtils__/fakeGpuApi';
import { plannerBackedGpuApi } from '../__testUtils__/plannerBackedGpuApi';
import { GpuClusterPicker } from './GpuClusterPicker';

/** Holds the field's value the way the scaffolder form does. */
function Form(props: { onValue: (v: string | undefined) => void }) {
  const [value, setValue] = useState<string | undefined>('');
  const fieldProps: any = {
    formData: value,
    onChange: (v: string | undefined) => {
      setValue(v);
      props.onValue(v);
    },
    schema: { title: 'Cluster', type: 'string' },
    rawErrors: [],
    idSchema: { $id: 'root_cluster' },
    name: 'cluster',
  };
  return <GpuClusterPicker {...fieldProps} />;
}

async function renderPicker(api: GpuApi, onValue = (_v?: string) => {}) {
  await renderInTestApp(
    <TestApiProvider apis={[[gpuApiRef, api]]}>
      <Form onValue={onValue} />
    </TestApiProvider>,
  );
}

describe('GpuClusterPicker', () => {
  it('offers the configured clusters with provider and region, the default chosen, and stores the pick', async () => {
    const { api } = plannerBackedGpuApi();
    const values: Array<string | undefined> = [];
    await renderPicker(api, v => values.push(v));

    await waitFor(() => expect(values).toEqual(['dev']));
    expect(screen.getByLabelText(/^Cluster/)).toHaveTextContent(
      'dev — AWS (Karpenter), us-east-1',
    );
    await userEvent.click(screen.getByLabelText(/^Cluster/));
    const listbox = await screen.findByRole('listbox');
    const options = within(listbox)
      .getAllByRole('option')
      .map(o => o.textContent);
    const { clusters } = await api.getClusters();
    expect(options).toEqual(clusters.map(c => c.label));
    await userEvent.click(within(listbox).getByText(/^inference — /));
    expect(values[values.length - 1]).toBe('inference');
  });

  it('says when the clusters cannot be read, and chooses nothing', async () => {
    const values: Array<string | undefined> = [];
    await renderPicker(
      fakeGpuApi({
        getClusters: () => Promise.reject(new Error('503 Service Unavailable')),
      }),
      v => values.push(v),
    );
    expect(
      await screen.findByText(
        'Could not read the clusters: 503 Service Unavailable',
      ),
    ).toBeInTheDocument();
    expect(values).toEqual([]);
  });
});
