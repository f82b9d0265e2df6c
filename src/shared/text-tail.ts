/**
 * The last words of a child's output, for an error message: decoded as UTF-8 across chunk
 * boundaries and kept to a bound. A pipe hands over 64 KiB pieces wherever they fall, so
 * `chunk.toString()` per piece turned a character split between two reads into two
 * replacement characters (5 of 30,000 '✓' in the sandbox session's test, 8af82ad).
 */

/** The last `limit` UTF-16 units of `text`, never starting with the second half of a surrogate pair. */
export function tailOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const start = text.length - limit;
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}

/** What a stream needs for its text to be kept: Node's readable streams (stderr of a child). */
export interface TextSource {
  setEncoding(encoding: 'utf8'): unknown;
  on(event: 'data', listener: (text: string) => void): unknown;
}

/**
 * Keeps the last `limit` characters `source` writes; read them with the returned function.
 * setEncoding hands whole characters only (Node's StringDecoder holds a split one back).
 */
export function keepTail(source: TextSource | null | undefined, limit: number): () => string {
  let tail = '';
  source?.setEncoding('utf8');
  source?.on('data', (text: string) => (tail = tailOf(tail + text, limit)));
  return () => tail;
}
