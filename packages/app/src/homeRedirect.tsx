import { PageBlueprint } from '@backstage/frontend-plugin-api';
import { Navigate } from 'react-router-dom';

/**
 * `/` has no home page in this app: send visitors to the catalog, where the
 * components (and their GPU card and tab) and the GPU template are listed.
 */
export const homeRedirectPage = PageBlueprint.make({
  name: 'home-redirect',
  params: {
    path: '/',
    loader: async () => <Navigate to="/catalog" replace />,
  },
});
