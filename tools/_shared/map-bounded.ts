const CONCURRENCY = 8

/** Runs `fn` over `items` with a small concurrency bound, keeping the order. */
export async function mapBounded<T, U> (items: readonly T[], fn: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      out[index] = await fn(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
  return out
}
