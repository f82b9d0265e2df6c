import { formatBytes, readCappedText } from '../read-capped.js';
import { MAX_TIMER_MESSAGE, MAX_TIMER_MS } from '../../shared/timers.js';
import type { Rect } from '../../shared/actions.js';
import { ELEMENT_STATES } from '../../shared/elements.js';
import {
  DEFAULT_CASE_LIMITS,
  DEFAULT_START_TIMEOUT_MS,
  PlanError,
  RESERVED_REGION_NAMES,
  TestPlanSchema,
  type CaseLimits,
  type Expectation,
  type Geometry,
  type TestPlan,
} from './plan-types.js';
import { nameTable, own } from '../../shared/own.js';

/**
 * The test-plan format (docs/TEST-PLANS.md) is a small, line-oriented subset of
 * Markdown, so it is parsed line by line: that keeps every error tied to its line.
 *
 *   # Title                      description paragraphs
 *   ## App                       - Launch: `cmd`  - Window: title  - Geometry: WxH+X+Y
 *                                - Region <name>: x, y, w, h  - Start timeout: 10s  - Reset: restart|keep
 *   ## Setup                     - Run: `cmd`  or a plain instruction
 *   ## Defaults                  - Timeout: 2m  - Max steps: 30  - Retries: 1
 *   ## Case: <name>              optional limit lines, then "Steps:" and "Expected:" lists
 */

type Section = 'none' | 'intro' | 'app' | 'setup' | 'defaults' | 'case';

interface DraftCase {
  name: string;
  line: number;
  steps: string[];
  expected: Array<{ text: string; line: number }>;
  limits: Partial<CaseLimits>;
  list: 'none' | 'steps' | 'expected';
}

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;

/** A plan is a page of Markdown; 1 MiB is hundreds of cases. Bigger is not a plan. */
export const MAX_PLAN_BYTES = 1024 * 1024;
/** Problems listed in a PlanError; the rest are counted. */
export const MAX_PLAN_PROBLEMS_SHOWN = 20;

export async function readPlanFile(file: string): Promise<TestPlan> {
  let text: string;
  try {
    text = await readCappedText(file, { maxBytes: MAX_PLAN_BYTES, what: 'a plan' });
  } catch (error) {
    throw new PlanError([{ line: 1, message: `cannot read the plan: ${error instanceof Error ? error.message : String(error)}` }], file);
  }
  return parsePlan(text, file);
}

