import { z } from 'zod';
import { PushMessageSchema } from './bridge.js';

/**
 * The envelope that carries bridge commands and pushes over a message transport
 * (the WebSocket of `deskpilot serve`). Electron IPC needs no envelope: ipcMain.handle
 * pairs requests and replies itself. Inputs and outputs inside are still parsed with
 * the per-command schemas of bridge.ts.
 */

export const WireRequestSchema = z
  .object({
    /** Chosen by the client, echoed in the reply. */
    id: z.number().int().nonnegative(),
    name: z.string().min(1).max(64),
    input: z.unknown(),
  })
  .strict();
export type WireRequest = z.infer<typeof WireRequestSchema>;

export const WireErrorSchema = z
  .object({
    code: z.enum(['invalid', 'not_found', 'conflict', 'unavailable', 'internal', 'rate_limited']),
    message: z.string(),
  })
  .strict();
export type WireError = z.infer<typeof WireErrorSchema>;

export const WireServerMessageSchema = z.union([
  z.object({ kind: z.literal('reply'), id: z.number().int().nonnegative(), ok: z.literal(true), output: z.unknown() }).strict(),
  /** id is null when the request was too malformed to carry one. */
  z
    .object({ kind: z.literal('reply'), id: z.number().int().nonnegative().nullable(), ok: z.literal(false), error: WireErrorSchema })
    .strict(),
  z.object({ kind: z.literal('push'), message: PushMessageSchema }).strict(),
]);
export type WireServerMessage = z.infer<typeof WireServerMessageSchema>;

/** Electron IPC channel names and the run-file protocol, declared dependency-free for the preload. */
export { IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL } from './bridge-names.js';
