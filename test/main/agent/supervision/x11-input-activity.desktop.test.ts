/**
 * The takeover stream's fence on a real X server (issue 29 item 5 and the review of
 * d31485d): the fence is one XIChangeProperty on the process's held X connection, not an
 * `xinput set-prop` process per agent action, and each fence is matched to its own event.
 *
 * Real Xvfb, the real `xinput test-xi2` stream. `xinput` is reached through a PATH shim
 * that records each call and then runs the real program; the second case also holds the
 * stream's start until the test lets it go (a FIFO the shim reads), so a fence made
 * before the stream listened is certain, not a race.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startX11InputActivity, type InputActivity, type InputActivitySource } from '../../../../src/main/agent/supervision/x11-input-activity.js';
import { until } from '../../../e2e/support.js';
import { startXvfb, type Xvfb } from '../../../harness/xvfb.js';

let xvfb: Xvfb;
let shimDir: string;
const REAL_XINPUT = spawnSync('sh', ['-c', 'command -v xinput'], { encoding: 'utf8' }).stdout.trim();

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
  shimDir = mkdtempSync(path.join(tmpdir(), 'deskpilot-xinput-shim-'));
  writeFileSync(
    path.join(shimDir, 'xinput'),
    [
      '#!/bin/sh',
      'printf "%s\\n" "$*" >> "$XINPUT_SHIM_LOG"',
      // The stream's start waits for the test to write to the FIFO (when one is named).
      'if [ "$1" = test-xi2 ] && [ -n "$XINPUT_SHIM_GATE" ]; then read _ < "$XINPUT_SHIM_GATE"; fi',
      `exec ${REAL_XINPUT} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path.join(shimDir, 'xinput'), 0o755);
});
afterAll(async () => {
  await xvfb?.stop();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

function xdo(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
}

/** The stream reports: waits until a Shift tap comes back through it. */
async function untilLive(source: InputActivitySource): Promise<void> {
  const seen: InputActivity[] = [];
  const stop = source.subscribe((a) => seen.push(a));
  try {
    await until(() => {
      xdo('key', 'shift');
      return seen.length > 0 || undefined;
    }, 20_000, 'the xinput stream to report a key');
  } finally {
    stop();
  }
}

/** Resolves `true` once `promise` resolved, or throws naming `what` after `ms`. */
async function within(promise: Promise<void>, ms: number, what: string): Promise<true> {
  let done = false;
  void promise.then(() => (done = true));
  return until(() => done || undefined, ms, what);
}

/** The fence properties of this process on the XTEST pointer (`xinput list-props`). */
function fenceProperties(): string[] {
  const r = spawnSync(REAL_XINPUT, ['list-props', 'Virtual core XTEST pointer'], { env: xvfb.env, encoding: 'utf8' });
  return [...r.stdout.matchAll(new RegExp(`DESKPILOT_FENCE_${process.pid}_[0-9_]+`, 'g'))].map((m) => m[0]);
}

describe('the takeover stream fence on real X', () => {
  it('runs no xinput process per fence, nor for the device list: the only call is the stream', async () => {
    const log = path.join(shimDir, 'calls-1.log');
    writeFileSync(log, '');
    const source = await startX11InputActivity({ ...xvfb.env, PATH: `${shimDir}:${process.env.PATH ?? ''}`, XINPUT_SHIM_LOG: log });
    expect(source, 'xinput stream on the Xvfb').toBeDefined();
    try {
      await untilLive(source!);
      for (let i = 0; i < 5; i++) {
        xdo('click', '1');
        await within(source!.fence!(), 10_000, `fence ${i + 1}`);
      }
    } finally {
      source!.close();
    }
    // The old fence ran `xinput set-prop … DESKPILOT_FENCE_…` once per fence here, and `delete-prop` at close;
    // the XTEST devices were `xinput list --short`, run synchronously (XIQueryDevice on the held connection now).
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['test-xi2 --root']);
    // The properties made are removed with the stream.
    await until(() => fenceProperties().length === 0 || undefined, 10_000, 'the fence properties to be deleted');
  });

  it('a fence made before the stream listened is lost without moving the next fence onto the wrong event', async () => {
    const log = path.join(shimDir, 'calls-2.log');
    const gate = path.join(shimDir, 'gate');
    writeFileSync(log, '');
    expect(spawnSync('mkfifo', [gate]).status).toBe(0);
    const before = new Set(fenceProperties());
    const source = await startX11InputActivity({
      ...xvfb.env,
      PATH: `${shimDir}:${process.env.PATH ?? ''}`,
      XINPUT_SHIM_LOG: log,
      XINPUT_SHIM_GATE: gate,
    });
    expect(source, 'xinput stream on the Xvfb').toBeDefined();
    try {
      // The stream's xinput waits on the gate: this fence's change reaches no reader.
      const lost = source!.fence!();
      await until(() => fenceProperties().some((p) => !before.has(p)) || undefined, 20_000, 'the first fence property to be set');
      await writeFile(gate, 'go\n');
      await untilLive(source!);
      // The old stream resolved the oldest waiter (the lost fence) on this fence's event,
      // and this fence then waited for an event that never came (30 s).
      // Well inside the old waiter's own 30 s limit (FENCE_LIMIT_MS), which would resolve it anyway.
      await within(source!.fence!(), 20_000, 'the fence after the lost one');
      await within(lost, 1_000, 'the lost fence (settled by the later event)');
      // And the one after that is matched to its own event too.
      xdo('click', '1');
      await within(source!.fence!(), 10_000, 'the third fence');
    } finally {
      source!.close();
      rmSync(gate, { force: true });
    }
  }, 90_000);
});
