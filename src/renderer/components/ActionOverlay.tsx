import { chordsText } from '../lib/key-names.js';
import { useDesktopPlatform } from '../lib/desktop-platform.js';
import { describeAction, type Action } from '../../shared/actions.js';
import { visibleSegments } from '../../shared/visible-text.js';

/** visibleText with controls as ‹CR›, ‹ESC› (fonts here lack the ␍ ␛ pictures; the card below boxes them). */
function badgeText(text: string): string {
  return visibleSegments(text)
    .map((seg) => (seg.name ? `‹${seg.name}›` : seg.text))
    .join('');
}
import { toPercent, type ImageSize } from '../lib/geometry.js';
import { assertNever } from '../../shared/assert-never.js';

/** A badge on the screenshot stays short, but keeps the END of the text too (the card below shows it whole). */
function headAndTail(text: string): string {
  const chars = [...text];
  return chars.length > 200 ? `${chars.slice(0, 140).join('')} … ${chars.slice(-50).join('')}` : text;
}

/**
 * The proposed action drawn on the screenshot the model saw: a crosshair for
 * clicks, an arrow for drags, a marker with a direction for scrolls, the text for
 * typing and keys. Everything is placed in percent of the image, so it lands on the
 * right pixel at any displayed size.
 */
export function ActionOverlay({ action, size }: { action: Action; size: ImageSize }) {
  const platform = useDesktopPlatform();
  switch (action.type) {
    case 'click':
    case 'move':
    case 'mouse_down':
    case 'mouse_up': {
      if (action.x === undefined || action.y === undefined) return <TextBadge text={action.type.replace('_', ' ')} />;
      const { left, top } = toPercent({ x: action.x, y: action.y }, size);
      const label = action.type === 'click' ? (action.clicks > 1 ? `×${action.clicks} ${action.button}` : action.button) : action.type.replace('_', ' ');
      return (
        <div
          className={`overlay-point overlay-${action.type}`}
          data-testid="action-overlay"
          data-kind={action.type}
          data-x={action.x}
          data-y={action.y}
          style={{ left: `${left}%`, top: `${top}%` }}
        >
          <span className="crosshair" aria-hidden="true" />
          <span className="overlay-label">{label}</span>
        </div>
      );
    }
    case 'scroll': {
      const { left, top } = toPercent({ x: action.x, y: action.y }, size);
      const arrow = { up: '↑', down: '↓', left: '←', right: '→' }[action.direction];
      return (
        <div className="overlay-point overlay-scroll" data-testid="action-overlay" data-kind="scroll" data-x={action.x} data-y={action.y} style={{ left: `${left}%`, top: `${top}%` }}>
          <span className="scroll-marker" aria-hidden="true">{arrow}</span>
          <span className="overlay-label">
            scroll {action.direction} ×{action.amount}
          </span>
        </div>
      );
    }
    case 'drag': {
      const pts = action.path.map((p) => toPercent(p, size));
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${p.left} ${p.top}`).join(' ');
      const end = pts[pts.length - 1]!;
      const start = pts[0]!;
      return (
        <>
          <svg className="overlay-svg" viewBox="0 0 100 100" preserveAspectRatio="none" data-testid="action-overlay" data-kind="drag" aria-hidden="true">
            <path d={d} className="drag-path" vectorEffect="non-scaling-stroke" />
          </svg>
          <div className="overlay-point overlay-drag-start" data-testid="drag-start" style={{ left: `${start.left}%`, top: `${start.top}%` }}>
            <span className="dot" />
          </div>
          <div className="overlay-point overlay-drag-end" data-testid="drag-end" style={{ left: `${end.left}%`, top: `${end.top}%` }}>
            <span className="crosshair" />
            <span className="overlay-label">drop</span>
          </div>
        </>
      );
    }
    case 'element': {
      if (!action.target) return <TextBadge text={describeAction(action)} kind="element" />;
      const { left, top } = toPercent({ x: action.target.x, y: action.target.y }, size);
      return (
        <div className="overlay-point overlay-click" data-testid="action-overlay" data-kind="element" data-x={action.target.x} data-y={action.target.y} style={{ left: `${left}%`, top: `${top}%` }}>
          <span className="crosshair" aria-hidden="true" />
          <span className="overlay-label">
            {action.op} {action.target.role} {JSON.stringify(action.target.name.slice(0, 40))}
          </span>
        </div>
      );
    }
    case 'type':
      return <TextBadge text={`⌨ ${action.text}`} kind="type" />;
    case 'key':
    case 'hold_key':
      return <TextBadge text={`⌨ ${chordsText(action.keys, platform)}`} kind="key" />;
    case 'key_down':
      return <TextBadge text={`⌨ hold ${chordsText(action.keys, platform)}`} kind="key" />;
    case 'key_up':
      return <TextBadge text={`⌨ let go ${chordsText(action.keys, platform)}`} kind="key" />;
    case 'zoom': {
      const a = toPercent({ x: action.region.x, y: action.region.y }, size);
      return (
        <div
          className="overlay-rect"
          data-testid="action-overlay"
          data-kind="zoom"
          style={{ left: `${a.left}%`, top: `${a.top}%`, width: `${(action.region.width / size.width) * 100}%`, height: `${(action.region.height / size.height) * 100}%` }}
        />
      );
    }
    case 'wait':
    case 'screenshot':
    case 'cursor_position':
    case 'shell':
    case 'mcp_call':
    case 'ask_user':
    case 'finish':
      return null;
    default:
      return assertNever(action, 'action kind');
  }
}

function TextBadge({ text, kind = 'text' }: { text: string; kind?: string }) {
  return (
    <div className="overlay-text" data-testid="action-overlay" data-kind={kind}>
      {headAndTail(badgeText(text))}
    </div>
  );
}
