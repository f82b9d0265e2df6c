/**
 * A desktop for settle's tests (issue 26): a private Xvfb with an accessibility bus (the
 * apps' text and state events reach settle as on a desktop session), this process's
 * DISPLAY and session bus pointed at it, and DeskPilot's computer on it, warmed up (its
 * echo watch open). stop() ends the bus and the X server.
 */
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startAccessibilityBus, type AccessibilityBus } from './a11y-bus.js';
import { startXvfb, type Xvfb, type XvfbOptions } from './xvfb.js';

export interface SettleDesktop {
  /** The Xvfb with the bus's environment: apps started with it join the bus. */
  xvfb: Xvfb;
  bus: AccessibilityBus;
  computer: DesktopComputer;
  stop(): Promise<void>;
}

export async function startSettleDesktop(screen: { width: number; height: number }, options: Pick<XvfbOptions, 'openboxConfig'> = {}): Promise<SettleDesktop> {
  const bare = await startXvfb({ ...screen, ...options });
  const bus = await startAccessibilityBus(bare);
  process.env.DISPLAY = bus.xvfb.display;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  // Loaded after DISPLAY is set: nut.js binds to the display of its first load.
  const { createComputer } = await import('../../src/os-control/index.js');
  const computer = createComputer();
  await computer.warmUp();
  return {
    xvfb: bus.xvfb,
    bus,
    computer,
    async stop() {
      await bus.stop();
      await bare.stop();
    },
  };
}
