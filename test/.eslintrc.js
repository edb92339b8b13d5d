// A test-only workspace that is never built or published: its imports are
// devDependencies, it reads fixtures beside its sources (__dirname), and it
// wires backend and frontend plugins together on purpose.
module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    '@backstage/no-undeclared-imports': 'off',
    '@backstage/no-mixed-plugin-imports': 'off',
    'no-restricted-syntax': 'off',
  },
});
