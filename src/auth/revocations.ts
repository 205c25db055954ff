import type { Clock } from '../clock.ts'
import type { Identity } from './identity.ts'

/** A credential that stopped working. */
export interface Revocation {
  /** The identity it belonged to: `primary`, `token:<id>` or `oauth:<grant>`. */
  identity: string
  /**
   * One credential of that identity (an OAuth access token: `Identity.credential`); absent when the
   * identity itself is gone (a token revoked or replaced, a sign-in ended).
   */
  credential?: string
  reason: string
}

export type RevocationListener = (revocation: Revocation) => void

export interface RevocationsOptions {
  /** Expiries are timed on it (src/clock.ts). */
  clock: Clock
  /** A listener that threw: the others are still told. */
  onError?: (err: unknown) => void
}

/**
 * "This credential is dead", said once, heard by everything it opened. The token store and the
 * authorization server announce every way a credential dies (revoked on the panel or by the client,
 * replaced, a refresh token or code replayed, a sign-in expired); the sessions close their own, and
 * each long-lived stream is held here (`hold`), so it ends when its credential does, expiry included.
 */
export class Revocations {
  readonly #listeners = new Set<RevocationListener>()
  readonly #clock: Clock
  readonly #onError: ((err: unknown) => void) | undefined
  #announced = 0

  constructor (options: RevocationsOptions) {
    this.#clock = options.clock
    this.#onError = options.onError
  }

  /** Calls `listener` for every credential that dies from now on; returns the unsubscribe. */
  on (listener: RevocationListener): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }

  /**
   * How many credentials were announced dead since start: a request authenticated when this was N
   * need not check its credential again while it still is (plugins/auth.ts `reauthenticate`).
   */
  get announced (): number {
    return this.#announced
  }

  /** Tells every listener, synchronously: by the time this returns, what the credential held is ending. */
  announce (revocation: Revocation): void {
    this.#announced++
    for (const listener of [...this.#listeners]) {
      try {
        listener(revocation)
      } catch (err) {
        this.#onError?.(err)
      }
    }
  }

  /**
   * Holds a long-lived stream opened with `identity`'s credential: `end` runs once, when that
   * credential (or its whole identity) is revoked or when it expires (`Identity.expiresAt`). Returns
   * the release to call when the stream closes for any other reason.
   */
  hold (identity: Identity, end: (reason: string) => void): () => void {
    let held = true
    const finish = (reason: string): void => {
      if (!held) return
      release()
      end(reason)
    }
    const stopListening = this.on(({ identity: id, credential, reason }) => {
      if (id === identity.id && (credential === undefined || credential === identity.credential)) finish(reason)
    })
    const { expiresAt } = identity
    const cancelExpiry = expiresAt === undefined
      ? undefined
      : this.#clock.schedule(() => { finish('its access token expired') }, Math.max(0, expiresAt - this.#clock.now()))
    const release = (): void => {
      held = false
      stopListening()
      cancelExpiry?.()
    }
    return release
  }
}
