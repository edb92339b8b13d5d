import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Open a pull request for a new MPS-shared inference service on a cluster whose MIG strategy is "single" (MPS does not run with "mixed")',
    example: yaml.stringify({
      steps: [
        {
          id: 'pr',
          action: 'gpu:gitops:pull-request',
          name: 'Open the GPU pull request',
          input: {
            name: 'embeddings',
            namespace: 'ml',
            cluster: 'inference',
            owner: 'group:default/ml-platform',
            model: 'a10g',
            sharing: 'mps',
            replicas: 4,
            vramGiB: 4,
            image: 'ghcr.io/example/embeddings:2.1.0',
          },
        },
      ],
    }),
  },
  {
    description:
      'Give an existing Deployment two exclusive GPUs per replica, with the user token from the form secrets',
    example: yaml.stringify({
      steps: [
        {
          id: 'pr',
          action: 'gpu:gitops:pull-request',
          name: 'Open the GPU pull request',
          input: {
            name: 'trainer',
            namespace: 'research',
            owner: 'group:default/research',
            model: 'a100-80gb',
            sharing: 'exclusive',
            replicas: 1,
            gpusPerReplica: 2,
            vramGiB: 160,
            existingKind: 'StatefulSet',
            existingName: 'trainer',
            capacityTypes: ['on-demand'],
            token: '${{ secrets.USER_OAUTH_TOKEN }}',
          },
        },
      ],
    }),
  },
];
