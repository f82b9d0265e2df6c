/**
 * The names of a task run's status and of why it did not pass: what run/status.ts
 * decides and report/schema.ts writes. Here, below both, so the report does not import
 * the run folder that imports the report (a loop between folders, issue 29).
 */
export const EVAL_STATUSES = ['passed', 'failed', 'skipped', 'error', 'interrupted', 'needed a person'] as const;
export type EvalStatus = (typeof EVAL_STATUSES)[number];

/** Why a task did not pass, for "failures by kind". */
export type FailureKind = 'checker' | 'limit' | 'stopped' | 'runner' | 'setup' | 'run' | 'check-error' | 'person' | 'skipped' | 'interrupted';
