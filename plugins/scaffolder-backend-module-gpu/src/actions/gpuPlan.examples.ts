import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Plan two time-sliced replicas of a new inference service with 4 GiB VRAM each',
    example: yaml.stringify({
      steps: [
        {
          id: 'plan',
          action: 'gpu:plan',
          name: 'Plan the GPU request',
          input: {
            name: 'chat-api',
            namespace: 'ml',
            owner: 'group:default/ml-platform',
            model: 't4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 4,
            image: 'ghcr.io/example/chat-api:1.0.0',
          },
        },
      ],
    }),
  },
  {
    description:
      'Plan MIG instances for an existing Deployment, on spot capacity, without reading the repository',
    example: yaml.stringify({
      steps: [
        {
          id: 'plan',
          action: 'gpu:plan',
          name: 'Plan the GPU request',
          input: {
            name: 'recommender-api',
            namespace: 'ml',
            owner: 'group:default/ml-platform',
            model: 'a100-40gb',
            sharing: 'mig',
            replicas: 3,
            vramGiB: 9,
            existingKind: 'Deployment',
            existingName: 'recommender-api',
            capacityTypes: ['spot', 'on-demand'],
            readRepository: false,
          },
        },
      ],
    }),
  },
];
