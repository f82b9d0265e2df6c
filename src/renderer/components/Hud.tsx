import { describeWhole, shortTitle } from '../../shared/action-text.js';
import { visibleText } from '../../shared/visible-text.js';
import { useApp, useClient } from '../bridge/context.js';
import { formatUsd } from '../lib/format.js';
import { HeldBadge } from './HeldBadge.js';
import { KillHotkeyBadge } from './KillHotkeyBadge.js';

/**
 * The run HUD (desktop app only): a small always-on-top, content-protected window with
 * what the agent is doing now and pause/stop. Loaded as index.html#hud.
 */
/** What fits the HUD's one line (420 px wide, beside the state badge) before CSS would cut the end off. */
const HUD_TITLE_CHARS = 48;

export function Hud() {
  const client = useClient();
  const run = useApp((s) => s.run);
  const active = useApp((s) => s.activeRunId);
  const state = useApp((s) => s.activeState);
  const live = !!active && state !== 'ended';
  const lastStep = run?.stepOrder[run.stepOrder.length - 1];
  const lastProposalId = run?.pending[0] ?? (lastStep !== undefined ? run?.steps[lastStep]?.proposals.at(-1) : undefined);
  const proposal = lastProposalId ? run?.proposals[lastProposalId] : undefined;
  const control = (name: 'run.pause' | 'run.resume' | 'run.stop') => active && void client.call(name, { runId: active }).catch(() => {});
  return (
    <div className="hud">
      <div className="hud-line">
        <span className={`state state-${state ?? 'idle'}`}>{live ? state?.replace('_', ' ') : 'idle'}</span>
        {/* One short line (start and end, the cut said), the whole action as its tooltip: the one describer of decisions. */}
        <span className="hud-action" title={proposal ? describeWhole(proposal.action) : undefined}>
          {proposal ? shortTitle(proposal.action, HUD_TITLE_CHARS) : visibleText(run?.task ?? 'No run')}
        </span>
      </div>
      <div className="hud-line">
        <span className="hud-meta">
          <KillHotkeyBadge />
          <HeldBadge held={run?.held} />
          {run && <span className="muted">{formatUsd(run.total.costUsd)}</span>}
        </span>
        <span className="hud-buttons">
          {state === 'paused' ? (
            <button onClick={() => control('run.resume')} disabled={!live}>Resume</button>
          ) : (
            <button onClick={() => control('run.pause')} disabled={!live}>Pause</button>
          )}
          <button className="danger" onClick={() => control('run.stop')} disabled={!live}>Stop</button>
        </span>
      </div>
    </div>
  );
}