// Over 120 lines because it is one pass over the plan's lines whose state (section, the
// case being read, fences, comments, the app block) every kind of line reads and changes.
export function parsePlan(markdown: string, file = 'plan.md'): TestPlan {
  if (Buffer.byteLength(markdown) > MAX_PLAN_BYTES) {
    throw new PlanError([{ line: 1, message: `the plan is ${formatBytes(Buffer.byteLength(markdown))}; a plan may be at most ${formatBytes(MAX_PLAN_BYTES)}` }], file);
  }
  const problems: Array<{ line: number; message: string }> = [];
  const fail = (line: number, message: string) => problems.push({ line, message });

  let title = '';
  const description: string[] = [];
  let section: Section = 'none';
  const app: {
    launch?: string;
    launchLine?: number;
    window?: string;
    geometry?: Geometry;
    regions: Record<string, Rect>;
    startTimeoutMs: number;
    reset: 'restart' | 'keep';
  } = { regions: nameTable<Rect>(), startTimeoutMs: DEFAULT_START_TIMEOUT_MS, reset: 'restart' };
  let appLine = 0;
  const setup = { commands: [] as string[], instructions: [] as string[] };
  const defaults: CaseLimits = { ...DEFAULT_CASE_LIMITS };
  const cases: DraftCase[] = [];
  let current: DraftCase | undefined;
  let inComment = false;
  let inFence = false;

  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trimEnd();
    // HTML comments and fenced code blocks are notes for humans.
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      return;
    }
    if (line.trim().startsWith('<!--')) {
      if (!line.includes('-->')) inComment = true;
      return;
    }
    if (line.trim().startsWith('```')) {
      inFence = !inFence;
      return;
    }
    if (inFence || line.trim() === '') return;

    const h1 = /^#\s+(.+)$/.exec(line);
    if (h1) {
      if (title) fail(lineNo, 'a plan has one "# Title"; use "## Case: …" for cases');
      else title = h1[1]!.trim();
      section = 'intro';
      return;
    }
    const h2 = /^##\s+(.+)$/.exec(line);
    if (h2) {
      const heading = h2[1]!.trim();
      const caseHeading = /^(?:case|test)(?:\s+\d+)?\s*[:.–-]\s*(.+)$/i.exec(heading);
      current = undefined;
      if (caseHeading) {
        section = 'case';
        current = { name: caseHeading[1]!.trim(), line: lineNo, steps: [], expected: [], limits: {}, list: 'none' };
        if (cases.some((c) => c.name === current!.name)) fail(lineNo, `two cases are named "${current.name}"`);
        cases.push(current);
      } else if (/^app(lication)?$/i.test(heading)) {
        section = 'app';
        appLine = lineNo;
      } else if (/^setup$/i.test(heading)) section = 'setup';
      else if (/^defaults$/i.test(heading)) section = 'defaults';
      else fail(lineNo, `unknown section "## ${heading}" (expected App, Setup, Defaults or "Case: <name>")`);
      return;
    }
    if (/^###\s+/.test(line) && section === 'case' && current) {
      setCaseList(current, line.replace(/^###\s+/, ''), lineNo, fail);
      return;
    }
    if (/^#{3,}\s+/.test(line)) {
      fail(lineNo, `unexpected heading "${line.trim()}"`);
      return;
    }

    switch (section) {
      case 'none':
        fail(lineNo, 'the plan must start with a "# Title" line');
        section = 'intro';
        return;
      case 'intro':
        description.push(line.trim());
        return;
      case 'app': {
        const item = keyValue(line);
        if (!item) return fail(lineNo, 'App lines look like "- Launch: `command`"');
        const key = item.key.toLowerCase();
        const region = /^region\s+([A-Za-z][\w-]*)$/i.exec(item.key);
        if (key === 'launch' || key === 'command') {
          app.launch = unquote(item.value);
          app.launchLine = lineNo;
        } else if (key === 'window' || key === 'window title') app.window = unquote(item.value);
        else if (key === 'geometry') {
          const g = parseGeometry(item.value);
          if (g) app.geometry = g;
          else fail(lineNo, `geometry "${item.value}" must look like 400x300+0+0 (width x height + x + y)`);
        } else if (region) {
          const name = region[1]!.toLowerCase();
          if ((RESERVED_REGION_NAMES as readonly string[]).includes(name)) fail(lineNo, `"${name}" cannot be a region name (it has its own meaning in "Expect ${name}: …")`);
          const rect = parseRect(item.value);
          if (rect) app.regions[name] = rect;
          else fail(lineNo, `region "${item.value}" must be "x, y, width, height" (pixels from the window's top-left corner)`);
        } else if (key === 'start timeout') {
          const ms = parseDuration(item.value);
          if (ms) app.startTimeoutMs = ms;
          else fail(lineNo, `"${item.value}" is not a duration (e.g. 10s, 2m, 500ms; ${MAX_TIMER_MESSAGE})`);
        } else if (key === 'reset') {
          const v = item.value.trim().toLowerCase();
          if (v === 'restart' || v === 'keep') app.reset = v;
          else fail(lineNo, 'Reset is "restart" (a fresh app per case) or "keep"');
        } else fail(lineNo, `unknown App setting "${item.key}" (Launch, Window, Geometry, Region <name>, Start timeout, Reset)`);
        return;
      }
      case 'setup': {
        const m = LIST_ITEM.exec(line);
        if (!m) return fail(lineNo, 'Setup lines are list items ("- Run: `command`" or an instruction)');
        const run = /^run\s*:\s*(.+)$/i.exec(m[1]!.trim());
        if (run) setup.commands.push(unquote(run[1]!));
        else setup.instructions.push(m[1]!.trim());
        return;
      }
      case 'defaults': {
        const item = keyValue(line);
        if (!item) return fail(lineNo, 'Defaults lines look like "- Timeout: 2m"');
        applyLimit(defaults, item, lineNo, fail);
        return;
      }
      case 'case': {
        if (!current) return;
        const m = LIST_ITEM.exec(line);
        const bare = line.trim();
        if (!m && /^(steps|expected( results?)?|expect)\s*:\s*$/i.test(bare)) {
          setCaseList(current, bare.replace(/:\s*$/, ''), lineNo, fail);
          return;
        }
        if (m && current.list === 'none') {
          const item = keyValue(line);
          if (item) applyLimit(current.limits, item, lineNo, fail);
          else fail(lineNo, 'put list items under "Steps:" or "Expected:"');
          return;
        }
        if (!m) {
          // An indented continuation of the previous item.
          if (/^\s+\S/.test(raw) && current.list !== 'none') appendToLast(current, bare);
          else fail(lineNo, `unexpected text in case "${current.name}" (use "Steps:" and "Expected:" lists)`);
          return;
        }
        const text = m[1]!.trim();
        if (current.list === 'steps') current.steps.push(text);
        else current.expected.push({ text, line: lineNo });
        return;
      }
    }
  });

  if (!title) fail(1, 'the plan has no "# Title" line');
  if (!appLine) fail(1, 'the plan has no "## App" section saying how to launch the app');
  else if (!app.launch) fail(appLine, 'the App section needs "- Launch: `command`"');
  if (cases.length === 0) fail(lines.length, 'the plan has no cases ("## Case: <name>")');

  const parsedCases = cases.map((c) => {
    if (c.steps.length === 0) fail(c.line, `case "${c.name}" has no steps ("Steps:" followed by a list)`);
    if (c.expected.length === 0) fail(c.line, `case "${c.name}" has no expected results ("Expected:" followed by a list)`);
    const expectations: Expectation[] = [];
    for (const e of c.expected) {
      const parsed = parseExpectation(e.text, e.line, app.regions);
      if (parsed === undefined) continue;
      if (typeof parsed === 'string') fail(e.line, parsed);
      else expectations.push(parsed);
    }
    return {
      name: c.name,
      line: c.line,
      steps: c.steps,
      expected: c.expected.map((e) => e.text),
      expectations,
      limits: { ...defaults, ...c.limits },
    };
  });

  if (problems.length) throw new PlanError(problems.sort((a, b) => a.line - b.line), file, MAX_PLAN_PROBLEMS_SHOWN);

  const result = TestPlanSchema.safeParse({
    title,
    description: description.join('\n'),
    file,
    app: {
      launch: app.launch,
      window: app.window,
      geometry: app.geometry,
      regions: app.regions,
      startTimeoutMs: app.startTimeoutMs,
      reset: app.reset,
    },
    setup,
    cases: parsedCases,
  });
  if (!result.success) {
    // The line-level checks above should catch everything; this is the safety net.
    throw new PlanError(result.error.issues.map((i) => ({ line: 1, message: `${i.path.join('.')}: ${i.message}` })), file);
  }
  return result.data;
}

