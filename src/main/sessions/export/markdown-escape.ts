/**
 * The one escaper of the Markdown export. Everything in a run's log that came from
 * outside DeskPilot (the model's text, reasoning, typed text, commands, the task, a
 * person's feedback, shell output) is data: rendered by a Markdown viewer it must not
 * become a link (`[x](javascript:…)`), an image that calls home, raw HTML (`<img
 * onerror>`), a heading, or break out of the code span or block it sits in. Each
 * position in the document has its function here; markdown.ts uses nothing else.
 */

/** Every ASCII punctuation character CommonMark lets a backslash escape. */
const MARKDOWN_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** One line of text: punctuation backslash-escaped (so no link, emphasis, HTML or table cell break), line breaks made spaces. */
export function mdInline(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`);
}

/** Several lines as a block quote: each line escaped like mdInline and quoted, so no line can start a heading, list or fence. */
export function mdQuote(text: string): string {
  return text
    .split(/\r\n?|\n/)
    .map((line) => `> ${line.replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`)}`)
    .join('\n');
}

/** Longest run of backticks in the text. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * Inline code: a fence one backtick longer than any run inside (CommonMark), padded
 * with spaces; line breaks shown as ⏎, so a newline cannot end the span and start a
 * new block. Backslashes need no escaping inside code.
 */
export function mdCode(text: string): string {
  const oneLine = text.replace(/\r\n?|\n/g, ' ⏎ ');
  const fence = '`'.repeat(longestBacktickRun(oneLine) + 1);
  return `${fence} ${oneLine} ${fence}`;
}

/** A fenced code block (indented by `indent`): the fence is longer than any backtick run inside, so no line can close it. */
export function mdFence(text: string, info = 'text', indent = ''): string[] {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return [`${indent}${fence}${info}`, ...text.split(/\r\n?|\n/).map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/** A link target the export builds itself (a screenshot path): percent-encoded so it cannot close the link or add a title. */
export function mdUrl(path: string): string {
  return encodeURI(path).replace(/[()<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
