import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRun, runDir, sessionSummary } from '../../src/main/sessions/index.js';
import { formatEvent } from '../../src/main/cli/format-event.js';
import type { RunEvent } from '../../src/shared/events.js';
import { usageText } from '../../src/shared/usage-text.js';
import { tempHome, writeSampleRun } from './fixture.js';

// Issue 19: token use and cost as the API reported them, per step in the CLI and the run
// total in history and exports — all from one summary derivation (sessions/summary.ts)
// and one wording (shared/usage-text.ts).

const home = tempHome();
afterAll(() => home.cleanup());

describe('token use and cost from the usage events', () => {
  it('the history summary carries the run total, also for a run that never ended', async () => {
    await writeSampleRun({ home: home.home, runId: 'r-usage-open', steps: 3, end: false });
    const listed = await sessionSummary(home.home, 'r-usage-open');
    expect(listed.usage).toEqual({ inputTokens: 4500, outputTokens: 240, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: expect.closeTo(0.0369, 6) });
  });

  it('Markdown and HTML exports show the run total and each step in the same words', async () => {
    await writeSampleRun({ home: home.home, runId: 'r-usage-md', steps: 2, end: false });
    const dir = runDir(home.home, 'r-usage-md');
    const md = path.join(home.home, 'out.md');
    await exportRun(dir, 'md', md);
    const text = readFileSync(md, 'utf8');
    const total = usageText({ inputTokens: 3000, outputTokens: 160, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0246 });
    expect(text).toContain(`| Tokens | ${total} |`);
    expect(text).toContain('- Tokens: 1.5k in · 80 out · $0.0123');
    const html = path.join(home.home, 'out.html');
    await exportRun(dir, 'html', html);
    expect(readFileSync(html, 'utf8')).toContain(`Tokens: <b>${total}</b>`);
  });

  it('the CLI prints every step\'s tokens, cache reads and writes included, and the run total', () => {
    const event = {
      v: 1, runId: 'r', seq: 3, at: 0, type: 'usage', step: 4,
      stepUsage: { inputTokens: 812, outputTokens: 40, cacheReadTokens: 9_450, cacheWriteTokens: 1_050, costUsd: 0.0071 },
      total: { inputTokens: 9_000, outputTokens: 200, cacheReadTokens: 40_000, cacheWriteTokens: 6_000, costUsd: 0.0412 },
    } as unknown as RunEvent;
    expect(formatEvent(event)).toBe('  tokens 11.3k in (9.4k cached, 1.1k written) · 40 out · $0.0071 (run $0.0412)');
    // A local model (no price) still shows its tokens.
    const free = { ...event, stepUsage: { inputTokens: 700, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } } as unknown as RunEvent;
    expect(formatEvent(free)).toBe('  tokens 700 in · 9 out · $0.00 (run $0.0412)');
  });

  it('the CLI\'s last line gives the run total; a run that never reached the model shows its cost alone', () => {
    const base = { v: 1, runId: 'r', seq: 9, at: 0, type: 'run_ended', status: 'done', summary: 'ok', steps: 2 };
    const total = { inputTokens: 900, outputTokens: 60, cacheReadTokens: 3_000, cacheWriteTokens: 0, costUsd: 0.0042 };
    expect(formatEvent({ ...base, total } as unknown as RunEvent)).toBe('run done after 2 steps: ok (3.9k in (3.0k cached) · 60 out · $0.0042)');
    const none = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
    expect(formatEvent({ ...base, status: 'error', steps: 0, summary: '', total: none } as unknown as RunEvent)).toBe('run error after 0 steps ($0.00)');
  });
});
