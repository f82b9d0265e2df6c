import type { Devices } from '../../src/os-control/devices.js';

/** A stand-in for the input devices that records each key event as "down x", "up x" or "tap x". */
export function recordingDevices(): { devices: Devices; calls: string[] } {
  const calls: string[] = [];
  const devices = {
    keyDown: async (k: { name: string }) => void calls.push(`down ${k.name}`),
    keyUp: async (k: { name: string }) => void calls.push(`up ${k.name}`),
    tap: async (k: { name: string }) => void calls.push(`tap ${k.name}`),
  } as unknown as Devices;
  return { devices, calls };
}
