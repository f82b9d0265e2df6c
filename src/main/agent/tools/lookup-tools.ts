import { z } from 'zod';

/**
 * The lookups' declarations — name, description, input — in one place (issue 29 item 7):
 * the agent's tools (find-text.ts, find-element.ts, element-tree.ts) and `deskpilot mcp`'s
 * desktop tools (mcp-server/desktop-tools.ts) both read them, so a model and an MCP client
 * are told the same words and held to the same input. The inputs are strict: a misspelt
 * key (`max_depht`) is a clear error to either caller, not an argument silently dropped.
 * Points are in the pixels of the latest screenshot, as every coordinate a caller gives.
 */

export interface LookupDeclaration<Input extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: Input;
}

const declare = <Input extends z.ZodType>(d: { name: string; description: string; input: Input }): LookupDeclaration<Input> => d;

export const FIND_TEXT = declare({
  name: 'find_text',
  description: 'Find a visible text label on the screen (OCR) and get the click points of its matches, in the pixels of the latest screenshot.',
  input: z
    .object({
      text: z.string().trim().min(1).max(200).describe('The label to look for, as it is written on screen.'),
      region: z
        .object({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() })
        .strict()
        .optional()
        .describe('Only search this part of the latest screenshot (its pixels).'),
    })
    .strict(),
});

export const FIND_ELEMENT = declare({
  name: 'find_element',
  description:
    'Find a control in the focused window by its accessible name and/or role (from the accessibility tree, exact, no OCR) and get its centre in the pixels of the latest screenshot, with its value and states.',
  input: z
    .object({
      name: z.string().trim().max(200).optional().describe("Part of the element's accessible name (its label), case-insensitive."),
      role: z.string().trim().max(64).optional().describe('The element\'s role, e.g. "push button", "check box", "text", "menu item", "link".'),
    })
    .strict()
    .refine((v) => Boolean(v.name || v.role), { message: 'give a name, a role, or both' }),
});

export const ELEMENT_TREE = declare({
  name: 'element_tree',
  description:
    "Read the focused window's accessibility tree: every visible control with its role, accessible name, value, states and centre in the pixels of the latest screenshot, indented by nesting.",
  input: z.object({ max_depth: z.number().int().min(1).max(40).optional().describe('Levels below the window to read (default 40, the whole window).') }).strict(),
});

export const GROUND = declare({
  name: 'ground',
  description:
    'Find a described target on the screen ("the Save button in the dialog", "the field right of Name") through the accessibility tree, then OCR words, then the grounding model of config grounderProfile if one is set, and get its point in the pixels of the latest screenshot with the stage that found it, its confidence and the other candidates. Two equally good matches are answered as ambiguous with the candidates, never guessed.',
  // The description's own limits (empty, over 300 characters) are agent/resolve/describe.ts's, the one reader of a description.
  input: z.object({ description: z.string().describe('The target in a few words: its name, role, place or a nearby label.') }).strict(),
});

/** The lookups by name, as `deskpilot mcp` offers them beside its actions. */
export const LOOKUP_TOOLS = { find_text: FIND_TEXT, find_element: FIND_ELEMENT, element_tree: ELEMENT_TREE, ground: GROUND } as const;
