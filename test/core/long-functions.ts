import ts from 'typescript';
import type { SourceFile } from './display-starters.js';

/**
 * Issue 29 item 4: no hand-written function over 120 lines without a comment saying why.
 * A function's length is its lines from its first token to its closing brace. It is
 * excused by a comment, before it or before any declaration that holds it (the variable,
 * the property, the enclosing function), that says `Over 120 lines because` and then a
 * reason of 20 characters or more.
 */

export const MAX_FUNCTION_LINES = 120;
const REASON = /Over 120 lines because\s+(\S[^]{19,})/;

export interface LongFunction {
  file: string;
  /** 1-based line of its first token. */
  line: number;
  lines: number;
  name: string;
  /** A comment before it or a holder says why it is long. */
  excused: boolean;
}

/** Hand-written: not generated (*.generated.ts) and not a declaration file. */
export const isHandWritten = (file: string) => /\.tsx?$/.test(file) && !/\.generated\.tsx?$/.test(file) && !file.endsWith('.d.ts');

export function longFunctions({ file, text }: SourceFile): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const saysWhy = (node: ts.Node): boolean => {
    for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
      const comments = ts.getLeadingCommentRanges(text, at.getFullStart()) ?? [];
      if (comments.some((c) => REASON.test(text.slice(c.pos, c.end)))) return true;
    }
    return false;
  };
  const out: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(sf));
      const lines = lineOf(node.getEnd()) - first + 1;
      if (lines > MAX_FUNCTION_LINES) out.push({ file, line: first + 1, lines, name: nameOf(node), excused: saysWhy(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  const holder = node.parent;
  if ((ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) && ts.isIdentifier(holder.name)) return holder.name.text;
  return '(anonymous)';
}
