import { show } from './validate.js';

/**
 * The reply formats UI-TARS-family models write, read into raw calls (name + string
 * arguments). Which action each call means is ./ui-tars.ts's job; this file only finds
 * the calls and the thought. The formats, as the makers' parsers read them
 * (bytedance/UI-TARS-desktop multimodal/gui-agent/action-parser/src/FomatParsers.ts,
 * packages/ui-tars/action-parser/src/actionParser.ts, bytedance/UI-TARS
 * codes/ui_tars/action_parser.py):
 *
 * 1. seed XML (Seed / UI-TARS-2): `<think…>…</think…><seed:tool_call><function=click>
 *    <parameter=point><point>17 58</point></parameter></function></seed:tool_call>`
 *    (also `<function name='click'><parameter name='point'>…`).
 * 2. omni: `<think>…</think><computer_env>Action: click(…)</computer_env>`, or
 *    `<answer>…</answer>` alone, which means finished(content=…).
 * 3. text: `Thought:` / `Reflection:` + `Action_Summary:` / `<Thought>…</Thought>`, then
 *    `Action:` (ASCII or full-width colon, at a line start or mid-line) and the calls,
 *    optionally closed by `</Output>`. With several `Action:` blocks the makers run only
 *    the last one, and so do we.
 * 4. bare: a known action call with no `Action:` at all (`click(start_box='(1,2)')`).
 *
 * Several calls after one `Action:` are separated by newlines (the makers split on a
 * blank line; a single newline between balanced calls is read the same way).
 */

export interface RawCall {
  /** The call as the model wrote it, for the log and the transcript. */
  raw: string;
  /** Its name and arguments, or why it could not be read. */
  call: { name: string; args: Record<string, string> } | string;
}

export interface RawReply {
  format: 'seed-xml' | 'answer' | 'computer-env' | 'text' | 'bare' | 'none';
  thought: string;
  calls: RawCall[];
}

/** Every action name the makers' parsers and executors know (UI-TARS-desktop multimodal/gui-agent/shared/src/utils/actions.ts actionTypeMap), for finding bare calls. */
export const KNOWN_ACTION_NAMES = [
  'click', 'left_click', 'left_single', 'leftclick', 'leftsingle', 'double_click', 'left_double', 'doubleclick', 'leftdouble',
  'left_triple', 'triple_click', 'right_click', 'right_single', 'rightclick', 'rightsingle', 'middle_click', 'middle_single',
  'middleclick', 'middlesingle', 'move', 'move_to', 'mouse_move', 'moveto', 'mousemove', 'hover', 'mouse_down', 'mousedown',
  'mouse_up', 'mouseup', 'drag', 'select', 'left_click_drag', 'leftclickdrag', 'swipe', 'scroll', 'type', 'hotkey', 'press',
  'release', 'keydown', 'keyup', 'navigate', 'navigate_back', 'long_press', 'press_home', 'press_back', 'open_app', 'wait',
  'finished', 'call_user', 'calluser', 'screenshot', 'snapshot', 'take_screenshot', 'error_env', 'user_stop', 'open_computer',
] as const;

const BARE_CALL = new RegExp(`(?<![A-Za-z0-9_.])(?:${KNOWN_ACTION_NAMES.join('|')})\\s*\\(`, 'i');
/** `Action:` with an ASCII or full-width colon; not `Action_Summary:`. */
const ACTION_MARK = /(?<![A-Za-z0-9_])Action\s*[:：]/g;
/** Closing wrappers and end tokens that may trail the calls; they are not calls. */
const TRAILERS = /<\/?Output>|<\/?computer_env>|<\/seed:tool_call>|\[EOS\]|<\|im_end\|>|<\|endoftext\|>/g;
const THINK = /<(think[a-z_]*)\b[^>]*>([\s\S]*?)<\/\1\s*>/i;

