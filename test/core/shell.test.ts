import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatShellResult, runShell } from '../../src/main/agent/tools/shell.js';

function isRunning(pattern: string): boolean {
  try {
    execFileSync('pgrep', ['-f', pattern]);
    return true;
  } catch {
    return false;
  }
}

describe('runShell', () => {
  it('returns exit code and interleaved output', async () => {
    const result = await runShell('echo out; echo err 1>&2; exit 3');
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('out');
    expect(result.output).toContain('err');
    expect(formatShellResult(result)).toMatch(/^exit code 3/);
  });

  it('kills the whole process group on timeout', async () => {
    const marker = `dp-sleep-${process.pid}-${Date.now()}`;
    const result = await runShell(`bash -c 'exec -a ${marker} sleep 30' & wait`, { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(marker)).toBe(false);
  });

  it('stops when the run is stopped', async () => {
    const controller = new AbortController();
    const pending = runShell('sleep 30', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    expect(result.aborted).toBe(true);
    expect(formatShellResult(result)).toMatch(/stopped by the person/);
  });

  it('cuts long output in the middle', async () => {
    const result = await runShell('seq 1 100000', { maxOutputChars: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBeLessThan(1100);
    expect(result.output.startsWith('1\n2\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('100000')).toBe(true);
  });
});
