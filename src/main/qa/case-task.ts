import type { TestCase, TestPlan } from './plan-types.js';

/** The task the agent gets for one case: what to test, step by step, and what to expect, numbered. */
export function caseTask(plan: TestPlan, testCase: TestCase): string {
  const lines: string[] = [];
  lines.push(`Test case "${testCase.name}" of the test plan "${plan.title}".`);
  lines.push(
    `The application under test is already running${plan.app.window ? ` (window "${plan.app.window}")` : ''}; it was started with: ${plan.app.launch}`,
  );
  if (plan.setup.instructions.length) {
    lines.push('', 'First, setup:');
    plan.setup.instructions.forEach((s) => lines.push(`- ${s}`));
  }
  lines.push('', 'Steps:');
  testCase.steps.forEach((s, i) => lines.push(`${i + 1}. ${s}`));
  lines.push('', 'Expected results:');
  testCase.expected.forEach((e, i) => {
    const exact = testCase.expectations.find((x) => x.source === e);
    const note =
      exact?.kind === 'region_text'
        ? ` (exact: DeskPilot also reads the "${exact.region}" region itself)`
        : exact?.kind === 'title'
          ? ' (exact: DeskPilot also reads the window title itself)'
          : exact?.kind === 'screen_text'
            ? ' (exact: give the region where this text is shown in qa_verdict checks; DeskPilot reads it itself)'
            : '';
    lines.push(`${i + 1}. ${e}${note}`);
  });
  lines.push(
    '',
    'Carry out the steps, look at the result, then call qa_verdict with pass, fail or blocked, the reason, and the evidence.',
  );
  return lines.join('\n');
}

/** Added to the system prompt next to the qa skill: the rules DeskPilot enforces. */
export const QA_ADDENDUM = [
  'This run is an automated QA test case. Nobody will answer questions: do not use ask_user or finish; end with qa_verdict.',
  'qa_verdict is refused until the screenshot after your last action has been taken; the first and the final screenshots are attached as evidence automatically.',
  'Report what the application shows, even when it contradicts the plan. A verdict that DeskPilot\'s own checks contradict fails the case.',
].join('\n');
