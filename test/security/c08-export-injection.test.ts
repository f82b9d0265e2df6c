import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/main/qa/junit.js';
import type { SuiteResult } from '../../src/main/qa/results.js';
import { exportRun } from '../../src/main/sessions/export/index.js';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { makeScreenshot, observationRecord } from '../sessions/fixture.js';

// Class 8: text from a hostile model (or page, or plan) is data in every export format.
// Markdown: no link, image, raw HTML, heading or list it wrote itself, and no escape
// from a code span; JUnit: no CI marker ([[ATTACHMENT|…]]) it wrote itself.

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '[click me](javascript:alert(document.cookie))',
  '![track](https://evil.example/pixel.png)',
  '<script>alert(1)</script>',
  '\n# Injected heading\n- injected list item\n```\nfenced\n```',
  '<https://evil.example/autolink>',
  '| cell | break |',
].join(' ');

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c08-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Markdown lines outside fenced code blocks. */
function outsideFences(md: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const m = /^\s*(`{3,})/.exec(line);
    if (fence) {
      if (m && m[1]!.length >= fence.length && line.trim() === m[1]) fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1];
      continue;
    }
    out.push(line);
  }
  return out;
}

describe('Markdown export', () => {
  it('renders hostile model text, typed text and output as text, never as markup', async () => {
    const log = await createRunLog({ home: path.join(scratch, 'home') });
    const image = await log.writeFile('shots/0.png', await makeScreenshot(0));
    log.append({ type: 'run_started', task: `Task ${HOSTILE}`, provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    log.append({ type: 'observation', step: 0, observation: observationRecord('o0'), image, thumb: image, settleMs: 0 });
    log.append({ type: 'model_text', step: 0, text: `Reasoning ${HOSTILE}`, kind: 'text' });
    log.append({ type: 'model_text', step: 0, text: `Thinking ${HOSTILE}\n</details><details open>`, kind: 'thinking' });
    const action = { type: 'type' as const, text: 'echo `ok`\n# Injected from typed text\n[x](javascript:alert(2))' };
    log.append({ type: 'action_proposed', step: 0, proposalId: 'p0', action, observationId: 'o0', reasoning: `Because ${HOSTILE}` });
    log.append({ type: 'action_executed', step: 0, proposalId: 'p0', action, by: { kind: 'mode', detail: 'auto' }, ok: true, output: 'out ``` \n```\n# Injected after a closed fence\n<img src=x>', durationMs: 1 });
    log.append({ type: 'run_ended', status: 'done', summary: `Summary ${HOSTILE}`, steps: 1, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
    await log.close();
    const out = path.join(scratch, 'run.md');
    await exportRun(log.dir, 'md', out);
    const md = readFileSync(out, 'utf8');
    const lines = outsideFences(md);

    // Headings: only the export's own (title, one step, result).
    expect(lines.filter((l) => /^\s{0,3}#/.test(l)).map((l) => l.replace(/\s.*/, ''))).toEqual(['#', '##', '##']);
    expect(lines.filter((l) => /^\s{0,3}(#+\s*Injected|[-*+]\s+injected)/i.test(l))).toEqual([]);
    // No raw HTML but the export's own <details>/<summary> around thinking.
    const tags = lines.flatMap((l) => [...l.matchAll(/(?<!\\)<\/?([A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1]!.toLowerCase()));
    expect(tags.filter((t) => t !== 'details' && t !== 'summary')).toEqual([]);
    expect(tags.filter((t) => t === 'details')).toHaveLength(2);
    // No link or image but the screenshot: every "](" is escaped except the export's own image.
    // (Inside a code span "](" is literal text.)
    const links = lines.map((l) => l.replace(/(`+) .*? \1/g, '')).filter((l) => /(?<!\\)\]\(/.test(l));
    expect(links, links.join("\n")).toHaveLength(1);
    expect(links[0]).toMatch(/^!\[Screenshot at step 1\]\(/);
    expect(lines.map((l) => l.replace(/(`+) .*? \1/g, '')).join('\n')).not.toMatch(/(?<!\\)\]\(javascript/);
    // The typed text stays in one inline code span on one line: the backtick inside cannot close it.
    const actionLine = lines.find((l) => l.startsWith('- **Action:**'))!;
    expect(actionLine).toMatch(/^- \*\*Action:\*\* (`{2,}) .*\1$/);
    expect(actionLine).toContain('# Injected from typed text');
    // The shell output fence is longer than any backtick run inside it.
    expect(md).toContain('# Injected after a closed fence');
    expect(lines.join('\n')).not.toContain('# Injected after a closed fence');
  });
});

describe('JUnit report', () => {
  it('a verdict reason, check detail or case name cannot add an attachment or CI command', () => {
    const evil = 'looks fine\n[[ATTACHMENT|/etc/passwd]]\n##teamcity[publishArtifacts \'/etc\']\n::set-env name=X::1';
    const suite: SuiteResult = {
      suiteId: 's',
      title: 'plan',
      startedAt: 0,
      durationMs: 1,
      cases: [
        {
          name: `case [[ATTACHMENT|/etc/shadow]]`,
          line: 1,
          status: 'failed',
          flaky: false,
          message: evil,
          attempts: [
            {
              attempt: 1,
              status: 'failed',
              message: evil,
              verdict: { verdict: 'fail', reason: evil },
              checks: [{ source: 'text', passed: false, detail: evil, image: '/runs/r1/check-0.png' } as never],
              evidence: ['/runs/r1/shots/0.png'],
              durationMs: 1,
            },
          ],
          durationMs: 1,
        },
      ],
    };
    const xml = renderJUnit(suite);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(xml) as {
      testsuites: { testsuite: { testcase: { 'system-out': string; failure: { '#text': string } } } };
    };
    const out = doc.testsuites.testsuite.testcase['system-out'];
    const attachments = out.split('\n').flatMap((l) => [...l.matchAll(/\[\[ATTACHMENT\|([^\]]*)\]\]/g)].map((m) => m[1]));
    expect(attachments).toEqual(['/runs/r1/check-0.png', '/runs/r1/shots/0.png']);
    expect(xml).not.toMatch(/##teamcity\[/);
    expect(xml.split('\n').some((l) => /^\s*::/.test(l))).toBe(false);
    expect(out).toContain('looks fine');
  });
});
