import { ResponseError } from '@backstage/errors';
import type { GpuPullRequestDetail } from '@gpu-gitops/plugin-gpu-common';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  HEAD,
  chat,
  detail,
  renderPage,
} from '../../__testUtils__/pullRequestPage';

describe('PullRequestPage', () => {
  it('lists the open pull requests, each linked to its review page', async () => {
    await renderPage('/', {
      listPullRequests: async () => ({
        forge: 'local',
        reviewInApp: true,
        pullRequests: [chat],
      }),
    });
    const link = await screen.findByRole('link', { name: chat.title });
    expect(link).toHaveAttribute('href', '/gpu/pull-requests/ml-chat');
    expect(screen.getByText('merges into main')).toBeVisible();
  });

  it('shows the description rendered, the diff, and merges the head it shows', async () => {
    const mergePullRequest = jest.fn(async () => ({
      branch: 'gpu/ml-chat',
      baseBranch: 'main',
      commit: 'b'.repeat(40),
      indexed: true,
    }));
    await renderPage('/ml-chat', {
      getPullRequest: async id => {
        expect(id).toBe('ml-chat');
        return detail;
      },
      mergePullRequest,
    });
    expect(
      await screen.findByRole('heading', { name: 'Capacity' }),
    ).toBeVisible();
    expect(screen.getByRole('table', { name: '' })).toBeDefined();
    expect(screen.getByLabelText('Diff').textContent).toContain(
      '+kind: GpuRequest',
    );
    const merge = screen.getByRole('button', { name: 'Merge into main' });
    await waitFor(() => expect(merge).toBeEnabled());
    fireEvent.click(merge);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Merged into main as bbbbbbb. The GPU allocation cards show it now.',
    );
    expect(mergePullRequest).toHaveBeenCalledWith('ml-chat', HEAD);
  });

  it('leads from a merge to the component it is for (its kubernetes-id and namespace)', async () => {
    const component = (name: string, id: string, namespace: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name,
        namespace: 'default',
        annotations: {
          'backstage.io/kubernetes-id': id,
          'backstage.io/kubernetes-namespace': namespace,
        },
      },
      spec: { type: 'service', owner: 'ml', lifecycle: 'production' },
    });
    await renderPage(
      '/ml-chat',
      {
        getPullRequest: async () => detail,
        mergePullRequest: async () => ({
          branch: 'gpu/ml-chat',
          baseBranch: 'main',
          commit: 'b'.repeat(40),
          indexed: true,
        }),
      },
      () => true,
      // Only the first runs ml/chat: another namespace's chat is another workload.
      [
        component('chat-service', 'chat', 'ml'),
        component('chat', 'chat', 'research'),
      ],
    );
    const merge = await screen.findByRole('button', {
      name: 'Merge into main',
    });
    await waitFor(() => expect(merge).toBeEnabled());
    fireEvent.click(merge);
    expect(
      await screen.findByRole('link', { name: 'chat-service' }),
    ).toHaveAttribute('href', '/catalog/default/component/chat-service');
    expect(screen.queryByRole('link', { name: 'chat' })).toBeNull();
  });

  it('says the cards follow later when the backend has not read the merge yet', async () => {
    await renderPage('/ml-chat', {
      getPullRequest: async () => detail,
      mergePullRequest: async () => ({
        branch: 'gpu/ml-chat',
        baseBranch: 'main',
        commit: 'b'.repeat(40),
        indexed: false,
      }),
    });
    const merge = await screen.findByRole('button', {
      name: 'Merge into main',
    });
    await waitFor(() => expect(merge).toBeEnabled());
    fireEvent.click(merge);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The gpu backend is still reading main: the GPU allocation cards show it once it has.',
    );
  });

  it('does not offer a merge that conflicts, and shows the refusal of one that does', async () => {
    const conflicting: GpuPullRequestDetail = {
      ...detail,
      mergeable: {
        clean: false,
        conflicts: ['clusters/dev/gpu/nodepools/gpu-t4.yaml'],
      },
    };
    await renderPage('/ml-chat', { getPullRequest: async () => conflicting });
    expect(
      await screen.findByText(
        'conflicts: clusters/dev/gpu/nodepools/gpu-t4.yaml',
      ),
    ).toBeVisible();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Close' })).toBeEnabled(),
    );
    expect(
      screen.getByRole('button', { name: 'Merge into main' }),
    ).toBeDisabled();
  });

  it("says why a merge was refused in the backend's words, with what to do", async () => {
    const reason =
      'gpu/ml-chat changed since you looked (now at bbbbbbbbbbbb, you saw aaaaaaaaaaaa): reload it and review the new changes';
    const refusal = await ResponseError.fromResponse(
      new Response(
        JSON.stringify({
          error: { name: 'ConflictError', message: reason },
          request: {
            method: 'POST',
            url: '/api/gpu/pull-requests/ml-chat/merge',
          },
          response: { statusCode: 409 },
        }),
        { status: 409, headers: { 'Content-Type': 'application/json' } },
      ),
    );
    await renderPage('/ml-chat', {
      getPullRequest: async () => detail,
      mergePullRequest: async () => {
        throw refusal;
      },
    });
    const merge = await screen.findByRole('button', {
      name: 'Merge into main',
    });
    await waitFor(() => expect(merge).toBeEnabled());
    fireEvent.click(merge);
    expect(await screen.findByText('Error: Not merged')).toBeVisible();
    expect(screen.getByText(reason)).toBeVisible();
    expect(screen.queryByText(/Request failed with 409/)).toBeNull();
  });
});
