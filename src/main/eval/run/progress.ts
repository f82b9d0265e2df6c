import { formatCost } from '../../../shared/usage-text.js';
/**
 * The eval's progress line, after every task: done/total, passes so far, spend and the
 * time left at the pace so far ("[7/30] 5 passed · $0.42 · ETA 3m10s").
 */
export interface ProgressState {
  done: number;
  total: number;
  passed: number;
  spentUsd: number;
  elapsedMs: number;
  workers: number;
}

export function progressLine(p: ProgressState): string {
  const eta = p.done > 0 && p.done < p.total ? ` · ETA ${duration(((p.total - p.done) * p.elapsedMs) / p.done)}` : '';
  return `[${p.done}/${p.total}] ${p.passed} passed · ${formatCost(p.spentUsd)}${eta}`;
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
