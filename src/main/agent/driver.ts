import type { GreyImage } from '../../os-control/screen-match.js';
import type { ImageTarget } from '../../os-control/types.js';
import type { ModelTurn, ProviderFamily, TurnCallbacks, TurnRequest } from './providers/types.js';

/**
 * What the runner asks for the next turn (issue 29 item 3): a `Driver`. Three kinds
 * exist today, and the runner tells none of them apart:
 *  - a model: the provider family's client (providers/: its request format, auth,
 *    streaming, retry) — every `Provider` is a Driver as it is;
 *  - a replay (replay/replay-provider.ts): the recorded trajectory proposes each step;
 *  - the client of a `deskpilot mcp` session (mcp-server/client-as-model.ts).
 * What only a replay needs — a shorter quiet window, the capture's own grey pixels —
 * is a capability of the Driver here, not a field every model provider carries.
 * Issue 31 (harnesses) splits the model kind further: prompt, tool declarations, reply
 * parsing and history policy as a harness over the provider's transport.
 */
export interface Driver {
  /** The family and model logged with the run (a replay names the healing model's; an MCP client "mcp-client"). */
  readonly family: ProviderFamily;
  readonly model: string;
  /** How the screenshot must be sized for it, given the display's physical size. */
  imageTarget(capture: { width: number; height: number }): ImageTarget;
  /** One turn: the calls it proposes, with usage and why it stopped. */
  turn(request: DriverTurnRequest, signal: AbortSignal, callbacks?: TurnCallbacks): Promise<ModelTurn>;
  /**
   * How long the screen must stay unchanged after acting before the next screenshot
   * (default: os-control's SETTLE_DEFAULTS.quietMs). A replay, which checks every screen
   * against its recording and looks again when one does not match, asks for less.
   */
  readonly settleQuietMs?: number;
  /** A driver that compares screens itself (a replay) gets each capture's grey pixels with the turn (`DriverTurnRequest.screen`): no JPEG to decode again. */
  readonly wantsScreenPixels?: boolean;
}

/** A turn as the runner asks it: the model request, plus the capture's grey pixels for a driver that wants them. */
export interface DriverTurnRequest extends TurnRequest {
  /** That capture's pixels in grey at capture size (Driver.wantsScreenPixels). */
  screen?: GreyImage;
}
