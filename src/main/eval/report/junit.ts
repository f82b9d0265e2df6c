import { junitText, xmlEscape } from '../../qa/junit.js';
import type { EvalResultsFile } from './schema.js';

/**
 * junit.xml: one <testsuite> per profile × harness, one <testcase> per task run. failed →
 * <failure> (the checker said no, or a limit ended the run), error and needed a person →
 * <error> (neither is the checker's verdict on an end state), skipped and interrupted →
 * <skipped>. Reasons are made inert for CI markers (qa/junit.ts junitText).
 */
export function renderEvalJUnit(file: EvalResultsFile): string {
  const attr = (name: string, value: string | number) => ` ${name}="${xmlEscape(junitText(String(value)))}"`;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = file.results;
  const failures = (rows: typeof all) => rows.filter((r) => r.status === 'failed').length;
  const errors = (rows: typeof all) => rows.filter((r) => r.status === 'error' || r.status === 'needed a person').length;
  const skipped = (rows: typeof all) => rows.filter((r) => r.status === 'skipped' || r.status === 'interrupted').length;
  const time = (rows: typeof all) => rows.reduce((s, r) => s + r.seconds, 0).toFixed(3);
  out.push(`<testsuites${attr('name', `DeskPilot eval — ${file.suite}`)}${attr('tests', all.length)}${attr('failures', failures(all))}${attr('errors', errors(all))}${attr('skipped', skipped(all))}${attr('time', time(all))}>`);
  for (const group of file.summary) {
    const rows = all.filter((r) => r.profile === group.profile && r.harness === group.harness);
    const name = `${group.profile} × ${group.harness}`;
    const several = rows.some((r) => r.run > 1);
    out.push(`  <testsuite${attr('name', name)}${attr('tests', rows.length)}${attr('failures', failures(rows))}${attr('errors', errors(rows))}${attr('skipped', skipped(rows))}${attr('time', time(rows))}>`);
    out.push(`    <properties><property${attr('name', 'models')}${attr('value', group.models.join(', '))}/><property${attr('name', 'successRate')}${attr('value', group.successRate ?? 'none')}/></properties>`);
    for (const r of rows) {
      const open = `    <testcase${attr('name', several ? `${r.id} (run ${r.run})` : r.id)}${attr('classname', name)}${attr('time', r.seconds.toFixed(3))}${attr('file', r.file)}>`;
      const props = `      <properties><property${attr('name', 'score')}${attr('value', r.score)}/><property${attr('name', 'claim')}${attr('value', r.claim)}/>${r.sessionId ? `<property${attr('name', 'sessionId')}${attr('value', r.sessionId)}/>` : ''}</properties>`;
      const message = attr('message', r.reason.slice(0, 500));
      const body =
        r.status === 'failed'
          ? `      <failure${message}${attr('type', r.failure ?? 'checker')}>${xmlEscape(junitText(r.reason))}</failure>`
          : r.status === 'error' || r.status === 'needed a person'
            ? `      <error${message}${attr('type', r.status === 'error' ? (r.failure ?? 'error') : 'needed a person')}>${xmlEscape(junitText(r.reason))}</error>`
            : r.status === 'skipped' || r.status === 'interrupted'
              ? `      <skipped${attr('message', `${r.status}: ${r.reason.slice(0, 500)}`)}/>`
              : '';
      out.push(open, props, ...(body ? [body] : []), '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
