import { createHash } from 'node:crypto';

/**
 * The security headers of every HTML answer (/docs, /explorer). The pages are self-contained
 * (their scripts and styles inline, built once at start), so the Content-Security-Policy names
 * each inline script and style by its SHA-256 and allows nothing else: no other script runs (an
 * injected one included), nothing is loaded from another origin, requests go to this server only
 * (the try-it console, the explorer's fetches and its WebSocket stream), and no site may frame
 * the pages. docs/deploy.md "Security headers".
 */
export function pageSecurityHeaders(html: string): Record<string, string> {
  const hashes = (tag: 'script' | 'style'): string =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
      .map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`)
      .join(' ');
  const csp = [
    "default-src 'none'",
    `script-src ${hashes('script')}`,
    `style-src ${hashes('style')}`,
    // Styles set through the DOM (element.style: Swagger UI, Chart.js) need no allowance.
    // Swagger UI's icons are data: URIs in its stylesheet.
    "img-src 'self' data:",
    "font-src 'self' data:",
    // 'self' covers the same host's ws:// and wss:// (the stream consoles).
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
}
