import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/main/sessions/history.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { openRunLog } from '../../src/main/sessions/run-log.js';
import { tempHome } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe('a writer killed with SIGKILL', () => {
  it('leaves a log with every synced step complete, listed as interrupted, that can be appended to', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'crash-writer.ts'), home], { stdio: ['ignore', 'pipe', 'inherit'] });
    let runId = '';
    let synced = -1;
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      child.on('exit', (code) => reject(new Error(`writer exited early (${code})`)));
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        for (const m of buf.matchAll(/^run (\S+)$/gm)) runId = m[1]!;
        for (const m of buf.matchAll(/^synced (\d+)$/gm)) synced = Number(m[1]);
        if (synced >= 25) {
          child.removeAllListeners('exit');
          child.kill('SIGKILL');
          child.on('exit', () => resolve());
        }
      });
    });
    const dir = path.join(home, 'sessions', runId);
    const { events } = await readRunLog(dir);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    for (let step = 0; step <= synced; step += 1) {
      const types = events.filter((e) => 'step' in e && e.step === step).map((e) => e.type);
      expect(types, `step ${step}`).toEqual(['observation', 'action_proposed', 'action_executed', 'usage']);
      const obs = events.find((e) => e.type === 'observation' && e.step === step);
      expect(obs && obs.type === 'observation' && existsSync(path.join(dir, obs.image))).toBe(true);
    }
    const [listed] = await listSessions(home);
    expect(listed).toMatchObject({ runId, status: 'interrupted', task: 'crash me' });
    expect(listed!.steps).toBeGreaterThanOrEqual(synced + 1);
    const again = await openRunLog(dir);
    const last = again.lastSeq;
    again.append({ type: 'run_ended', status: 'stopped', summary: 'after the crash', steps: synced + 1, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
    await again.close();
    const after = await readRunLog(dir);
    expect(after.events.at(-1)).toMatchObject({ type: 'run_ended', seq: last + 1 });
    expect((await listSessions(home))[0]?.status).toBe('stopped');
  });
});
