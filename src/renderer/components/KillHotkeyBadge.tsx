import { formatAccelerator } from '../../shared/accelerator.js';
import { useApp } from '../bridge/context.js';

const MAC = typeof navigator !== 'undefined' && /Mac/.test(navigator.userAgent);

/**
 * Desktop app only: whether the global stop hotkey works right now. Green with the key
 * when it is registered (amber when it is not the configured one); red "No stop
 * hotkey" when none is (another app holds it), so a person knows before a run that
 * only the Stop button will stop it. Nothing in a browser (`deskpilot serve` has no
 * global hotkey).
 */
export function KillHotkeyBadge() {
  const hotkey = useApp((s) => s.killHotkey);
  if (!hotkey) return null;
  const key = formatAccelerator(hotkey.accelerator, MAC);
  const tone = !hotkey.live ? 'tag-bad' : hotkey.problem ? 'tag-warn' : 'tag-ok';
  const title = hotkey.problem || `Stop hotkey: press ${key} anywhere to stop a run`;
  return (
    <span className={`pill kill-hotkey ${tone}`} data-testid="kill-hotkey" data-live={hotkey.live} title={title} aria-label={hotkey.live ? `Stop hotkey ${key} is live` : 'No stop hotkey'}>
      <span aria-hidden="true">{hotkey.live ? '●' : '○'}</span> {hotkey.live ? <kbd>{key}</kbd> : 'No stop hotkey'}
    </span>
  );
}
