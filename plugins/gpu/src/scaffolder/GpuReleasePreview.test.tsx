import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { scaffolderApiRef } from '@backstage/plugin-scaffolder-react';
import { ResponseError } from '@backstage/errors';
import { screen, within } from '@testing-library/react';
import { GpuReleasePreview } from './GpuReleasePreview';
import { filesDeletedByDiff } from './releasePreview';

/**
 * The outputs of the release action's dry run for a request whose workload
 * the product created, beside which the team added a Service (the diff as
 * gpu-node's renderChangeSetDiff prints it: a deleted file is `+++ /dev/null`).
 */
const DRY_RUN_OUTPUT = {
  files: [
    'clusters/dev/gpu/nodepools/gpu-l4-ts.yaml',
    'requests/ml/chat.yaml',
    'workloads/ml/chat/deployment.yaml',
    'workloads/ml/chat/kustomization.yaml',
  ],
  diff: [
    '--- a/clusters/dev/gpu/nodepools/gpu-l4-ts.yaml',
    '+++ b/clusters/dev/gpu/nodepools/gpu-l4-ts.yaml',
    '@@ -5,1 +5,1 @@',
    '-    gpu.backstage.io/requests: ml/chat=2',
    '+    gpu.backstage.io/requests: ""',
    '--- a/requests/ml/chat.yaml',
    '+++ /dev/null',
    '@@ -1,1 +0,0 @@',
    '-kind: GpuRequest',
    '--- a/workloads/ml/chat/deployment.yaml',
    '+++ /dev/null',
    '@@ -1,1 +0,0 @@',
    '-kind: Deployment',
    '--- a/workloads/ml/chat/kustomization.yaml',
    '+++ b/workloads/ml/chat/kustomization.yaml',
    '@@ -2,2 +2,1 @@',
    '-  - deployment.yaml',
    '   - service.yaml',
    '',
  ].join('\n'),
  leaves: [
    { kind: 'Service', name: 'chat', path: 'workloads/ml/chat/service.yaml' },
  ],
  savings: 'saves $0.00 per month: pool gpu-l4-ts keeps its nodes',
};

function scaffolderApi(dryRun: (request: any) => Promise<any>) {
  return { dryRun } as any;
}

async function renderField(
  formData: Record<string, unknown>,
  dryRun: (request: any) => Promise<any>,
) {
  const props: any = {
    formData: undefined,
    onChange: () => {},
    uiSchema: { 'ui:options': { debounceMs: 0 } },
    formContext: { formData },
    schema: { title: 'What the release deletes and what stays' },
  };
  await renderInTestApp(
    <TestApiProvider apis={[[scaffolderApiRef, scaffolderApi(dryRun)]]}>
      <GpuReleasePreview {...props} />
    </TestApiProvider>,
  );
}

describe('GpuReleasePreview', () => {
  it('dry-runs the release action for the form request and lists what it deletes and what stays', async () => {
    const requests: any[] = [];
    await renderField({ namespace: 'ml', name: 'chat' }, async request => {
      requests.push(request);
      return {
        output: DRY_RUN_OUTPUT,
        log: [],
        steps: [],
        directoryContents: [],
      };
    });
    const deletes = await screen.findByRole('list', { name: 'Deletes' });
    expect(
      within(deletes)
        .getAllByRole('listitem')
        .map(li => li.textContent),
    ).toEqual(['requests/ml/chat.yaml', 'workloads/ml/chat/deployment.yaml']);
    const stays = screen.getByRole('list', { name: /^Stays/ });
    expect(within(stays).getByRole('listitem').textContent).toBe(
      'Service chat (workloads/ml/chat/service.yaml)',
    );
    expect(
      within(screen.getByRole('list', { name: 'Changes and keeps' }))
        .getAllByRole('listitem')
        .map(li => li.textContent),
    ).toEqual([
      'clusters/dev/gpu/nodepools/gpu-l4-ts.yaml',
      'workloads/ml/chat/kustomization.yaml',
    ]);
    screen.getByText(`It ${DRY_RUN_OUTPUT.savings}`);
    // One step, the release action itself, for the form's request.
    expect(requests).toHaveLength(1);
    expect(requests[0].template.spec.steps).toEqual([
      expect.objectContaining({
        action: 'gpu:gitops:release',
        input: { namespace: 'ml', name: 'chat' },
      }),
    ]);
  });

  it("shows the backend's reason when the release cannot be built (e.g. not merged)", async () => {
    const response = new Response(
      JSON.stringify({
        error: {
          name: 'InputError',
          message:
            'No merged GPU request ml/chat: requests/ml/chat.yaml is not on main',
        },
        request: { method: 'POST', url: '/api/scaffolder/v2/dry-run' },
        response: { statusCode: 400 },
      }),
      { status: 400, headers: { 'Content-Type': 'application/json' } },
    );
    const error = await ResponseError.fromResponse(response);
    await renderField({ namespace: 'ml', name: 'chat' }, async () => {
      throw error;
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The release of ml/chat cannot be previewed: No merged GPU request ml/chat: requests/ml/chat.yaml is not on main',
    );
  });

  it('asks nothing until the name and namespace are valid names', async () => {
    const dryRun = jest.fn();
    await renderField({ namespace: 'ml', name: 'Chat!' }, dryRun);
    screen.getByText(/Name the request/);
    expect(dryRun).not.toHaveBeenCalled();
  });
});

describe('filesDeletedByDiff', () => {
  it('reads the deleted files of a unified diff, not the created or changed ones', () => {
    expect(
      filesDeletedByDiff(
        [
          '--- /dev/null',
          '+++ b/new.yaml',
          '--- a/changed.yaml',
          '+++ b/changed.yaml',
          '--- a/gone.yaml',
          '+++ /dev/null',
          '',
        ].join('\n'),
      ),
    ).toEqual(['gone.yaml']);
  });
});
