import { createDevApp } from '@backstage/frontend-dev-utils';
import {
  ApiBlueprint,
  configApiRef,
  createFrontendModule,
  discoveryApiRef,
  fetchApiRef,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import { ScmIntegrations } from '@backstage/integration';
import { ScaffolderClient } from '@backstage/plugin-scaffolder-common';
import { scaffolderApiRef } from '@backstage/plugin-scaffolder-react';
import gpuPlugin from '../src/alpha';

/** `/gpu-dev`: the card / tab for entities named in the URL (see DevEntitiesPage). */
const devPage = PageBlueprint.make({
  name: 'dev',
  params: {
    path: '/gpu-dev',
    title: 'GPU dev',
    loader: () => import('./DevEntitiesPage').then(m => <m.DevEntitiesPage />),
  },
});

/** The scaffolder's client, for the Release form's dry run (`?view=release`). */
const scaffolderApi = ApiBlueprint.make({
  name: 'scaffolder',
  params: defineParams =>
    defineParams({
      api: scaffolderApiRef,
      deps: {
        discoveryApi: discoveryApiRef,
        fetchApi: fetchApiRef,
        configApi: configApiRef,
      },
      factory: ({ discoveryApi, fetchApi, configApi }) =>
        new ScaffolderClient({
          discoveryApi,
          fetchApi,
          scmIntegrationsApi: ScmIntegrations.fromConfig(configApi),
        }),
    }),
});

createDevApp({
  features: [
    gpuPlugin,
    createFrontendModule({
      pluginId: 'gpu',
      extensions: [devPage, scaffolderApi],
    }),
  ],
});
