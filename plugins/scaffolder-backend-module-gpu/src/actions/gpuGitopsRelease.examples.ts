import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Open the pull request that releases the GPUs of ml/chat-assistant (its request must be merged)',
    example: yaml.stringify({
      steps: [
        {
          id: 'release',
          action: 'gpu:gitops:release',
          name: 'Release the GPUs',
          input: { name: 'chat-assistant', namespace: 'ml' },
        },
      ],
    }),
  },
];
