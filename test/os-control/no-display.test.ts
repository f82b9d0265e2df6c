import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

// Without an X display libnut aborts the process with SIGSEGV; every entry point must
// get a clear error instead. Each check runs in a child process without DISPLAY.
describe('no X display', () => {
  it('the computer refuses with a clear error and the process lives on', async () => {
    const script = `
      import { createComputer } from './src/os-control/index.ts';
      const computer = createComputer();
      try {
        await computer.cursorPosition();
        console.log('UNEXPECTED: no error');
      } catch (error) {
        console.log('ERROR: ' + error.message);
      }
      console.log('ALIVE');
    `;
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env, timeout: 60_000 });
    expect(stdout).toContain('ERROR: no X display: DISPLAY is not set');
    expect(stdout).toContain('ALIVE');
  }, 90_000);

  it('deskpilot run exits 6 (environment, src/main/cli/exit-codes.ts) with the reason', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-test', DESKPILOT_HOME: path.join(root, 'test-artifacts', 'no-display-home') };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const result = await run(process.execPath, ['bin/deskpilot.js', 'run', 'anything', '--yes'], { cwd: root, env, timeout: 60_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('no X display');
  }, 90_000);
});
