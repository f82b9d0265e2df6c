import { Writable } from 'node:stream';

/**
 * Over stdio, stdout carries the MCP protocol and nothing else: one stray line (a
 * library's console.log, a warning) and the client drops the connection. This takes
 * stdout for the protocol alone: the returned stream writes to the real stdout, and
 * every other write to `process.stdout` — console.log included, which writes through
 * it — goes to stderr instead.
 */
export function takeStdoutForProtocol(): Writable {
  const stdout = process.stdout;
  const writeToStdout = stdout.write.bind(stdout) as (chunk: unknown, encoding?: BufferEncoding, cb?: (error?: Error | null) => void) => boolean;
  const toStderr = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  stdout.write = toStderr;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writeToStdout(chunk, undefined, (error) => callback(error ?? null));
    },
  });
}
