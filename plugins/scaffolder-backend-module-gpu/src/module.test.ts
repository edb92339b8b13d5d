import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { scaffolderModuleGpu } from './module';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

describe('scaffolderModuleGpu', () => {
  it('registers the GPU actions with the scaffolder', async () => {
    const addActions = jest.fn();
    await startTestBackend({
      extensionPoints: [[scaffolderActionsExtensionPoint, { addActions }]],
      features: [
        scaffolderModuleGpu,
        mockServices.rootConfig.factory({
          data: {
            gpu: { clusters: { default: 'dev', profiles: { dev: {} } } },
          },
        }),
      ],
    });
    const ids = addActions.mock.calls.flat().map((a: { id: string }) => a.id);
    expect(ids).toEqual([
      'gpu:plan',
      'gpu:gitops:render',
      'gpu:gitops:pull-request',
      'gpu:gitops:bootstrap',
      'gpu:gitops:release',
      'gpu:gitops:import',
    ]);
  });

  it('fails start-up on invalid gpu config instead of failing tasks later', async () => {
    await expect(
      startTestBackend({
        extensionPoints: [
          [scaffolderActionsExtensionPoint, { addActions: jest.fn() }],
        ],
        features: [
          scaffolderModuleGpu,
          mockServices.rootConfig.factory({
            data: {
              gpu: { clusters: { default: 'nope', profiles: { dev: {} } } },
            },
          }),
        ],
      }),
    ).rejects.toThrow(/gpu.clusters.default names "nope"/);
  });
});
