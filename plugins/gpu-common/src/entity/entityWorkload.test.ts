import { entityWorkload } from './entityWorkload';

describe('entityWorkload', () => {
  it('reads the kubernetes-id annotation and the pinned namespace', () => {
    expect(
      entityWorkload({
        metadata: {
          name: 'chat-assistant',
          annotations: {
            'backstage.io/kubernetes-id': 'chat',
            'backstage.io/kubernetes-namespace': 'ml',
          },
        },
      }),
    ).toEqual({ kubernetesId: 'chat', namespace: 'ml' });
  });

  it('falls back to the entity name, and pins no namespace when the annotation is empty', () => {
    expect(
      entityWorkload({
        metadata: {
          name: 'recommender',
          annotations: { 'backstage.io/kubernetes-namespace': '' },
        },
      }),
    ).toEqual({ kubernetesId: 'recommender' });
    expect(entityWorkload({ metadata: { name: 'bare' } })).toEqual({
      kubernetesId: 'bare',
    });
  });
});
