import { useApp } from '../bridge/context.js';

/**
 * Desktop app only: whether the global stop hotkey works right now. Green with the key
 * when it is registered; red "no stop hotkey" when none is (another app holds it), so
 * a person knows before a run that only the Stop button will stop it. Nothing in a
 * browser (`deskpilot serve` has no global hotkey).
 */
export function KillHotkeyBadge() {
  const hotkey = useApp((s) => s.killHotkey);
  if (!hotkey) return null;
  const label = hotkey.live ? `Stop key ${hotkey.accelerator}` : 'No stop hotkey';
  const title = hotkey.problem || (hotkey.live ? `Press ${hotkey.accelerator} anywhere to stop a run` : '');
  const tone = !hotkey.live ? 'tag-bad' : hotkey.problem ? 'tag-warn' : 'tag-ok';
  return (
    <span className={`pill kill-hotkey ${tone}`} data-testid="kill-hotkey" data-live={hotkey.live} title={title}>
      <span aria-hidden="true">{hotkey.live ? '●' : '○'}</span> {label}
    </span>
  );
}