function setCaseList(current: DraftCase, heading: string, lineNo: number, fail: (l: number, m: string) => void): void {
  if (/^steps$/i.test(heading.trim())) current.list = 'steps';
  else if (/^(expected( results?)?|expect)$/i.test(heading.trim())) current.list = 'expected';
  else fail(lineNo, `unknown part "${heading}" in a case (use "Steps:" and "Expected:")`);
}

function appendToLast(current: DraftCase, text: string): void {
  if (current.list === 'steps' && current.steps.length) current.steps[current.steps.length - 1] += ` ${text}`;
  const last = current.expected[current.expected.length - 1];
  if (current.list === 'expected' && last) last.text += ` ${text}`;
}

function applyLimit(
  target: Partial<CaseLimits>,
  item: { key: string; value: string },
  lineNo: number,
  fail: (l: number, m: string) => void,
): void {
  const key = item.key.toLowerCase();
  if (key === 'timeout') {
    const ms = parseDuration(item.value);
    if (ms) target.timeoutMs = ms;
    else fail(lineNo, `"${item.value}" is not a duration (e.g. 90s, 2m; ${MAX_TIMER_MESSAGE})`);
  } else if (key === 'max steps' || key === 'steps limit') {
    const n = Number(item.value.trim());
    if (Number.isInteger(n) && n > 0 && n <= 500) target.maxSteps = n;
    else fail(lineNo, `Max steps must be a whole number from 1 to 500, not "${item.value}"`);
  } else if (key === 'retries' || key === 'retry') {
    const n = Number(item.value.trim());
    if (Number.isInteger(n) && n >= 0 && n <= 5) target.retries = n;
    else fail(lineNo, `Retries must be a whole number from 0 to 5, not "${item.value}"`);
  } else fail(lineNo, `unknown setting "${item.key}" (Timeout, Max steps, Retries)`);
}

/**
 * "Expect display: 5", "Expect display contains: 5", "Expect title contains: Saved",
 * "Expect title: Untitled", "Expect text: Hello" / "Expect screen contains: Hello".
 * Returns undefined for a plain-language expectation, a string for an error.
 */
