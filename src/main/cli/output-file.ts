import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Writes a report the person asked for (--junit, --report …), making its folder first. */
export async function writeOutputFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text);
}
