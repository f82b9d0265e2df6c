import { z } from 'zod';

/**
 * The rules of OSWorld's compare_table (desktop_env/evaluators/metrics/table.py) that
 * DeskPilot checks: sheet names, sheet data by value, and fuzzy cell ranges. Its other rule
 * types (sparkline, chart, style, freeze, zoom, data_validation, row/col props, filter,
 * pivot_table, check_cell, sheet_print) read an XLSX's drawing and style parts, or LibreOffice's
 * per-sheet CSV exports: a task that uses one is skipped with that reason.
 */

/** `0` == "RI0" == "RNSheet1" (result, by index or name) | "EI0" == "ENSheet1" (expected). */
export const SheetIndexSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^(RI\d+|EI\d+|RN.*|EN.*)$/, 'must be a number, RI<n>, RN<name>, EI<n> or EN<name>')]);
export type SheetIndex = z.infer<typeof SheetIndexSchema>;

const FuzzyRangeRule = z
  .object({
    range: z.array(z.string().regex(/^[A-Za-z]{1,3}\d+(:[A-Za-z]{1,3}\d+)?$/, 'must be a cell or range like A1:B6')).min(1),
    type: z.enum(['includes', 'included_by', 'fuzzy_match', 'exact_match']),
    threshold: z.number().min(0).max(100).optional(),
    ignore_case: z.boolean().optional(),
    ignore_chars: z.string().optional(),
    trim_leadings: z.string().optional(),
    trim_trailings: z.string().optional(),
    normalization: z.array(z.tuple([z.string(), z.string()])).optional(),
  })
  .strict();
export type FuzzyRangeRule = z.infer<typeof FuzzyRangeRule>;

export const TableRuleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sheet_name') }).strict(),
  z
    .object({
      type: z.literal('sheet_data'),
      sheet_idx0: SheetIndexSchema,
      sheet_idx1: SheetIndexSchema,
      /** Decimal digits numbers are rounded to before comparing (OSWorld default 4). */
      precision: z.number().int().min(0).max(15).optional(),
      ignore_blanks: z.boolean().optional(),
    })
    .strict(),
  z.object({ type: z.literal('sheet_fuzzy'), sheet_idx0: SheetIndexSchema, sheet_idx1: SheetIndexSchema, rules: z.array(FuzzyRangeRule).min(1) }).strict(),
]);
export type TableRule = z.infer<typeof TableRuleSchema>;
export const TABLE_RULE_TYPES: readonly TableRule['type'][] = ['sheet_name', 'sheet_data', 'sheet_fuzzy'];
