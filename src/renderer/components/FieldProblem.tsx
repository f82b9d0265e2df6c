import type { FieldKey } from '../lib/settings-problems.js';

/** The id of a field's problem text, for aria-describedby. */
export const problemId = (field: FieldKey) => `problem-${field.replace(/[^\w-]/g, '_')}`;

/** What a field with a problem carries: marked invalid, and described by its problem's words. */
export function invalidProps(field: FieldKey, words: string | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return words ? { 'aria-invalid': true, 'aria-describedby': problemId(field) } : {};
}

/** A settings problem in words, right under its field (issue 34 item 7). */
export function FieldProblem({ field, words }: { field: FieldKey; words: string | undefined }) {
  if (!words) return null;
  return (
    <span className="field-error" id={problemId(field)} data-testid={`problem-${field}`}>
      <span aria-hidden="true">⚠ </span>
      {words}
    </span>
  );
}