export function parseExpectation(text: string, line: number, regions: Record<string, Rect>): Expectation | string | undefined {
  if (/^expect\s+element\b/i.test(text.trim())) return parseElementExpectation(text.trim(), line);
  const m = /^expect\s+([A-Za-z][\w-]*)(\s+(?:contains|shows|is))?\s*:\s*(.+)$/i.exec(text.trim());
  if (!m) {
    if (/^expect\b/i.test(text.trim())) {
      return 'an exact expectation looks like "Expect <region>: text", "Expect title contains: text" or "Expect text: text"';
    }
    return undefined;
  }
  const subject = m[1]!.toLowerCase();
  const verb = (m[2] ?? '').trim().toLowerCase();
  const value = unquote(m[3]!);
  if (!value) return 'the expected text is empty';
  const source = text.trim();
  if (subject === 'title') return { kind: 'title', match: verb === 'contains' ? 'contains' : 'equals', text: value, line, source };
  if (subject === 'text' || subject === 'screen') return { kind: 'screen_text', text: value, line, source };
  if (!own(regions, subject)) {
    const known = Object.keys(regions);
    return `unknown region "${subject}" (declare it in App as "- Region ${subject}: x, y, width, height"${known.length ? `; declared: ${known.join(', ')}` : ''})`;
  }
  return { kind: 'region_text', region: subject, match: verb === 'contains' ? 'contains' : 'equals', text: value, line, source };
}

/** States an element expectation may name: DeskPilot's states, "disabled", and either negated with "not". */
const ELEMENT_STATE_WORDS: readonly string[] = [...ELEMENT_STATES, 'disabled'];

/**
 * "Expect element <role>[ "name"] <value|name|state|exists>[ contains]: <text>":
 *   Expect element text value: 5
 *   Expect element push button "Save" state: disabled
 *   Expect element check box "Wrap lines" state: not checked
 *   Expect element label "Result" name contains: Res
 *   Expect element push button "Delete" exists: no
 */
export function parseElementExpectation(text: string, line: number): Expectation | string {
  const usage = 'an element expectation looks like \'Expect element push button "Save" state: disabled\' (value, name, state or exists)';
  const m = /^expect\s+element\s+(.+?)\s+(value|name|state|exists)(\s+contains)?\s*:\s*(.+)$/i.exec(text);
  if (!m) return usage;
  const selector = /^([a-z][a-z ]*?)(?:\s+"((?:[^"\\]|\\.)*)")?$/i.exec(m[1]!.trim());
  if (!selector) return `${usage}; the element is a role, then optionally its name in double quotes`;
  const property = m[2]!.toLowerCase() as 'value' | 'name' | 'state' | 'exists';
  const value = unquote(m[4]!);
  if (!value) return 'the expected text is empty';
  if (property === 'state') {
    const word = value.toLowerCase().replace(/^not\s+/, '');
    if (!ELEMENT_STATE_WORDS.includes(word)) return `unknown state "${value}" (one of: ${ELEMENT_STATE_WORDS.join(', ')}; "not <state>" negates)`;
  }
  if (property === 'exists' && !/^(yes|no)$/i.test(value)) return 'exists: takes yes or no';
  let name: string | undefined;
  if (selector[2] !== undefined) {
    try {
      name = JSON.parse(`"${selector[2]}"`) as string;
    } catch {
      return `the element name ${selector[2]} is not a valid quoted string`;
    }
  }
  return {
    kind: 'element',
    role: selector[1]!.toLowerCase(),
    ...(name !== undefined ? { name } : {}),
    property,
    match: m[3] ? 'contains' : 'equals',
    text: property === 'state' || property === 'exists' ? value.toLowerCase() : value,
    line,
    source: text,
  };
}

function keyValue(line: string): { key: string; value: string } | undefined {
  const m = /^\s*(?:[-*+]\s+)?([A-Za-z][\w -]*?)\s*:\s*(.+)$/.exec(line);
  return m ? { key: m[1]!.trim(), value: m[2]!.trim() } : undefined;
}

function unquote(value: string): string {
  const v = value.trim();
  const m = /^(`+|"|')(.*)\1$/.exec(v);
  return (m ? m[2]! : v).trim();
}

export function parseDuration(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?)?$/i.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const ms = unit === 'ms' ? n : unit.startsWith('m') ? n * 60_000 : n * 1000;
  // Longer than a timer can wait is no duration (it would fire at once): the caller reports it.
  return ms > 0 && ms <= MAX_TIMER_MS ? Math.round(ms) : undefined;
}

function parseGeometry(value: string): Geometry | undefined {
  const m = /^(\d+)x(\d+)([+-]\d+)([+-]\d+)$/.exec(unquote(value).replace(/\s+/g, ''));
  if (!m) return undefined;
  return { width: Number(m[1]), height: Number(m[2]), x: Number(m[3]), y: Number(m[4]) };
}

function parseRect(value: string): Rect | undefined {
  const parts = unquote(value).split(/\s*,\s*/).map(Number);
  if (parts.length === 4 && parts.every((n) => Number.isFinite(n))) {
    const [x, y, width, height] = parts as [number, number, number, number];
    if (width > 0 && height > 0) return { x, y, width, height };
    return undefined;
  }
  const g = parseGeometry(value);
  return g ? { x: g.x, y: g.y, width: g.width, height: g.height } : undefined;
}
