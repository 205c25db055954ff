import type { AuditApi, WriteGuardApi, WriteRunContext } from '../../policy/types.ts'
import type { UndoStore } from '../../policy/undo.ts'
import type { SlidingWindow } from '../../sliding-window.ts'

/**
 * What tools use beyond reading the home, typed and always present. Built once in src/compose.ts;
 * a new service is one field here plus one line there.
 */
export interface ToolServices {
  /** The guarded write path: lists, confirmation, audit, undo. */
  guard: WriteGuardApi
  audit: AuditApi
  undo: UndoStore
  /** Per-target write caps: notifications 6/min, announcements 3/min. */
  writeCaps: { notify: SlidingWindow, announce: SlidingWindow }
  /** Set per call by a session whose client supports elicitation: asks the human instead of issuing a token. */
  confirmer?: WriteRunContext['confirmer']
  /** Set per MCP tool call: how the owner's approval runs this call again (`confirm_with: owner`, src/mcp/runtime/owner-rerun.ts). */
  rerun?: WriteRunContext['rerun']
  /** Set only on that re-run: the owner's approval it carries. */
  ownerGrant?: WriteRunContext['ownerGrant']
}
