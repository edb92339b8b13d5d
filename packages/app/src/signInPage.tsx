import { SignInPage } from '@backstage/core-components';
import { SignInPageBlueprint } from '@backstage/plugin-app-react';

/**
 * Guest sign-in: the local backend runs the guest auth provider
 * (app-config.yaml `auth.providers.guest`), so anyone opening the local app
 * signs in as the demo user `user:default/guest` (a member of ml-platform,
 * `auth.providers.guest.userEntityRef`) without an identity provider. No `name`:
 * the extension must keep the id `sign-in-page:app` to replace the app's
 * default (the root accepts a single sign-in page; a second one breaks it).
 */
export const guestSignInPage = SignInPageBlueprint.make({
  params: {
    loader: async () => props => (
      <SignInPage {...props} providers={['guest']} />
    ),
  },
});
