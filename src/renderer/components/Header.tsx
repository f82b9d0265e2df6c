import { POLICY_TITLES } from '../../shared/labels.js';
import { useApp, useClient } from '../bridge/context.js';
import { formatTokens, formatUsd, inputTokensOf, usageText } from '../lib/format.js';
import { useShortcuts } from '../lib/shortcuts.js';
import { KillHotkeyBadge } from './KillHotkeyBadge.js';
import { shownPolicy, type Tab } from '../store/app-store.js';


/** Always visible: policy mode, run state, cost/token meter, run controls, tabs. */
export function Header() {
  const client = useClient();
  const tab = useApp((s) => s.tab);
  const reviewing = useApp((s) => s.reviewing);
  // A past run opened from History is shown under History's tab (issue 34 item 9); Run goes back to the live view.
  const current: Tab = reviewing && tab === 'run' ? 'history' : tab;
  // Every tab change goes through navigate: it asks before Settings' unsaved edits are lost.
  const show = useApp((s) => s.navigate);
  const policy = useApp(shownPolicy);
  const active = useApp((s) => s.activeRunId);
  const state = useApp((s) => s.activeState);
  const reason = useApp((s) => s.activeReason);
  const run = useApp((s) => s.run);
  const connected = useApp((s) => s.connected);
  const reportError = useApp((s) => s.reportError);
  const recording = useApp((s) => s.recording.state === 'recording');
  const live = !!active && state !== 'ended';
  const total = run?.total;

  const control = (name: 'run.pause' | 'run.resume' | 'run.stop') => {
    if (!active) return;
    client.call(name, { runId: active }).catch((e: unknown) => reportError(String(e)));
  };

  // Keys a live run owns are mapped only while it is live, so a layer below may use them otherwise.
  const stop = () => control('run.stop');
  useShortcuts({
    ...(live ? { p: () => control(state === 'paused' ? 'run.resume' : 'run.pause'), x: stop, Escape: stop } : {}),
    'alt+1': () => show('run'),
    'alt+2': () => show('history'),
    'alt+3': () => show('settings'),
  });

  const tabs: [Tab, string][] = [
    ['run', 'Run'],
    ['history', 'History'],
    ['settings', 'Settings'],
  ];

  return (
    <header className="app-header">
      <div className="brand">DeskPilot</div>
      <nav className="tabs" aria-label="Views">
        {tabs.map(([t, label], i) => (
          <button key={t} className={current === t ? 'tab active' : 'tab'} aria-current={current === t} onClick={() => show(t)} title={`Alt+${i + 1}`} aria-keyshortcuts={`Alt+${i + 1}`}>
            {label}
          </button>
        ))}
      </nav>
      <div className="status">
        {/* While idle it names the policy the next run starts with (the task box's), said as such. */}
        <span className={`policy policy-${policy}`} data-testid="policy-mode" title={live ? 'Approval policy of this run' : 'Approval policy the next run starts with (chosen in the task box)'}>
          {!live && <span className="policy-next">next run: </span>}
          {POLICY_TITLES[policy]}
        </span>
        <span className={`state state-${state ?? 'idle'}`} data-testid="run-state" title={reason}>
          {live ? state?.replace('_', ' ') : 'idle'}
        </span>
        {/* The meter counts the live run only: a finished run's cost is on its end card, not carried into the next. */}
        {live && total && (
          <span className="meter" data-testid="meter" title={usageText(total)}>
            {formatUsd(total.costUsd)}
            <span className="meter-tokens"> · {formatTokens(inputTokensOf(total) + total.outputTokens)} tok</span>
          </span>
        )}
        {recording && (
          <span className="state state-recording" data-testid="recording-badge" title="A demonstration is being recorded">
            <span className="rec-dot" aria-hidden="true" /> recording
          </span>
        )}
        <KillHotkeyBadge />
        {!connected && <span className="state state-offline">offline</span>}
      </div>
      <div className="controls">
        {live && state === 'paused' ? (
          <button onClick={() => control('run.resume')} data-testid="resume" aria-keyshortcuts="P">
            Resume <kbd>P</kbd>
          </button>
        ) : (
          <button onClick={() => control('run.pause')} disabled={!live} data-testid="pause" aria-keyshortcuts="P">
            Pause <kbd>P</kbd>
          </button>
        )}
        <button
          className="danger"
          onClick={stop}
          disabled={!live}
          data-testid="stop"
          aria-keyshortcuts="X Escape"
          title="Stop the run: X, or Esc — Esc also while typing in a field"
        >
          Stop <kbd>X</kbd> <span className="key-or">or</span> <kbd>Esc</kbd>
        </button>
      </div>
    </header>
  );
}
