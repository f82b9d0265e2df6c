import { actionSpec, carriedText, type Action } from '../../shared/actions.js';
import { describeWhole, shortTitle } from '../../shared/action-text.js';
import { ruleLabel } from '../../shared/labels.js';
import { resolvedTargetSentence, type ResolvedTarget } from '../../shared/resolved-target.js';
import type { GateDecision } from '../../shared/approvals.js';
import { isModeRule } from '../../shared/rule-ids.js';
import { hasHiddenCharacters, visibleText } from '../../shared/visible-text.js';
import { hasTarget } from '../lib/geometry.js';
import { chordsOf, type DesktopPlatform } from '../lib/key-names.js';
import type { riskWarningOf } from '../lib/risk.js';
import { FullText } from './FullText.js';

/**
 * What the approval card says about the held action, each part one component: the risk,
 * where it lands, how its target was found, its headline, the text it carries, and why
 * it was held.
 */

/** The warning of a risky action (a risk rule or the provider's safety check held it). */
export function RiskWarning({ risk }: { risk: ReturnType<typeof riskWarningOf> }) {
  if (!risk) return null;
  return (
    <p className="risk-warning" role="alert" data-testid="risk-warning">
      <span className="risk-icon" aria-hidden="true">
        ⚠
      </span>
      <span>
        <strong>Risky: {visibleText(risk.finding)}.</strong> <span className="risk-rule">Held by {risk.rule}. Reject is the default.</span>
      </span>
    </p>
  );
}

/**
 * What the action lands on, named before any coordinates (issue 34 item 3): the element
 * under the point when the accessibility tree told, and the window that has the focus
 * (where keys go, and the window a click is in).
 */
export function LandsOn({ action, element, window }: { action: Action; element?: { role: string; name: string }; window?: { title: string; app: string } }) {
  const onElement = element && action.type !== 'element' ? element : undefined;
  const keys = action.type === 'type' || action.type === 'key' || action.type === 'hold_key' || action.type === 'key_down' || action.type === 'key_up';
  if (!onElement && !window) return null;
  return (
    <p className="lands-on" data-testid="proposal-target">
      {onElement && (
        <span data-testid="proposal-element">
          On <strong>{visibleText(onElement.role)} “{visibleText(onElement.name)}”</strong>
        </span>
      )}
      {window && (
        <span data-testid="proposal-window">
          {onElement ? ' in ' : keys ? 'Into ' : 'In '}
          <strong>“{visibleText(window.title || window.app)}”</strong>
          {window.title && window.app ? <span className="muted"> ({visibleText(window.app)})</span> : null}
        </span>
      )}
    </p>
  );
}

/** How the planner's target words were found (planner-grounder harness), when they were. */
export function ResolvedLine({ resolved }: { resolved: ResolvedTarget | undefined }) {
  if (!resolved) return null;
  const sentence = resolvedTargetSentence(resolved);
  return (
    <p className="lands-on" data-testid="proposal-resolved">
      {sentence.lead} <strong>{visibleText(sentence.line)}</strong>
    </p>
  );
}

/** The action's headline, with a note when its point is in the screenshot's pixels. */
export function ProposalLine({ action }: { action: Action }) {
  return (
    <p className="proposal-line" data-testid="proposal-description">
      <strong>{headlineOf(action).title}</strong>
      {hasTarget(action) && <span className="muted coords-note"> (in the screenshot the model saw)</span>}
    </p>
  );
}

/** Why the gate held the action (not said again for a risky one: the warning says it), and whether only a person may approve it. */
export function HeldBecause({ decision, risky }: { decision: GateDecision | undefined; risky: boolean }) {
  return (
    <>
      {decision && !risky && (
        <p className="muted why">
          {decision.reason}
          {!isModeRule(decision.rule) && (
            <span className="rule" title={decision.rule}>
              {' '}
              ({ruleLabel(decision.rule)})
            </span>
          )}
        </p>
      )}
      {decision?.humanOnly && <p className="notice">Only a person can approve this one.</p>}
    </>
  );
}

/**
 * The card's headline is the one describer's (shared/action-text.ts, issue 27 item 3): the
 * same words the terminal prompt, ACP, MCP and the HUD say, never the renderer's own. It is
 * `shortTitle` — `describeWhole` when that fits two short lines (100 characters), else its start
 * and end around the cut — and then the card shows the carried text whole below it.
 */
function headlineOf(action: Action): { title: string; whole: boolean } {
  const title = shortTitle(action, HEADLINE_CHARS);
  return { title, whole: title === describeWhole(action) };
}
const HEADLINE_CHARS = 100;

/** The text an action carries, whole: key chords by their names on this platform, any other text through FullText. */
export function CarriedText({ action, platform }: { action: Action; platform: DesktopPlatform }) {
  const text = carriedText(action);
  if (text === undefined) return null;
  const chords = actionSpec(action).chords ? chordsOf(text, platform) : null;
  if (!chords) {
    // The headline already says short plain text whole; text cut there, or with a control or
    // invisible character in it, is shown whole here with every such character marked.
    if (headlineOf(action).whole && !hasHiddenCharacters(text) && !text.includes('\n')) return null;
    return <FullText text={text} label={`${action.type} text, whole`} testId="proposal-text" />;
  }
  return (
    <p className="chords" data-testid="proposal-keys">
      {chords.map((chord, i) => (
        <span key={i} className="chord">
          {i > 0 && <span className="muted"> then </span>}
          {chord.map((k, j) => (
            <span key={j}>
              {j > 0 && <span className="plus">+</span>}
              <kbd className="key">{k}</kbd>
            </span>
          ))}
        </span>
      ))}
    </p>
  );
}
