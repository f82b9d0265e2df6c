import { assertNever } from '../../shared/assert-never.js';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BridgeClient, PushMessage, RecordingState, SettingsView } from '../../shared/bridge.js';
import type { PolicyMode } from '../../shared/approvals.js';
import type { RunState } from '../../shared/events.js';
import { applyEvent, emptyRun, replay, type RunView } from './run-view.js';

/**
 * The UI's one store. It holds the run being viewed (live or reopened from history),
 * the newest live thumbnail only, streaming text of the current step (capped), and
 * the settings view. Full-size images are never held: only paths, turned into URLs
 * by the bridge client when rendered.
 */

export type Tab = 'run' | 'history' | 'settings';
export type Surface = 'desktop' | 'browser';

export interface AppState {
  tab: Tab;
  /** The run the service says is active, if any. */
  activeRunId: string | null;
  activeState: RunState | null;
  activeReason: string;
  /** Policy of the active run, else the configured one. */
  policy: PolicyMode;
  /** The run shown in the run view. */
  run: RunView | null;
  /** True when `run` is a reopened past session, not the live one. */
  reviewing: boolean;
  /** The live screen; `desktop` names it when it is not the person's own screen (a virtual desktop). */
  frame: { url: string; width: number; height: number; at: number; desktop?: string } | null;
  streaming: string;
  settings: SettingsView | null;
  connected: boolean;
  /** The desktop app can store keys in the OS keychain; `deskpilot serve` takes them from its environment only. */
  canStoreKeys: boolean;
  /** Where this page runs: the desktop app (a global stop hotkey, Record) or a browser of `deskpilot serve` (neither). */
  surface: Surface;
  lastError: string | null;
  selectedStep: number | null;
  /** Desktop app only: the global stop hotkey and whether it is registered; null in `deskpilot serve`. */
  killHotkey: Extract<PushMessage, { kind: 'kill_hotkey' }> | null;
  /** The recording of a person (Record), as main pushes it; `unavailable` in `deskpilot serve`. */
  recording: RecordingState;
  /** A task for the composer to take up, editable before it starts ("Run again"); the composer clears it. */
  draft: ComposerDraft | null;
  /**
   * The policy chosen in the task box for the next run ('' = the configured one). Held
   * here, not in the composer, so the header names the policy Start will use (issue 34
   * item 5: never "Auto" in the header beside "Ask" in the box).
   */
  composerPolicy: PolicyMode | '';
  /** Settings has edits not saved yet: leaving the tab asks first (issue 34 item 7). */
  settingsDirty: boolean;
  /** The tab the person asked for while Settings had unsaved edits; Settings asks Save / Discard / Keep editing. */
  leaveRequest: Tab | null;
}

/** What "Run again" hands the composer: the ended run's task, policy and model. */
export interface ComposerDraft {
  task: string;
  policy: PolicyMode;
  model: string;
  /** What gets focus when the box takes it: the task (Run again), or the profile (Change model). */
  focus?: 'task' | 'profile';
}

export interface AppActions {
  setTab(tab: Tab): void;
  handlePush(message: PushMessage): void;
  /** Opens a past run in the run view; `review` shows it as a past run even when it is the one that just ended. */
  openSession(runId: string, options?: { review?: boolean }): Promise<void>;
  backToLive(): Promise<void>;
  loadSettings(): Promise<void>;
  setSettings(view: SettingsView): void;
  selectStep(step: number | null): void;
  setConnected(on: boolean): void;
  reportError(message: string | null): void;
  setDraft(draft: ComposerDraft | null): void;
  setComposerPolicy(policy: PolicyMode | ''): void;
  /**
   * Every tab change a person asks for (tabs, Alt+1/2/3): Run while a past run is open
   * goes back to the live run; leaving Settings with unsaved edits asks first.
   */
  navigate(tab: Tab): void;
  setSettingsDirty(dirty: boolean): void;
  /** Settings answers the leave request: go (after a save or a discard) or stay. */
  answerLeave(go: boolean): void;
}

export type AppStore = StoreApi<AppState & AppActions>;

/**
 * The policy the header shows (issue 34 item 5): the live run's while one runs, else the
 * one the next run starts with — the task box's choice, else the configured one — never
 * the policy of a run that has ended.
 */
export function shownPolicy(s: Pick<AppState, 'activeRunId' | 'activeState' | 'policy' | 'settings' | 'composerPolicy'>): PolicyMode {
  const live = !!s.activeRunId && s.activeState !== 'ended';
  return live ? s.policy : s.composerPolicy || (s.settings?.config.policy.mode ?? s.policy);
}

const MAX_STREAMING = 2_000;

