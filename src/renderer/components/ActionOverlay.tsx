import { chordsText } from '../lib/key-names.js';
import { useDesktopPlatform } from '../lib/desktop-platform.js';
import { actionMark, describeAction, type Action } from '../../shared/actions.js';
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
  const mark = actionMark(action);
  switch (mark.shape) {
    case 'point': {
      const { left, top } = toPercent(mark.at, size);
      // An element action is drawn at its element's centre like a click (same crosshair style).
      const style = action.type === 'element' ? 'click' : action.type;
      return (
        <div
          className={`overlay-point overlay-${style}`}
          data-testid="action-overlay"
          data-kind={action.type}
          data-x={mark.at.x}
          data-y={mark.at.y}
          style={{ left: `${left}%`, top: `${top}%` }}
        >
          <span className="crosshair" aria-hidden="true" />
          <span className="overlay-label">{mark.label}</span>
        </div>
      );
    }
    case 'scroll': {
      const { left, top } = toPercent(mark.at, size);
      const arrow = { up: '↑', down: '↓', left: '←', right: '→' }[mark.direction];
      return (
        <div className="overlay-point overlay-scroll" data-testid="action-overlay" data-kind={action.type} data-x={mark.at.x} data-y={mark.at.y} style={{ left: `${left}%`, top: `${top}%` }}>
          <span className="scroll-marker" aria-hidden="true">{arrow}</span>
          <span className="overlay-label">
            scroll {mark.direction} ×{mark.amount}
          </span>
        </div>
      );
    }
    case 'path': {
      const pts = mark.path.map((p) => toPercent(p, size));
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${p.left} ${p.top}`).join(' ');
      const end = pts[pts.length - 1]!;
      const start = pts[0]!;
      return (
        <>
          <svg className="overlay-svg" viewBox="0 0 100 100" preserveAspectRatio="none" data-testid="action-overlay" data-kind={action.type} aria-hidden="true">
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
    case 'note':
      return <TextBadge text={describeAction(action)} kind={action.type} />;
    case 'text':
      return <TextBadge text={`⌨ ${mark.text}`} kind={action.type} />;
    case 'keys':
      return <TextBadge text={`⌨ ${mark.verb ? `${mark.verb} ` : ''}${chordsText(mark.keys, platform)}`} kind="key" />;
    case 'region': {
      const a = toPercent({ x: mark.rect.x, y: mark.rect.y }, size);
      return (
        <div
          className="overlay-rect"
          data-testid="action-overlay"
          data-kind={action.type}
          style={{ left: `${a.left}%`, top: `${a.top}%`, width: `${(mark.rect.width / size.width) * 100}%`, height: `${(mark.rect.height / size.height) * 100}%` }}
        />
      );
    }
    case 'none':
      return null;
    default:
      return assertNever(mark, 'action mark');
  }
}

function TextBadge({ text, kind = 'text' }: { text: string; kind?: string }) {
  return (
    <div className="overlay-text" data-testid="action-overlay" data-kind={kind}>
      {headAndTail(badgeText(text))}
    </div>
  );
}
