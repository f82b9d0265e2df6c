import type { AttemptResult, CaseResult, SuiteResult } from './results.js';
import { countCases } from './results.js';
import { shardLabel } from './shard.js';
import { CHECK_LABEL, describeCase, inconclusiveChecks } from './decide.js';

/**
 * JUnit XML in the shape CI systems read (Jenkins, GitLab, GitHub reporters): one
 * <testsuite> per plan, one <testcase> per case; fail → <failure>, blocked and setup
 * errors → <error>. Retries use Surefire's elements: a case that passed on a retry
 * carries <flakyFailure> per failed attempt, a case that kept failing <rerunFailure>.
 * Evidence paths go in <system-out>, also as [[ATTACHMENT|path]] lines (Jenkins).
 * A case with checks that could not judge carries <property name="inconclusiveChecks">
 * (Surefire 3 testcase properties) and an INCONCLUSIVE line in <system-out>; the suite
 * counts them in its properties. JUnit has no such status, so the case keeps the model's.
 */

/** XML 1.0 forbids most control characters even when escaped. */
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Text from outside DeskPilot (the model's verdict reason, a check's detail, a plan's
 * names) inside a JUnit report: CI plugins act on markers in it — Jenkins'
 * [[ATTACHMENT|path]] (attaches any file the agent can read to the build), TeamCity's
 * ##teamcity[…], GitHub's ::command:: lines. Such text is made inert (one space breaks
 * each marker); only renderJUnit's own attachment lines carry a real marker.
 */
