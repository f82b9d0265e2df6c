import { killHotkeyProblem } from '../../shared/accelerator.js';
import { ConfigSchema } from '../../shared/config.js';
import type { KillHotkeyPush } from '../service/types.js';

/**
 * The global stop hotkey. It is a safety control, so it is never dropped to try
 * another: a new accelerator is registered while the old one still works, and only
 * once the new one is live is the old one released. When the new one is refused
 * (invalid, or taken by another app) the old one stays live and the state says why.
 */

/** The part of Electron's globalShortcut this needs. */
export interface ShortcutRegistry {
  /** False when another app holds the accelerator; Electron throws when it cannot read it. */
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export const DEFAULT_KILL_HOTKEY: string = ConfigSchema.parse({}).killHotkey;

export type HotkeyChange = { ok: true } | { ok: false; problem: string };

export class KillHotkey {
  /** The accelerator registered now, if any. */
  private live: string | null = null;
  /** The accelerator the config names (it may be the one that could not be registered). */
  private wanted: string | null = null;
  private state: KillHotkeyPush | null = null;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly registry: ShortcutRegistry,
    private readonly onPress: () => void,
  ) {}

  current(): KillHotkeyPush | null {
    return this.state;
  }

  configured(): string | null {
    return this.wanted;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** At start-up: the configured key, else the default one, so some key stops a run. */
  start(configured: string): void {
    this.wanted = configured;
    const wanted = this.change(configured);
    if (wanted.ok || configured === DEFAULT_KILL_HOTKEY) return;
    const fallback = this.change(DEFAULT_KILL_HOTKEY);
    // The config still names the key the person chose; the fallback only stands in.
    this.wanted = configured;
    if (fallback.ok) this.publish(DEFAULT_KILL_HOTKEY, true, `${configured} could not be used (${wanted.problem}); ${DEFAULT_KILL_HOTKEY} stops runs instead`);
    else this.publish(configured, false, `${wanted.problem}, and the fallback failed: ${fallback.problem}`);
  }

  /** Makes `accelerator` the stop key; on failure the previous key stays live. */
  change(accelerator: string): HotkeyChange {
    if (this.live === accelerator) {
      this.wanted = accelerator;
      this.publish(accelerator, true, '');
      return { ok: true };
    }
    const problem = this.tryRegister(accelerator);
    if (problem) {
      this.publish(this.live ?? accelerator, this.live !== null, this.live ? `${accelerator} was not used (${problem}); ${this.live} still stops runs` : problem);
      return { ok: false, problem };
    }
    const old = this.live;
    this.live = accelerator;
    this.wanted = accelerator;
    if (old) this.registry.unregister(old);
    this.publish(accelerator, true, '');
    return { ok: true };
  }

  private tryRegister(accelerator: string): string | null {
    const invalid = killHotkeyProblem(accelerator);
    if (invalid) return invalid;
    try {
      return this.registry.register(accelerator, this.onPress) ? null : `${accelerator} is taken by another app`;
    } catch (error) {
      return `Electron refused ${accelerator}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private publish(accelerator: string, live: boolean, problem: string): void {
    this.state = { kind: 'kill_hotkey', accelerator, live, problem };
    for (const listener of this.listeners) listener();
  }
}
