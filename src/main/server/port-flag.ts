import { InvalidArgumentError } from 'commander';

/** The `--port` value of `deskpilot serve` and `deskpilot mcp`: a TCP port, 0 for any free one. */
export function portFlag(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('expected a port number 0–65535');
  return n;
}
