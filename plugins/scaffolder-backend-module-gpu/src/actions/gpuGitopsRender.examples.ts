import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'Render the GitOps change set, then open the pull request with publish:github:pull-request',
    example: yaml.stringify({
      steps: [
        {
          id: 'render',
          action: 'gpu:gitops:render',
          name: 'Render GPU manifests',
          input: {
            name: 'chat-api',
            namespace: 'ml',
            owner: 'group:default/ml-platform',
            model: 'l4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 6,
            image: 'ghcr.io/example/chat-api:1.0.0',
            targetPath: 'gitops',
          },
        },
        {
          id: 'pr',
          action: 'publish:github:pull-request',
          name: 'Open the pull request',
          input: {
            repoUrl: 'github.com?owner=example&repo=platform-gitops',
            branchName: '${{ steps.render.output.branchName }}',
            title: '${{ steps.render.output.title }}',
            description: '${{ steps.render.output.body }}',
            sourcePath: 'gitops',
          },
        },
      ],
    }),
  },
];
