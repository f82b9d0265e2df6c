import * as acp from '@agentclientprotocol/sdk';
import { actionCategory, type Action } from '../../shared/actions.js';
import { shortTitle } from '../../shared/action-text.js';
import type { RunEvent } from '../../shared/events.js';
import { errorText } from '../../shared/error-text.js';
import type { SandboxSummary } from '../../shared/sandbox.js';
import { readFileInRun } from '../sessions/files.js';
import type { RunHandle } from '../agent/index.js';
import { permissionOutcome, permissionRequest, wholeContent } from './permission.js';

/**
 * One prompt's run as ACP sees it: each run event becomes a `session/update` (in the order
 * the run made them), and each held action a `session/request_permission` whose answer
 * goes into the run's one approval queue. acp-agent.ts starts the run; this file only
 * translates what it says.
 */

/** The two calls a prompt makes to the editor (the SDK's client, narrowed to what is used). */
export interface AcpEditor {
  notify(method: typeof acp.methods.client.session.update, params: acp.SessionNotification): Promise<void>;
  request(method: typeof acp.methods.client.session.requestPermission, params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
}

export interface AcpRunUpdates {
  /** Feed every run event here. */
  onEvent(event: RunEvent): void;
  /** Queue one more update after the run's own. */
  send(update: acp.SessionUpdate): void;
  /** Resolves once every update queued so far has left. */
  sent(): Promise<unknown>;
}

function toolKind(action: Action): acp.ToolKind {
  switch (actionCategory(action)) {
    case 'shell':
      return 'execute';
    case 'tool':
      return 'fetch';
    case 'observe':
      return 'read';
    case 'input':
    case 'ask_user':
    case 'finish':
      return 'other';
  }
}

const failedUpdate = (toolCallId: string, text: string): acp.SessionUpdate => ({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text } }] });

/** `runOf` gives the run once the service hosts it (events can come before the handle is known). */
export function acpRunUpdates(editor: AcpEditor, sessionId: string, runOf: () => RunHandle | undefined): AcpRunUpdates {
  // A lost notification costs the editor one line of its view, never a decision: permission
  // requests below are awaited and a failed one stops the run.
  let updates: Promise<unknown> = Promise.resolve();
  const queue = (work: () => Promise<unknown>) => {
    updates = updates.then(work).catch(() => undefined);
  };
  const send = (update: acp.SessionUpdate) => queue(() => editor.notify(acp.methods.client.session.update, { sessionId, update }));
  const proposals = new Map<string, Action>();
  // The run's sandbox as it logged it: each held command's request says where it runs.
  let runSandbox: SandboxSummary | undefined;

  const sendScreenshot = (event: Extract<RunEvent, { type: 'observation' }>) => {
    const run = runOf();
    if (!run) return;
    const image = event.observation.image;
    const mimeType = image.format === 'jpeg' ? 'image/jpeg' : image.format === 'png' ? 'image/png' : 'image/webp';
    queue(async () => {
      const data = await readFileInRun(run.dir, event.image);
      await editor.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `screenshot-${event.observation.id}`,
          title: `screenshot ${image.width}×${image.height} (step ${event.step})`,
          kind: 'read',
          status: 'completed',
          content: [{ type: 'content', content: { type: 'image', data: data.toString('base64'), mimeType } }],
        },
      });
    });
  };

  // A held action: the editor is asked; its choice is an answer in the one approval queue.
  const askPermission = async (event: Extract<RunEvent, { type: 'approval_requested' }>) => {
    const action = proposals.get(event.proposalId);
    await updates;
    let response: acp.RequestPermissionResponse;
    try {
      response = await editor.request(acp.methods.client.session.requestPermission, { sessionId, ...permissionRequest(event.proposalId, event.decision, action, runSandbox) });
    } catch (error) {
      // No answer can be had: the action must not run.
      runOf()?.stop(`the editor could not be asked for permission: ${errorText(error)}`);
      return;
    }
    const run = runOf();
    if (!run) return;
    const outcome = permissionOutcome(event.decision, response, action);
    if (outcome.kind === 'stop') run.stop(outcome.reason);
    else run.answerApproval(event.proposalId, outcome.answer, 'acp');
  };

  const onEvent = (event: RunEvent) => {
    switch (event.type) {
      case 'run_started':
        runSandbox = event.sandbox;
        break;
      case 'model_text':
        if (event.text.trim()) send({ sessionUpdate: event.kind === 'thinking' ? 'agent_thought_chunk' : 'agent_message_chunk', content: { type: 'text', text: event.text } });
        break;
      case 'action_proposed':
        proposals.set(event.proposalId, event.action);
        send({ sessionUpdate: 'tool_call', toolCallId: event.proposalId, title: shortTitle(event.action), kind: toolKind(event.action), status: 'pending', content: wholeContent(event.action), rawInput: event.action });
        break;
      case 'action_executed':
        send({
          sessionUpdate: 'tool_call_update',
          toolCallId: event.proposalId,
          status: event.ok ? 'completed' : 'failed',
          ...(event.output || event.error ? { content: [{ type: 'content', content: { type: 'text', text: event.error ?? event.output ?? '' } }] } : {}),
        });
        break;
      case 'action_denied':
        send(failedUpdate(event.proposalId, `refused by policy (${event.decision.rule}): ${event.decision.reason}`));
        break;
      case 'approval_answered':
        send(event.answer.decision === 'reject' ? failedUpdate(event.proposalId, 'rejected') : { sessionUpdate: 'tool_call_update', toolCallId: event.proposalId, status: 'in_progress' });
        break;
      case 'observation':
        sendScreenshot(event);
        break;
      case 'approval_requested':
        void askPermission(event);
        break;
      case 'error':
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n[DeskPilot: ${event.message}]\n` } });
        break;
      default:
        // The other events (usage, state, questions …) have no ACP update; the history keeps them.
        break;
    }
  };

  return { onEvent, send, sent: () => updates };
}
