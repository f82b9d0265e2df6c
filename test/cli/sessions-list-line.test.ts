import { describe, expect, it } from 'vitest';
import { listLine } from '../../src/main/cli/sessions-command.js';
import type { ListedSession } from '../../src/main/sessions/history.js';
import { formatCost } from '../../src/shared/usage-text.js';

// One rounding everywhere (issue 34 item 5): `deskpilot sessions list` showed a run's
// $0.0125 as "$0.01" while the app, serve and the exports said $0.0125.
const run = (costUsd: number): ListedSession => ({
  runId: '20261204-1310-ab12',
  task: 'open the calculator and compute 2+3',
  status: 'done',
  startedAt: Date.UTC(2026, 11, 4, 13, 10),
  steps: 4,
  costUsd,
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  labels: {},
  summaryText: '5',
});

describe('sessions list', () => {
  it.each([0.0125, 0, 0.9999, 3.5, 123.456])('shows $%s as formatCost does, in one column', (cost) => {
    const line = listLine(run(cost));
    expect(line).toContain(` ${formatCost(cost)}  open the calculator`);
    // The task starts in the same column whatever the cost.
    expect(line.indexOf('open the calculator')).toBe(listLine(run(0.0125)).indexOf('open the calculator'));
  });
});