// Over 120 lines because a zustand store's actions are closures over its one set/get pair.
export function createAppStore(client: BridgeClient, options: { canStoreKeys?: boolean; surface?: Surface } = {}): AppStore {
  const store = createStore<AppState & AppActions>()((set, get) => {
    /** Catch up with a live run we joined mid-way: its log so far, then live events. */
    const catchUp = async (runId: string): Promise<void> => {
      try {
        const { events } = await client.call('sessions.open', { runId });
        const current = get().run;
        if (get().activeRunId !== runId || get().reviewing) return;
        const base = current && current.runId === runId ? current : emptyRun(runId);
        set({ run: events.reduce(applyEvent, base) });
      } catch (err) {
        set({ lastError: `could not load run ${runId}: ${err instanceof Error ? err.message : String(err)}` });
      }
    };

    return {
      tab: 'run',
      activeRunId: null,
      activeState: null,
      activeReason: '',
      policy: 'ask',
      run: null,
      reviewing: false,
      frame: null,
      streaming: '',
      settings: null,
      connected: false,
      canStoreKeys: options.canStoreKeys ?? true,
      surface: options.surface ?? 'desktop',
      lastError: null,
      selectedStep: null,
      killHotkey: null,
      recording: { state: 'idle' },
      draft: null,
      composerPolicy: '',
      settingsDirty: false,
      leaveRequest: null,

      setTab: (tab) => set({ tab }),
      setDraft: (draft) => set(draft ? { draft, composerPolicy: draft.policy } : { draft }),
      setComposerPolicy: (composerPolicy) => set({ composerPolicy }),
      setSettingsDirty: (settingsDirty) => set({ settingsDirty }),
      navigate: (tab) => {
        const s = get();
        if (s.tab === 'settings' && tab !== 'settings' && s.settingsDirty) return set({ leaveRequest: tab });
        if (tab === 'run' && s.reviewing) {
          set({ tab });
          void s.backToLive();
          return;
        }
        set({ tab, leaveRequest: null });
      },
      answerLeave: (go) => {
        const to = get().leaveRequest;
        set({ leaveRequest: null });
        if (!go || !to) return;
        set({ settingsDirty: false });
        get().navigate(to);
      },
      setConnected: (connected) => set({ connected }),
      reportError: (lastError) => set({ lastError }),
      selectStep: (selectedStep) => set({ selectedStep }),
      setSettings: (settings) => set({ settings, policy: get().activeRunId ? get().policy : settings.config.policy.mode }),

      handlePush: (m) => {
        switch (m.kind) {
          case 'frame':
            set({ frame: { url: `data:image/jpeg;base64,${m.jpegBase64}`, width: m.width, height: m.height, at: m.at, ...(m.desktop ? { desktop: m.desktop } : {}) } });
            return;
          case 'delta': {
            if (m.runId !== get().run?.runId) return;
            const s = get().streaming + m.text;
            set({ streaming: s.length > MAX_STREAMING ? s.slice(s.length - MAX_STREAMING) : s });
            return;
          }
          case 'run_state': {
            const prevActive = get().activeRunId;
            set({
              activeRunId: m.runId,
              activeState: m.state,
              activeReason: m.reason,
              ...(m.policy ? { policy: m.policy } : {}),
            });
            const { run, reviewing } = get();
            if (m.runId && m.runId !== prevActive && !reviewing && run?.runId !== m.runId) {
              set({ run: emptyRun(m.runId), streaming: '', selectedStep: null });
              void catchUp(m.runId);
            }
            return;
          }
          case 'kill_hotkey':
            set({ killHotkey: m });
            return;
          case 'record_state':
            set({ recording: m.recording });
            return;
          case 'event': {
            const ev = m.event;
            let { run } = get();
            if (ev.type === 'run_started' && (!run || run.runId !== ev.runId)) {
              // A new live run takes over the view, unless the person is reviewing history.
              if (get().reviewing) return;
              run = emptyRun(ev.runId);
              set({ selectedStep: null, streaming: '' });
            }
            if (!run || run.runId !== ev.runId) return;
            const next = applyEvent(run, ev);
            if (next === run) return;
            const patch: Partial<AppState> = { run: next };
            if (ev.type === 'model_text' || ev.type === 'action_proposed') patch.streaming = '';
            if (ev.type === 'run_started') patch.policy = ev.policy;
            // The run's end is its state's end too: the service pushes run_state right
            // after run_ended, but a view drawn between the two would show "Run stopped"
            // beside an enabled Stop (the header reads activeState). One message, one view.
            if (ev.type === 'run_ended' && ev.runId === get().activeRunId) patch.activeState = 'ended';
            set(patch);
            return;
          }
          default:
            // A new push kind makes tsc name this switch.
            return assertNever(m, 'push');
        }
      },

      openSession: async (runId, options = {}) => {
        const { events } = await client.call('sessions.open', { runId });
        set({ run: replay(runId, events), reviewing: options.review === true || runId !== get().activeRunId, tab: 'run', selectedStep: null, streaming: '' });
      },

      backToLive: async () => {
        const active = get().activeRunId;
        set({ reviewing: false, run: active ? emptyRun(active) : null, selectedStep: null });
        if (active) await catchUp(active);
      },

      loadSettings: async () => {
        const view = await client.call('settings.get', {});
        get().setSettings(view);
      },
    };
  });
  return store;
}
