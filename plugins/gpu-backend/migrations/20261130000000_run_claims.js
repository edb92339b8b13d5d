// @ts-check

/**
 * Which replica is running a global task's run: one row per task while a run
 * goes on, so replicas sharing the database never run it side by side even
 * when the scheduler's own lock expires at the task's timeout (the primary
 * key makes a second claim fail).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('gpu_run_claims', table => {
    // No apostrophe in a comment: knex does not escape it in PostgreSQL's COMMENT ON.
    table.comment('Runs of global tasks under way, one replica each');
    table.string('task_id').notNullable().primary().comment('The task id');
    table
      .string('holder')
      .notNullable()
      .comment('The run holding it (random): only it releases the claim');
    table
      .timestamp('claimed_at', { useTz: true })
      .notNullable()
      .comment('When the run claimed it (an old claim is taken over)');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('gpu_run_claims');
};
