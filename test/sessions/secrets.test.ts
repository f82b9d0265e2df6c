import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRun, EXPORT_FORMATS } from '../../src/main/sessions/export/index.js';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { MASKED_SECRET, REDACTED } from '../../src/main/sessions/scrub.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => {
  delete process.env.DESKPILOT_TEST_API_KEY;
  cleanup();
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

describe('secrets never reach the log or an export', () => {
  it('redacts API keys and masks typed secrets in the log, the summary and every export format', async () => {
    const apiKey = `sk-test-${randomBytes(24).toString('hex')}`;
    process.env.DESKPILOT_TEST_API_KEY = apiKey;
    const typedSecret = `sk-ant-api03-${randomBytes(20).toString('base64url')}`;
    const seen: string[] = [];
    const { log } = await writeSampleRun({ home, steps: 4, leak: apiKey, typedSecret });
    const exportsDir = path.join(home, 'exports');
    for (const format of EXPORT_FORMATS) await exportRun(log.dir, format, path.join(exportsDir, `run.${format}`));

    const files = [...(await filesUnder(log.dir)), ...(await filesUnder(exportsDir))];
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['events.jsonl', 'summary.json', 'run.md', 'run.html', 'run.json', 'run.gif', 'run.webp']));
    for (const file of files) {
      const bytes = await fsp.readFile(file);
      expect(bytes.includes(apiKey), `${file} holds the API key`).toBe(false);
      expect(bytes.includes(typedSecret), `${file} holds the typed secret`).toBe(false);
      expect(bytes.includes(Buffer.from(apiKey).toString('base64').slice(0, 40)), `${file} holds the key base64-encoded`).toBe(false);
      seen.push(path.basename(file));
    }
    // The scrubber did replace them (the test would pass vacuously if the text never got there).
    const log1 = await fsp.readFile(path.join(log.dir, 'events.jsonl'), 'utf8');
    expect(log1.split(REDACTED).length - 1).toBeGreaterThanOrEqual(4 * 2 + 1);
    const { events } = await readRunLog(log.dir);
    const typed = events.find((e) => e.type === 'action_proposed' && e.step === 1);
    expect(typed).toMatchObject({ action: { type: 'type', text: MASKED_SECRET } });
    const executed = events.find((e) => e.type === 'action_executed' && e.step === 1);
    expect(executed).toMatchObject({ action: { type: 'type', text: MASKED_SECRET } });
    // The model's raw tool input and its provider replay state are masked too.
    const modelText = events.find((e) => e.type === 'model_text' && e.step === 1);
    expect(JSON.stringify(modelText)).toContain(MASKED_SECRET);
    // Ids and file references are untouched, so resume and exports still follow them.
    expect(events.filter((e) => e.type === 'observation').map((e) => (e.type === 'observation' ? e.image : ''))).toEqual(['shots/0000.png', 'shots/0001.png', 'shots/0002.png', 'shots/0003.png']);
    expect(seen.length).toBe(files.length);
  });

  it('masks only the secret part of typed text, and text the gate held under a risk:secret rule from then on', async () => {
    const log = await createRunLog({ home, findSecretSpans: () => [] });
    const seen: string[] = [];
    log.subscribe((e) => seen.push(JSON.stringify(e)));
    log.append({ type: 'run_started', task: 't', provider: 'p', model: 'm', policy: 'risky', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    // The detector was disabled here, so only the gate's decision marks this text.
    log.append({ type: 'action_proposed', step: 0, proposalId: 'p0', action: { type: 'type', text: 'correct horse battery' }, reasoning: '' });
    log.append({ type: 'approval_requested', proposalId: 'p0', decision: { verdict: 'ask', rule: 'risk:secret-text', reason: 'types a secret', humanOnly: false } });
    const executed = log.append({ type: 'action_executed', step: 0, proposalId: 'p0', action: { type: 'type', text: 'correct horse battery' }, by: { kind: 'person', detail: 'cli' }, ok: true, durationMs: 3 });
    log.append({ type: 'model_text', step: 1, text: 'I typed correct horse battery into the box', kind: 'text' });
    await log.close();
    expect(executed).toMatchObject({ action: { type: 'type', text: MASKED_SECRET } });
    const text = await fsp.readFile(path.join(log.dir, 'events.jsonl'), 'utf8');
    expect(text.split('\n')[3]).not.toContain('correct horse battery');
    expect(text.split('\n')[4]).toContain(`I typed ${MASKED_SECRET} into the box`);
    expect(seen.slice(3).join()).not.toContain('correct horse battery');

    const log2 = await createRunLog({ home });
    log2.append({ type: 'action_proposed', step: 0, proposalId: 'p1', action: { type: 'type', text: 'password=Tr0ub4dor&3x please' }, reasoning: '' });
    await log2.close();
    const line = await fsp.readFile(path.join(log2.dir, 'events.jsonl'), 'utf8');
    expect(line).toContain(`password=${MASKED_SECRET} please`);
    expect(line).not.toContain('Tr0ub4dor');
  });

  it("the policy's own secret decision (not a copied rule id) makes the scrubber mask the text; another rule does not", async () => {
    const log = await createRunLog({ home, findSecretSpans: () => [] });
    log.append({ type: 'run_started', task: 't', provider: 'p', model: 'm', policy: 'risky', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    // The text the policy holds as a secret; the log's own detector is off, so only the rule id can mask it.
    const secret = { type: 'type' as const, text: 'sk-ant-api03-' + 'Q'.repeat(40) };
    const decision = decide(secret, { step: 0, activeWindow: { title: 'Notes', app: 'mousepad' } }, { mode: 'risky', rules: [] });
    expect(decision.verdict).toBe('ask');
    log.append({ type: 'action_proposed', step: 0, proposalId: 'p0', action: secret, reasoning: '' });
    log.append({ type: 'approval_requested', proposalId: 'p0', decision });
    const masked = log.append({ type: 'action_executed', step: 0, proposalId: 'p0', action: secret, by: { kind: 'person', detail: 'cli' }, ok: true, durationMs: 1 });
    // A typed line held by another risk rule stays readable: only the secret rule masks.
    const plain = { type: 'type' as const, text: 'ls -la\n' };
    const other = decide(plain, { step: 1, activeWindow: { title: 'xterm', app: 'xterm' } }, { mode: 'risky', rules: [] });
    expect(other.verdict).toBe('ask');
    expect(other.rule).not.toBe(decision.rule);
    log.append({ type: 'action_proposed', step: 1, proposalId: 'p1', action: plain, reasoning: '' });
    log.append({ type: 'approval_requested', proposalId: 'p1', decision: other });
    const kept = log.append({ type: 'action_executed', step: 1, proposalId: 'p1', action: plain, by: { kind: 'person', detail: 'cli' }, ok: true, durationMs: 1 });
    await log.close();
    expect(masked).toMatchObject({ action: { type: 'type', text: MASKED_SECRET } });
    expect(kept).toMatchObject({ action: { type: 'type', text: 'ls -la\n' } });
  });

  it('redacts a key handed to the log directly (keychain), not only from the environment', async () => {
    const key = `kc-${randomBytes(16).toString('hex')}`;
    const log = await createRunLog({ home, secrets: [key] });
    log.append({ type: 'error', message: `request failed with key ${key}`, fatal: false });
    await log.close();
    const text = await fsp.readFile(path.join(log.dir, 'events.jsonl'), 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(`request failed with key ${REDACTED}`);
  });
});
