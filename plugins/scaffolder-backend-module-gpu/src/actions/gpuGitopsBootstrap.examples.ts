import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Prepare the prod cluster for GPU requests, with the bin-packing scheduler',
    example: yaml.stringify({
      steps: [
        {
          id: 'bootstrap',
          action: 'gpu:gitops:bootstrap',
          name: 'Open the GPU bootstrap pull request',
          input: { cluster: 'prod', binPacking: true },
        },
      ],
    }),
  },
];
