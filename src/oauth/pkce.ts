import { createHash, timingSafeEqual } from 'node:crypto'

/** RFC 7636: a verifier is 43-128 characters of [A-Z a-z 0-9 - . _ ~]; so is an S256 challenge's encoding. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/

export function validChallenge (challenge: string): boolean {
  return CHALLENGE.test(challenge)
}

/** Whether BASE64URL(SHA256(verifier)) equals the challenge sent at the authorization step. */
export function verifierMatches (verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
