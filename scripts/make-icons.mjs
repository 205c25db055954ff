#!/usr/bin/env node
// Draws the add-on's icon.png (128x128) and logo.png (250x100) from a few vector shapes,
// with nothing but node:zlib: shapes are sampled 4x4 per pixel for anti-aliasing and the PNG
// chunks are written by hand. Run `node scripts/make-icons.mjs` and commit both files.
import { deflateSync } from 'node:zlib'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const SUBSAMPLES = 4

const SKY_TOP = [41, 182, 246]
const SKY_BOTTOM = [2, 119, 189]
const WHITE = [255, 255, 255]
const SPARK = [255, 193, 7]
const INK = [1, 87, 155]

// ---- PNG encoding ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32 (bytes) {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk (type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** RGBA pixels (Uint8ClampedArray, row-major) to a PNG file. */
export function encodePng (width, height, rgba) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // colour type: truecolour with alpha
  const rows = Buffer.alloc(height * (1 + width * 4))
  for (let y = 0; y < height; y++) {
    const offset = y * (1 + width * 4)
    rows[offset] = 0 // filter: none
    Buffer.from(rgba.buffer, y * width * 4, width * 4).copy(rows, offset + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
  ])
}

// ---- shapes: each is (x, y) => boolean, in pixel coordinates ----

function roundedRect (x0, y0, x1, y1, radius) {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false
    const dx = Math.max(x0 + radius - x, 0, x - (x1 - radius))
    const dy = Math.max(y0 + radius - y, 0, y - (y1 - radius))
    return dx * dx + dy * dy <= radius * radius
  }
}

function polygon (points) {
  return (x, y) => {
    let inside = false
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i]
      const [xj, yj] = points[j]
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
    }
    return inside
  }
}

function distanceToSegment (x, y, [ax, ay], [bx, by]) {
  const vx = bx - ax
  const vy = by - ay
  const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
  return Math.hypot(x - (ax + t * vx), y - (ay + t * vy))
}

/** A polyline drawn with a round pen of the given width. */
function stroke (points, width) {
  return (x, y) => {
    for (let i = 1; i < points.length; i++) {
      if (distanceToSegment(x, y, points[i - 1], points[i]) <= width / 2) return true
    }
    return false
  }
}

/** An arc from `from` to `to` radians (clockwise on screen), drawn with a round pen. */
function arc (cx, cy, radius, from, to, width) {
  const steps = 48
  const points = Array.from({ length: steps + 1 }, (_, i) => {
    const angle = from + ((to - from) * i) / steps
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]
  })
  return stroke(points, width)
}

function union (...shapes) {
  return (x, y) => shapes.some((shape) => shape(x, y))
}

// ---- canvas ----

function createCanvas (width, height) {
  const pixels = new Uint8ClampedArray(width * height * 4)

  /** Paints `shape` with `colour` (a fixed RGB or a function of y), blending by coverage. */
  function fill (shape, colour) {
    for (let py = 0; py < height; py++) {
      for (let px = 0; px < width; px++) {
        let hits = 0
        for (let sy = 0; sy < SUBSAMPLES; sy++) {
          for (let sx = 0; sx < SUBSAMPLES; sx++) {
            if (shape(px + (sx + 0.5) / SUBSAMPLES, py + (sy + 0.5) / SUBSAMPLES)) hits++
          }
        }
        if (hits === 0) continue
        const alpha = hits / (SUBSAMPLES * SUBSAMPLES)
        const rgb = typeof colour === 'function' ? colour(py + 0.5) : colour
        const i = (py * width + px) * 4
        const baseAlpha = pixels[i + 3] / 255
        const outAlpha = alpha + baseAlpha * (1 - alpha)
        for (let c = 0; c < 3; c++) {
          pixels[i + c] = (rgb[c] * alpha + pixels[i + c] * baseAlpha * (1 - alpha)) / outAlpha
        }
        pixels[i + 3] = outAlpha * 255
      }
    }
  }

  return { width, height, pixels, fill }
}

function verticalGradient (top, bottom, y0, y1) {
  return (y) => {
    const t = Math.max(0, Math.min(1, (y - y0) / (y1 - y0)))
    return top.map((value, c) => value + (bottom[c] - value) * t)
  }
}

/** The glyph: a house with a lightning spark, on a rounded tile, in a `size` square at (ox, oy). */
function drawMark (canvas, ox, oy, size) {
  const s = size / 128
  const at = (x, y) => [ox + x * s, oy + y * s]
  canvas.fill(roundedRect(ox + 4 * s, oy + 4 * s, ox + 124 * s, oy + 124 * s, 26 * s),
    verticalGradient(SKY_TOP, SKY_BOTTOM, oy, oy + size))
  const house = polygon([at(64, 22), at(106, 58), at(96, 58), at(96, 104), at(32, 104), at(32, 58), at(22, 58)])
  const chimney = polygon([at(82, 30), at(92, 30), at(92, 48), at(82, 40)])
  canvas.fill(union(house, chimney), WHITE)
  const spark = polygon([at(70, 52), at(50, 82), at(63, 82), at(58, 100), at(80, 70), at(67, 70), at(72, 52)])
  canvas.fill(spark, SPARK)
}

/** "MCP" in a round-pen stroke font, the letters sized to `height`, starting at (ox, oy). */
function drawWordmark (canvas, ox, oy, height) {
  const pen = height * 0.17
  const h = height - pen
  const top = oy + pen / 2
  const bottom = top + h
  const letterWidth = h * 0.78
  const gap = height * 0.22
  const m = ox + pen / 2
  const letterM = stroke([[m, bottom], [m, top], [m + letterWidth / 2, top + h * 0.6], [m + letterWidth, top], [m + letterWidth, bottom]], pen)
  const c = m + letterWidth + gap + pen
  const radius = h / 2
  const letterC = arc(c + radius * 0.95, top + radius, radius, Math.PI * 0.28, Math.PI * 1.72, pen)
  const p = c + radius * 1.6 + gap
  const bowl = h * 0.28
  const letterP = union(
    stroke([[p, bottom], [p, top], [p + letterWidth * 0.45, top]], pen),
    stroke([[p, top + bowl * 2], [p + letterWidth * 0.45, top + bowl * 2]], pen),
    arc(p + letterWidth * 0.45, top + bowl, bowl, -Math.PI / 2, Math.PI / 2, pen)
  )
  canvas.fill(union(letterM, letterC, letterP), INK)
}

function makeIcon () {
  const canvas = createCanvas(128, 128)
  drawMark(canvas, 0, 0, 128)
  return encodePng(canvas.width, canvas.height, canvas.pixels)
}

function makeLogo () {
  const canvas = createCanvas(250, 100)
  drawMark(canvas, 4, 6, 88)
  drawWordmark(canvas, 108, 28, 44)
  return encodePng(canvas.width, canvas.height, canvas.pixels)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../', import.meta.url)
  writeFileSync(new URL('icon.png', root), makeIcon())
  writeFileSync(new URL('logo.png', root), makeLogo())
  console.log('wrote icon.png (128x128) and logo.png (250x100)')
}
