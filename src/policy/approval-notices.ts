import type { AppLogger } from '../logger.ts'
import type { ApprovalNotices, ApprovalView, Decision } from './approvals.ts'
import type { OwnerVia } from './types.ts'

type Command = (message: { type: string, [key: string]: unknown }) => Promise<unknown>

export interface ApprovalNoticeDeps {
  /** One WebSocket command to Home Assistant (the add-on's own calls: not the assistant's, so not guarded). */
  command: Command
  /** A subscription kept across reconnects (HaConnection.subscribe). */
  subscribe: (message: { type: string, [key: string]: unknown }, callback: (event: unknown) => void) => void
  /** The owner's decision, by the secret a phone's action carries. */
  decide: (key: { secret: string }, decision: Decision, via: OwnerVia, decidedBy: string) => Promise<unknown>
  log: AppLogger
}

/** The event the mobile app fires when a notification's action button is tapped (homeassistant/components/mobile_app/webhook.py). */
export const PHONE_ACTION_EVENT = 'mobile_app_notification_action'
/** Home Assistant's administrators' group (homeassistant/auth/const.py, GROUP_ID_ADMIN). */
const ADMIN_GROUP = 'system-admin'
const ACTION = /^HA_MCP_(APPROVE|DENY)_([0-9a-f]{32})$/
const MOBILE_APP_SERVICE = /^mobile_app_[a-z0-9_]+$/

const notificationId = (approval: ApprovalView): string => `ha_mcp_approval_${approval.id}`
const tagOf = (approval: ApprovalView): string => `ha-mcp-approval-${approval.id}`

/**
 * Text shown literally in a persistent notification, which Home Assistant renders as markdown (frontend
 * ha-markdown): every ASCII punctuation character backslash-escaped, so a name a client chose (an OAuth
 * client_name) cannot bring a link, an image or HTML into the add-on's words.
 */
export function markdownText (text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&')
}

function clip (text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * Tells the owner a call waits for them, in Home Assistant: a persistent notification (every user of
 * Home Assistant sees it; it sends them to the add-on's panel, which only administrators open) and,
 * on each phone with the mobile app (`notify.mobile_app_*`), an actionable notification with Approve
 * and Deny. A tap arrives as the `mobile_app_notification_action` event; it decides only when its
 * action carries the approval's secret (sent to the phones alone, never to the assistant), it came
 * from a phone (origin REMOTE, not an `event:` a script fired) and the phone was registered by an
 * active, non-system Home Assistant administrator (`config/auth/list`).
 * Decided or expired, both notifications are withdrawn.
 */
export function approvalNotices (deps: ApprovalNoticeDeps): ApprovalNotices {
  const { command, log } = deps
  /** The phones told about each approval, so the same ones are cleared. */
  const told = new Map<string, Promise<string[]>>()
  const call = async (domain: string, service: string, data: Record<string, unknown>): Promise<void> => {
    try {
      await command({ type: 'call_service', domain, service, service_data: data })
    } catch (err) {
      log.warning({ domain, service, err: (err as Error).message }, 'an approval notification could not be sent or withdrawn')
    }
  }
  const phones = async (): Promise<string[]> => {
    try {
      const services = await command({ type: 'get_services' }) as Record<string, Record<string, unknown> | undefined>
      return Object.keys(services.notify ?? {}).filter(name => MOBILE_APP_SERVICE.test(name))
    } catch {
      return []
    }
  }
  const isAdmin = async (userId: unknown): Promise<string | undefined> => {
    if (typeof userId !== 'string') return undefined
    try {
      const users = await command({ type: 'config/auth/list' }) as Array<{ id?: unknown, name?: unknown, is_active?: unknown, system_generated?: unknown, group_ids?: unknown }>
      const user = users.find(u => u.id === userId)
      const admin = user?.is_active === true && user.system_generated !== true && Array.isArray(user.group_ids) && user.group_ids.includes(ADMIN_GROUP)
      return admin ? (typeof user.name === 'string' ? user.name : userId) : undefined
    } catch (err) {
      log.warning({ err: (err as Error).message }, 'could not read Home Assistant\'s users to check who tapped an approval on a phone; ignored it')
      return undefined
    }
  }

  deps.subscribe({ type: 'subscribe_events', event_type: PHONE_ACTION_EVENT }, event => {
    const { data, context, origin } = (event ?? {}) as { data?: { action?: unknown }, context?: { user_id?: unknown }, origin?: unknown }
    const match = typeof data?.action === 'string' ? ACTION.exec(data.action) : null
    if (!match) return
    // A tap comes through the mobile app's webhook, origin REMOTE (mobile_app/webhook.py); a script's or an
    // automation's `event:` action fires LOCAL (helpers/script.py) in the context of whoever started it,
    // and whatever watches call_service events can read the action out of the notify call.
    if (origin !== 'REMOTE') {
      log.notice('ignored an approval event that did not come from a phone (fired inside Home Assistant)')
      return
    }
    const [, decision, secret] = match as unknown as [string, 'APPROVE' | 'DENY', string]
    const decided = async (): Promise<void> => {
      const admin = await isAdmin(context?.user_id)
      if (admin === undefined) {
        log.notice('ignored an approval tapped on a phone whose Home Assistant user is not an administrator')
        return
      }
      await deps.decide({ secret }, decision === 'APPROVE' ? 'approve' : 'deny', 'owner_notification', admin)
    }
    decided().catch((err: unknown) => { log.error({ err }, 'an approval from a phone failed') })
  })

  return {
    announce (approval, secret) {
      const until = approval.expires_at.slice(11, 16)
      // The call and what it reaches, never its data (an alarm code, a message): every user reads this, and phone pushes leave the house.
      const what = `${approval.call}${approval.entities.length > 0 ? ` on ${clip(approval.entities.slice(0, 10).join(', '), 600)}${approval.entities.length > 10 ? ` and ${approval.entities.length - 10} more` : ''}` : ''}`
      // Ids and tool names hold no markdown (core helpers/config_validation.py, valid_entity_id); a client's name may.
      const message = `${markdownText(approval.asked_by)} asks to run ${what} (${approval.tool}).\n\nThe MCP panel in the sidebar shows exactly what will be done; approve or deny it there before ${until} UTC. Nothing happens until then.`
      call('persistent_notification', 'create', { notification_id: notificationId(approval), title: 'MCP: your approval is needed', message }).catch(() => {})
      const asked = phones()
      told.set(approval.id, asked)
      const actions = [{ action: `HA_MCP_APPROVE_${secret}`, title: 'Approve' }, { action: `HA_MCP_DENY_${secret}`, title: 'Deny' }]
      asked.then(async names => {
        await Promise.all(names.map(async name => {
          await call('notify', name, { title: 'MCP: approve?', message: `${approval.asked_by} asks to run ${what}.`, data: { tag: tagOf(approval), actions } })
        }))
      }).catch(() => {})
    },
    withdraw (approval) {
      call('persistent_notification', 'dismiss', { notification_id: notificationId(approval) }).catch(() => {})
      const asked = told.get(approval.id)
      told.delete(approval.id)
      // The mobile app removes the notification carrying this tag (Home Assistant companion docs, "clear_notification").
      asked?.then(async names => {
        await Promise.all(names.map(async name => { await call('notify', name, { message: 'clear_notification', data: { tag: tagOf(approval) } }) }))
      }).catch(() => {})
    }
  }
}
