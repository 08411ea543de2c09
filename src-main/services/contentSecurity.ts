/**
 * The renderer's Content-Security-Policy, one for every way it is served: the app:// protocol of
 * the desktop app (../main/security.ts) and the loopback bridge's HTTP server (../bridge/server.ts),
 * which adds its WebSocket to `connect-src`. Scripts, styles, fonts and connections only from the
 * app itself; images and workers also from data:/blob: URLs (three.js textures, module workers);
 * nothing may frame the page, change its base URL or post forms. No 'unsafe-inline' for styles:
 * React's `style` props are set through the CSSOM, which CSP does not restrict, and vite emits the
 * renderer's CSS as files.
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connect].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
