import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Open the pull request that adopts the existing GPU setup of cluster prod (legacy Karpenter objects converted to v1, GPU pools adopted, request records owned by ml-platform)',
    example: yaml.stringify({
      steps: [
        {
          id: 'import',
          action: 'gpu:gitops:import',
          name: 'Import the GPU setup',
          input: { cluster: 'prod', owner: 'group:default/ml-platform' },
        },
      ],
    }),
  },
];
