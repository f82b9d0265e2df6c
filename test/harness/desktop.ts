import type { DesktopComputer } from '../../src/os-control/index.js';
import { startFakeModel, type FakeModelServer } from './fake-model/index.js';
import { startProbe, type Probe, type ProbeOptions } from './probe/probe.js';
import { startXvfb, type Xvfb } from './xvfb.js';

export interface Desktop {
  xvfb: Xvfb;
  probe: Probe;
  fake: FakeModelServer;
  /** nut.js bound to this display (only when asked for: it binds the test process for good). */
  computer: DesktopComputer;
  stop(): Promise<void>;
}

/**
 * The usual stage of an end-to-end test: a fresh Xvfb, the probe page in Chromium, the
 * fake model server, and (with `computer: true`) os-control bound to that display.
 */
export async function startDesktop(
  screen: { width: number; height: number },
  options: { probe?: ProbeOptions; computer?: boolean } = {},
): Promise<Desktop> {
  const xvfb = await startXvfb(screen);
  process.env.DISPLAY = xvfb.display;
  const probe = await startProbe(xvfb, options.probe);
  const fake = await startFakeModel();
  let computer: DesktopComputer | undefined;
  if (options.computer) {
    const { createComputer } = await import('../../src/os-control/index.js');
    computer = createComputer();
  }
  return {
    xvfb,
    probe,
    fake,
    get computer(): DesktopComputer {
      if (!computer) throw new Error('startDesktop was called without { computer: true }');
      return computer;
    },
    async stop() {
      await fake.close();
      await probe.close();
      await xvfb.stop();
    },
  };
}
