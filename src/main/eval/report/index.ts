/**
 * `deskpilot eval`'s reports (issue 32 item 4): results.json's schema and summary, report.html,
 * junit.xml and `eval compare`. Pure functions over results; the runner writes the files.
 */
export { EvalResultSchema, EvalResultsFileSchema, EvalSummarySchema, EvalStatusSchema, FAILURE_KINDS, type EvalResult, type EvalResultsFile, type EvalSummary } from './schema.js';
export { summarize, isJudged } from './summary.js';
export { wilsonInterval, passAtK, passHatK, median } from './stats.js';
export { buildResultsFile, readResultsFile, EvalResultsError } from './results-file.js';
export { renderEvalJUnit } from './junit.js';
export { renderEvalReport } from './html.js';
export { compareResults, renderComparison, type EvalComparison, type TaskChange } from './compare.js';
