// @ts-check

/**
 * The release pull requests the gpu backend has opened for expired requests:
 * one row per request and expiry date, so the release is opened once —
 * across restarts and across backend replicas sharing the database (the
 * primary key makes a second claim fail).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('gpu_expiry_releases', table => {
    table.comment('Release pull requests opened for expired GPU requests');
    table
      .string('request_id')
      .notNullable()
      .comment('The request as <namespace>/<name>');
    table
      .string('expires_at')
      .notNullable()
      .comment("The request's spec.expiresAt the release was opened for");
    table
      .string('state')
      .notNullable()
      .comment('opening (claimed, pull request not yet open) or opened');
    table
      .timestamp('claimed_at', { useTz: true })
      .notNullable()
      .comment('When a replica claimed it (an old opening claim is retried)');
    table.text('pull_request_url').nullable();
    table.primary(['request_id', 'expires_at']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('gpu_expiry_releases');
};
