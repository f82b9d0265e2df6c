/** The QA runner: test plans → agent runs with the qa skill → verdicts, checks, JUnit and HTML. */
export { parsePlan, readPlanFile, parseExpectation, parseDuration } from './parse-plan.js';
export { PlanError, TestPlanSchema, type TestPlan, type TestCase, type Expectation } from './plan-types.js';
export { runQaPlan, selectCases, newSuiteId, type QaRunOptions } from './qa-runner.js';
export { renderJUnit, xmlEscape } from './junit.js';
export { renderSuiteReport } from './suite-report.js';
export { decideOutcome, describeCase, CHECK_LABEL, type CaseDecision, type CaseView } from './decide.js';
export { ocrSource, type CheckResult, type CheckStatus, type RegionTextSource, type RegionQuery } from './checks.js';
export { createVerdictTool, VerdictInputSchema } from './verdict-tool.js';
export { createFindTextTool, findTextForRun } from '../agent/tools/find-text.js';
export { createFindElementTool, findElementForRun } from '../agent/tools/find-element.js';
export { checkElement, judgeElement, treeSource } from './element-check.js';
export { launchApp, runSetupCommands, SetupError, type AppSession } from './app-session.js';
export { exitCodeFor, countCases, EXIT_OK, EXIT_FAILED, EXIT_INVALID, type SuiteResult, type CaseResult, type AttemptResult, type CaseStatus } from './results.js';