export function readUiTarsReply(reply: string): RawReply {
  const text = reply.replace(/\r\n?/g, '\n').trim();
  return readSeedXml(text) ?? readOmni(text) ?? readText(text) ?? readBare(text) ?? { format: 'none', thought: stripLabels(text), calls: [] };
}

function thinkOf(text: string): string {
  return THINK.exec(text)?.[2]?.trim() ?? '';
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
}

/** `name=foo` or ` name='foo'` inside a tag → foo. */
const NAMED = String.raw`(?:=\s*["']?([^"'>\s]+)["']?|\s+name\s*=\s*["']?([^"'>\s]+)["']?)`;

function readSeedXml(text: string): RawReply | undefined {
  if (!/<seed:tool_call>/.test(text)) return undefined;
  const calls: RawCall[] = [];
  for (const block of text.matchAll(/<seed:tool_call>([\s\S]*?)(?:<\/seed:tool_call>|$)/g)) {
    const body = block[1]!;
    let found = 0;
    for (const fn of body.matchAll(new RegExp(`<function${NAMED}\\s*>([\\s\\S]*?)(?:</function>|$)`, 'g'))) {
      found++;
      const name = (fn[1] ?? fn[2] ?? '').trim();
      const args: Record<string, string> = {};
      for (const p of fn[3]!.matchAll(new RegExp(`<parameter${NAMED}\\s*>([\\s\\S]*?)</parameter>`, 'g'))) {
        args[(p[1] ?? p[2] ?? '').trim()] = decodeXml(p[3]!.trim());
      }
      calls.push({ raw: fn[0].trim(), call: name ? { name, args } : `a <function> without a name: ${show(fn[0])}` });
    }
    if (found === 0) calls.push({ raw: block[0].trim(), call: `<seed:tool_call> holds no <function=…>: ${show(body.trim())}` });
  }
  return { format: 'seed-xml', thought: thinkOf(text), calls };
}

function readOmni(text: string): RawReply | undefined {
  const env = /<computer_env>([\s\S]*?)(?:<\/computer_env>|$)/i.exec(text);
  if (env) {
    const body = env[1]!.trim().replace(/^Action\s*[:：]\s*/i, '');
    return { format: 'computer-env', thought: thinkOf(text), calls: splitCalls(body) };
  }
  const answer = /<answer>([\s\S]*?)<\/answer>/i.exec(text);
  if (answer) {
    const content = answer[1]!.trim();
    return { format: 'answer', thought: thinkOf(text), calls: [{ raw: answer[0], call: { name: 'finished', args: { content } } }] };
  }
  return undefined;
}

function readText(text: string): RawReply | undefined {
  const marks = [...text.matchAll(ACTION_MARK)];
  if (marks.length === 0) return undefined;
  // The last block runs. An "Action:" inside a quoted argument (type(content='Action: x'))
  // does not start a block: a mark whose body holds no readable call gives way to the one before.
  let chosen: RawReply | undefined;
  for (const mark of marks.reverse()) {
    const reply: RawReply = { format: 'text', thought: thoughtOf(text.slice(0, mark.index)), calls: splitCalls(text.slice(mark.index + mark[0].length)) };
    chosen ??= reply;
    if (reply.calls.some((c) => typeof c.call !== 'string')) return reply;
  }
  return chosen;
}

function readBare(text: string): RawReply | undefined {
  const at = BARE_CALL.exec(text);
  if (!at) return undefined;
  return { format: 'bare', thought: thoughtOf(text.slice(0, at.index)), calls: splitCalls(text.slice(at.index)) };
}

/** The thought before the (last) action: its own labels and tags removed; of several Thought blocks, the last. */
function thoughtOf(head: string): string {
  const inTag = /<Thought>([\s\S]*?)<\/Thought>/i.exec(head);
  if (inTag) return inTag[1]!.trim();
  const think = thinkOf(head);
  if (think) return think;
  const labelled = [...head.matchAll(/(?:^|\n)\s*(?:Thought|Action_Summary)\s*[:：]/g)].at(-1);
  return stripLabels(labelled ? head.slice(labelled.index) : head);
}