export function junitText(text: string): string {
  return text
    .replace(/\[\[/g, '[ [')
    .replace(/##teamcity\[/gi, '## teamcity[')
    .replace(/^(\s*)::/gm, '$1: :');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const attr = (name: string, value: string | number) => ` ${name}="${xmlEscape(junitText(String(value)))}"`;

export function renderJUnit(suite: SuiteResult): string {
  const counts = countCases(suite);
  const failures = counts.failed;
  const errors = counts.blocked + counts.error;
  // Cases a suite limit kept from starting are <skipped> testcases: CI shows them, and the totals add up.
  const totals = `${attr('tests', suite.cases.length + counts.notRun)}${attr('failures', failures)}${attr('errors', errors)}${attr('skipped', counts.notRun)}${attr('time', seconds(suite.durationMs))}`;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites${attr('name', 'DeskPilot QA')}${totals}>`);
  // A shard's suite says which shard it is in its name: CI systems list the uploaded JUnit files by suite name.
  const name = suite.shard ? `${suite.title} [shard ${shardLabel(suite.shard)}]` : suite.title;
  out.push(
    `  <testsuite${attr('name', name)}${totals}${attr('timestamp', new Date(suite.startedAt).toISOString().replace(/\.\d+Z$/, ''))}${suite.file ? attr('file', suite.file) : ''}>`,
  );
  out.push('    <properties>');
  out.push(`      <property${attr('name', 'qaSuite')}${attr('value', suite.suiteId)}/>`);
  if (suite.harness) out.push(`      <property${attr('name', 'harness')}${attr('value', suite.harness)}/>`);
  if (suite.shard) out.push(`      <property${attr('name', 'shard')}${attr('value', shardLabel(suite.shard))}/>`);
  if (suite.plan) out.push(`      <property${attr('name', 'planFingerprint')}${attr('value', suite.plan.fingerprint)}/>`);
  out.push(`      <property${attr('name', 'flaky')}${attr('value', counts.flaky)}/>`);
  out.push(`      <property${attr('name', 'healed')}${attr('value', counts.healed)}/>`);
  out.push(`      <property${attr('name', 'cached')}${attr('value', suite.cases.filter((c) => describeCase(c).source === 'cache').length)}/>`);
  if (counts.notRun) out.push(`      <property${attr('name', 'notRun')}${attr('value', counts.notRun)}/>`);
  out.push(`      <property${attr('name', 'inconclusiveChecks')}${attr('value', suite.cases.reduce((n, c) => n + describeCase(c).inconclusive.length, 0))}/>`);
  if (suite.setupError) out.push(`      <property${attr('name', 'setupError')}${attr('value', suite.setupError)}/>`);
  out.push('    </properties>');
  for (const c of suite.cases) out.push(...renderCase(suite, c));
  for (const n of suite.notRun ?? []) {
    out.push(`    <testcase${attr('name', n.name)}${attr('classname', suite.title)}${attr('time', seconds(0))}>`, `      <skipped${attr('message', `not run: ${n.reason}`)}/>`, '    </testcase>');
  }
  if (suite.setupError) out.push(`    <system-err>${xmlEscape(`setup error: ${junitText(suite.setupError)}`)}</system-err>`);
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function renderCase(suite: SuiteResult, c: CaseResult): string[] {
  const last = c.attempts[c.attempts.length - 1];
  const lines = [
    `    <testcase${attr('name', c.name)}${attr('classname', suite.title)}${attr('time', seconds(c.durationMs))}${suite.file ? attr('file', suite.file) : ''}${attr('line', c.line)}>`,
  ];
  const view = describeCase(c);
  // Where the actions came from (qa --replay): model, cache or healed, on every case.
  const properties: string[] = [`        <property${attr('name', 'source')}${attr('value', view.source)}/>`];
  if (view.inconclusive.length) properties.push(`        <property${attr('name', 'inconclusiveChecks')}${attr('value', view.inconclusive.length)}/>`);
  if (c.shard) properties.push(`        <property${attr('name', 'shard')}${attr('value', shardLabel(c.shard))}/>`);
  if (c.worker !== undefined) properties.push(`        <property${attr('name', 'worker')}${attr('value', c.worker)}/>`);
  lines.push('      <properties>', ...properties, '      </properties>');
  if (c.status === 'failed') lines.push(`      <failure${attr('message', c.message)}${attr('type', 'fail')}>${xmlEscape(details(last))}</failure>`);
  if (c.status === 'blocked' || c.status === 'error') {
    lines.push(`      <error${attr('message', c.message)}${attr('type', c.status)}>${xmlEscape(details(last))}</error>`);
  }
  const earlier = c.attempts.slice(0, -1);
  const element = c.status === 'passed' ? 'flakyFailure' : 'rerunFailure';
  for (const a of earlier) {
    lines.push(`      <${element}${attr('message', a.message)}${attr('type', a.status)}>${xmlEscape(details(a))}</${element}>`);
  }
  lines.push(`      <system-out>${xmlEscape(systemOut(c))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

function details(a: AttemptResult | undefined): string {
  if (!a) return '';
  const lines = [`attempt ${a.attempt}: ${a.status}`];
  if (a.verdict) lines.push(`model verdict: ${a.verdict.verdict} — ${junitText(a.verdict.reason)}`);
  for (const check of a.checks) lines.push(`check ${CHECK_LABEL[check.status]}: ${junitText(check.source)} — ${junitText(check.detail)}`);
  if (a.runStatus) lines.push(`run ${a.runId ?? ''} ended: ${a.runStatus}`);
  for (const e of a.evidence) lines.push(`evidence: ${junitText(e)}`);
  return lines.join('\n');
}

function systemOut(c: CaseResult): string {
  const lines: string[] = [];
  // Attachment markers only for files the runner wrote (screenshots, check images), never from text.
  if (c.flaky) lines.push(`FLAKY: passed on attempt ${c.attempts.length} after ${c.attempts.length - 1} failed attempt(s)`);
  lines.push(`SOURCE: ${describeCase(c).sourceLabel}`);
  const unsure = inconclusiveChecks(c.attempts[c.attempts.length - 1]);
  if (unsure.length) lines.push(`INCONCLUSIVE: ${unsure.length} check(s) could not judge; the model's verdict stands`);
  for (const a of c.attempts) {
    lines.push(details(a));
    if (a.runDir) lines.push(`run folder: ${junitText(a.runDir)}`);
    for (const check of a.checks) if (check.image) lines.push(`[[ATTACHMENT|${check.image}]]`);
    for (const e of a.evidence) lines.push(`[[ATTACHMENT|${e}]]`);
  }
  return lines.join('\n');
}
