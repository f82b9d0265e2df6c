import { useId, useState } from 'react';
import { visibleSegments, type VisibleSegment } from '../../shared/visible-text.js';

/**
 * Text a person is asked to approve (a shell command, text to type, keys), shown so that
 * nothing runs unseen (issue 12 class 4): every control or invisible character is made
 * visible by the shared `visibleText` rule (␍, ␛, \u{202E} …, highlighted), never
 * interpreted; long text is shown as its start AND its end with a "Show all" button, so
 * a tail like `…; touch x` after a long harmless prefix is always on screen.
 */

/** Collapsed view: this many characters of the start and of the end (a 1440 px card shows ~120 per line). */
export const HEAD_CHARS = 240;
export const TAIL_CHARS = 120;
/** Up to this long (and this many lines) the whole text is shown without a toggle. */
const SHOW_WHOLE_CHARS = HEAD_CHARS + TAIL_CHARS + 40;
const SHOW_WHOLE_LINES = 8;

function Segments({ segments }: { segments: VisibleSegment[] }) {
  return (
    <>
      {segments.map((seg, i) => {
        switch (seg.kind) {
          case 'plain':
            return <span key={i}>{seg.text}</span>;
          case 'picture':
            // The abbreviation ("CR", "ESC"), boxed: fonts often lack the ␍ ␛ pictures.
            return (
              <mark key={i} className="ctl ctl-name" title={`control character ${seg.text} ${seg.name ?? ''}, shown, not interpreted`} data-char={seg.text}>
                {seg.name ?? seg.text}
              </mark>
            );
          case 'escape':
            return (
              <mark key={i} className="ctl" title="invisible or direction-changing character, shown, not interpreted">
                {seg.text}
              </mark>
            );
          case 'newline':
            return (
              <span key={i}>
                <mark className="ctl ctl-name nl" title="line break (LF)" data-char={seg.text}>
                  {seg.name ?? seg.text}
                </mark>
                {'\n'}
              </span>
            );
        }
      })}
    </>
  );
}

/** The segments of `text` cut to the characters [from, to) of the ORIGINAL string (code points). */
function slice(text: string, from: number, to?: number): VisibleSegment[] {
  return visibleSegments([...text].slice(from, to).join(''));
}

export function FullText({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const chars = [...text];
  const lines = text.split('\n').length;
  const hidden = visibleSegments(text).filter((s) => s.kind === 'picture' || s.kind === 'escape').length;
  // Newlines are expected in typed text; they are marked (LF) but not counted as hidden.
  const long = chars.length > SHOW_WHOLE_CHARS || lines > SHOW_WHOLE_LINES;
  const collapsed = long && !expanded;
  return (
    <div className="full-text" data-testid={testId}>
      <pre className="full-text-body" id={id} aria-label={label} data-expanded={collapsed ? 'false' : 'true'} tabIndex={0}>
        {collapsed ? (
          <>
            <Segments segments={slice(text, 0, HEAD_CHARS)} />
            <span className="full-text-gap" data-testid="full-text-gap">
              {' '}… {chars.length - HEAD_CHARS - TAIL_CHARS} more characters …{' '}
            </span>
            <Segments segments={slice(text, chars.length - TAIL_CHARS)} />
          </>
        ) : (
          <Segments segments={visibleSegments(text)} />
        )}
      </pre>
      <div className="full-text-meta muted">
        {chars.length} characters{lines > 1 ? `, ${lines} lines` : ''}
        {hidden > 0 && (
          <span className="notice-inline" data-testid="hidden-chars">
            {' '}
            · {hidden} control or invisible {hidden === 1 ? 'character' : 'characters'}, shown highlighted (CR, ESC, \u{'{…}'})
          </span>
        )}
        {long && (
          <button className="link" aria-controls={id} aria-expanded={expanded} onClick={() => setExpanded((x) => !x)} data-testid="full-text-toggle">
            {expanded ? 'Show start and end' : `Show all ${chars.length} characters`}
          </button>
        )}
      </div>
    </div>
  );
}
