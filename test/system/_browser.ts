import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

type Test = { teardown: (fn: () => unknown) => void }

/** Debian's chromium when installed, else the binary inside the npm package @sparticuz/chromium. */
export async function launchChromium (t: Test): Promise<Browser> {
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  let browser: Browser
  if (existsSync(system)) {
    browser = await chromium.launch({ executablePath: system, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
  } else {
    const packaged = (await import('@sparticuz/chromium')).default
    browser = await chromium.launch({ executablePath: await packaged.executablePath(), headless: true, args: packaged.args })
  }
  t.teardown(() => browser.close())
  return browser
}
