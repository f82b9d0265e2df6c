import type { CommandName, CommandOutput, Commands } from '../../shared/bridge.js';
import type { ClientInfo } from './types.js';

/** What answers one bridge command: its input as the contract parsed it, and the client that sent it. */
export type CommandHandler<N extends CommandName> = (input: ReturnType<(typeof Commands)[N]['input']['parse']>, client: ClientInfo) => Promise<CommandOutput<N>>;

/** The handlers of some commands; the service joins the areas' sets into one for every command (tsc names a missing one). */
export type CommandHandlers<K extends CommandName> = { [N in K]: CommandHandler<N> };
