import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Writes a file so that readers see the old content or the new one, never half of it. */
export async function writeFileAtomic (file: string, content: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await open(temp, 'w', mode)
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await rename(temp, file)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
}
