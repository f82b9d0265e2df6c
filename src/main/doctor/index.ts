import { accessibilityBusCheck, accessibleWindowsCheck, clipboardCheck, displayCheck, fontsCheck, xdotoolCheck, xrandrCheck } from './checks-linux.js';
import { virtualDisplaysCheck } from './checks-qa.js';
import { sandboxCheck } from './checks-sandbox.js';
import { dataFolderCheck, keychainCheck, macPermissionsCheck, nodeCheck, providersCheck } from './checks-common.js';
import type { CheckOutcome, CheckStatus, DoctorCheck, DoctorProbes } from './types.js';

export type { CheckOutcome, CheckStatus, DoctorCheck, DoctorProbes } from './types.js';
export { realProbes } from './probes.js';

/** Every check, in the order they are printed. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  nodeCheck,
  displayCheck,
  xrandrCheck,
  xdotoolCheck,
  clipboardCheck,
  fontsCheck,
  macPermissionsCheck,
  dataFolderCheck,
  keychainCheck,
  providersCheck,
  sandboxCheck,
  accessibilityBusCheck,
  accessibleWindowsCheck,
  virtualDisplaysCheck,
];

export interface DoctorReport {
  /** False when a required check failed: `deskpilot doctor` exits 1. */
  ok: boolean;
  checks: Array<CheckOutcome & { required: boolean }>;
}

/**
 * Runs every check. A check that throws is reported as its own failure (never hidden);
 * a check that is not required can only warn, whatever it returned.
 */
export async function runDoctor(probes: DoctorProbes, checks: readonly DoctorCheck[] = DOCTOR_CHECKS): Promise<DoctorReport> {
  const out: DoctorReport['checks'] = [];
  for (const check of checks) {
    let outcomes: CheckOutcome[];
    try {
      const r = await check.run(probes);
      outcomes = Array.isArray(r) ? r : [r];
    } catch (error) {
      outcomes = [{ id: check.id, status: 'fail', detail: `the check itself failed: ${error instanceof Error ? error.message : String(error)}`, fix: 'see the message; fix it, or report it' }];
    }
    for (const o of outcomes) out.push({ ...o, status: !check.required && o.status === 'fail' ? 'warn' : o.status, required: check.required });
  }
  return { ok: !out.some((c) => c.status === 'fail'), checks: out };
}

const LABEL: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** One line per check: status, id, what was found, and the fix when there is one. */
export function formatReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.id.length));
  const lines = report.checks.map((c) => `${LABEL[c.status]}  ${c.id.padEnd(width)}  ${c.detail}${c.fix ? ` — fix: ${c.fix}` : ''}`);
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  lines.push(report.ok ? `Ready${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.` : `${failed} required check${failed > 1 ? 's' : ''} failed.`);
  return `${lines.join('\n')}\n`;
}
