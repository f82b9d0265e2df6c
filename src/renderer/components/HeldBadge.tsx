import type { HeldInputs } from '../../shared/actions.js';

/** "Control_L" → "ctrl", "Super_R" → "right super", "XF86Back" stays: short names a person reads. */
function keyLabel(keysym: string): string {
  const m = /^(Control|Shift|Alt|Super|Hyper|Meta)_([LR])$/.exec(keysym);
  if (!m) return keysym;
  const name = m[1] === 'Control' ? 'ctrl' : m[1]!.toLowerCase();
  return m[2] === 'R' ? `right ${name}` : name;
}

/** What the agent holds down between actions ("held: ctrl, left button"); nothing when nothing is held. */
export function HeldBadge({ held }: { held: HeldInputs | undefined }) {
  if (!held || (held.keys.length === 0 && held.buttons.length === 0)) return null;
  const items = [...held.keys.map(keyLabel), ...held.buttons.map((b) => `${b} button`)];
  return (
    <span className="held-badge" data-testid="held-badge" title="Held down by the agent until it lets go; released when the run ends or stops">
      held: {items.join(', ')}
    </span>
  );
}
