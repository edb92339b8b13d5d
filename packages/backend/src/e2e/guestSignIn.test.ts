/**
 * The guest of the local app is the demo user of app-config.yaml: the real
 * auth backend with the guest provider, configured by the project's own
 * app-config.yaml, resolves the user in the catalog (demo/entities.yaml) and
 * hands the frontend its groups. Without `userEntityRef` the guest provider
 * signs in as `user:development/guest`, which no catalog holds: the app's
 * every owner lookup then answers 404 and "my groups" is empty.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import authPlugin from '@backstage/plugin-auth-backend';
import guestProvider from '@backstage/plugin-auth-backend-module-guest-provider';
import catalogPlugin from '@backstage/plugin-catalog-backend';

jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const DEMO_ENTITIES = path.resolve(__dirname, '../../demo/entities.yaml');

describe('guest sign-in of the local app', () => {
  it('resolves to the demo user, a member of ml-platform', async () => {
    const appConfig = parse(
      await fs.readFile(path.join(REPO_ROOT, 'app-config.yaml'), 'utf8'),
    );
    const backend = await startTestBackend({
      features: [
        authPlugin,
        guestProvider,
        catalogPlugin,
        mockServices.rootConfig.factory({
          data: {
            app: { baseUrl: 'http://localhost:3000' },
            backend: {
              baseUrl: 'http://localhost:7007',
              database: { client: 'better-sqlite3', connection: ':memory:' },
            },
            // The project's own auth section, as `npm start` reads it.
            auth: appConfig.auth,
            catalog: {
              rules: [{ allow: ['Location', 'User', 'Group', 'Component'] }],
              locations: [{ type: 'file', target: DEMO_ENTITIES }],
            },
          },
        }),
      ],
    });
    try {
      // The catalog ingests the demo file asynchronously; the provider asks
      // it for the user on every sign-in.
      const deadline = Date.now() + 30_000;
      let identity: { userEntityRef: string; ownershipEntityRefs: string[] };
      for (;;) {
        const res = await request(backend.server)
          .get('/api/auth/guest/refresh')
          .set('X-Requested-With', 'XMLHttpRequest');
        expect(res.status).toBe(200);
        identity = res.body.backstageIdentity.identity;
        if (
          identity.ownershipEntityRefs.includes('group:default/ml-platform') ||
          Date.now() > deadline
        ) {
          break;
        }
        await new Promise(resolve => setTimeout(resolve, 250));
      }
      expect(identity.userEntityRef).toBe('user:default/guest');
      expect(identity.ownershipEntityRefs).toEqual(
        expect.arrayContaining([
          'user:default/guest',
          'group:default/ml-platform',
        ]),
      );
    } finally {
      await backend.stop();
    }
  });
});
