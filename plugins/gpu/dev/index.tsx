import { createDevApp } from '@backstage/frontend-dev-utils';
import {
  createFrontendModule,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
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

createDevApp({
  features: [
    gpuPlugin,
    createFrontendModule({ pluginId: 'gpu', extensions: [devPage] }),
  ],
});