function stripLabels(s: string): string {
  return s
    .replace(/<\/?[A-Za-z_:]+>/g, ' ')
    .replace(/(?:^|\n)\s*(?:Thought|Reflection|Action_Summary)\s*[:：]\s*/g, '\n')
    .trim();
}

/** The calls of an action body: one per line when quotes and brackets balance; prose lines without a call are not calls. */
export function splitCalls(body: string): RawCall[] {
  const cleaned = body.replace(TRAILERS, '\n');
  const out: RawCall[] = [];
  for (const raw of splitLines(cleaned)) {
    const looksLikeCall = /^[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(raw);
    // A closing remark such as "This opens the menu." is not an attempted action; a line with ( or = is.
    if (!looksLikeCall && !/[(=]/.test(raw)) continue;
    out.push({ raw, call: parseCallText(raw) });
  }
  if (out.length === 0) out.push({ raw: body.trim(), call: `"Action:" is followed by no action${body.trim() ? `: ${show(body.trim())}` : ''}` });
  return out;
}

function splitLines(body: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      if (c === '\\') {
        cur += c + (body[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote && closesQuote(body, i + 1)) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    // A newline ends the call when quotes and brackets balance, or when the next line
    // starts a new call: an unclosed quote must not swallow what follows.
    const nextStartsCall = c === '\n' && /^\s*[A-Za-z_][A-Za-z0-9_]*\(/.test(body.slice(i + 1, i + 80));
    if (c === '\n' && ((!quote && depth <= 0) || nextStartsCall)) {
      quote = null;
      depth = 0;
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * Does a quote at `at - 1` close its string? Only when what follows is the end of the
 * call, the next argument or the line's end — so `type(content='it's done')`, which
 * the models write unescaped, keeps its apostrophe (UI-TARS action_parser.py re-escapes
 * the same way).
 */
function closesQuote(s: string, at: number): boolean {
  return /^\s*(?:\)|,\s*[A-Za-z_][A-Za-z0-9_]*\s*=|$|\n)/.test(s.slice(at, at + 80));
}

/** Splits `name(arg='v', arg2="w", arg3=(1,2))` into its name and arguments; quotes may hold escaped quotes. */
export function parseCallText(text: string): { name: string; args: Record<string, string> } | string {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (!m) return `not an action call: ${show(text)}`;
  const name = m[1]!;
  const body = m[2]!;
  const args: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /[\s,]/.test(body[i]!)) i++;
    if (i >= body.length) break;
    const key = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*/.exec(body.slice(i));
    if (!key) return `${name}: cannot read the arguments ${show(body)}`;
    i += key[0].length;
    const quote = body[i];
    let value = '';
    if (quote === "'" || quote === '"') {
      i++;
      let closed = false;
      while (i < body.length) {
        const c = body[i]!;
        if (c === '\\' && i + 1 < body.length) {
          const n = body[i + 1]!;
          value += n === 'n' ? '\n' : n === 't' ? '\t' : n;
          i += 2;
          continue;
        }
        if (c === quote && closesQuote(body, i + 1)) {
          closed = true;
          i++;
          break;
        }
        value += c;
        i++;
      }
      if (!closed) return `${name}: unterminated quote in ${show(body)}`;
    } else if (quote === '(' || quote === '[') {
      // An unquoted point: start_box=(100,200) — read to the matching bracket.
      const close = quote === '(' ? ')' : ']';
      const end = body.indexOf(close, i);
      if (end === -1) return `${name}: unclosed ${quote} in ${show(body)}`;
      value = body.slice(i, end + 1);
      i = end + 1;
    } else {
      const end = body.indexOf(',', i);
      value = (end === -1 ? body.slice(i) : body.slice(i, end)).trim();
      i = end === -1 ? body.length : end;
    }
    args[key[1]!] = value;
  }
  return { name, args };
}
