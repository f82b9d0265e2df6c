import { inflateRawSync } from 'node:zlib';

/**
 * Reads the entries of a ZIP archive (an XLSX is one) with node's zlib alone: the end of
 * central directory record, the central directory, each local header, then stored (0) or
 * deflated (8) data. No ZIP64, no encryption, no multi-disk: an XLSX from LibreOffice,
 * Excel or openpyxl needs none of them. An npm reader was weighed and not taken: SheetJS's
 * `xlsx` on npm stays at 0.18.5 (SheetJS ships later fixes from its own CDN, not npm), and
 * exceljs 4.4.0 brings nine dependencies (archiver, jszip, unzipper, …) for the few cell
 * values a checker reads.
 */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/** 256 MiB unpacked: a zip bomb stops here, a real workbook's XML is far smaller. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

export function readZip(data: Buffer): Map<string, () => Buffer> {
  const eocd = findEndOfCentralDirectory(data);
  const count = data.readUInt16LE(eocd + 10);
  let at = data.readUInt32LE(eocd + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) throw new ZipError(`central directory entry ${i} is damaged`);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    entries.set(name, () => entryData(data, name, local, method, compressed, size));
  }
  return entries;
}

function findEndOfCentralDirectory(data: Buffer): number {
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= lowest; at--) if (data.readUInt32LE(at) === 0x06054b50) return at;
  throw new ZipError('not a ZIP archive (no end of central directory)');
}

function entryData(data: Buffer, name: string, local: number, method: number, compressed: number, size: number): Buffer {
  if (local + 30 > data.length || data.readUInt32LE(local) !== 0x04034b50) throw new ZipError(`${name}: local header is damaged`);
  const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
  if (start + compressed > data.length) throw new ZipError(`${name}: data runs past the end of the archive`);
  const raw = data.subarray(start, start + compressed);
  if (method === 0) return raw;
  if (method !== 8) throw new ZipError(`${name}: compression method ${method} is not supported`);
  if (size > MAX_ENTRY_BYTES) throw new ZipError(`${name}: ${size} bytes unpacked is more than ${MAX_ENTRY_BYTES}`);
  try {
    return inflateRawSync(raw, { maxOutputLength: MAX_ENTRY_BYTES });
  } catch (error) {
    throw new ZipError(`${name}: ${(error as Error).message}`);
  }
}
