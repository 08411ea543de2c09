// The page's style and script are constant text, so html.ts writes their CSP hashes out rather
// than computing them: these tests hold the written hashes to node:crypto's.
import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { SCRIPT, SCRIPT_SHA256, STYLE, STYLE_SHA256, contentSecurityPolicy } from '../../../src-core/report/html.js';

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

describe('the CSP hashes of the HTML report', () => {
  it('are the base64 SHA-256 of the UTF-8 style and script', () => {
    expect(STYLE_SHA256, 'STYLE changed: write this hash as STYLE_SHA256 in html.ts').toBe(sha256Base64(STYLE));
    expect(SCRIPT_SHA256, 'SCRIPT changed: write this hash as SCRIPT_SHA256 in html.ts').toBe(sha256Base64(SCRIPT));
  });

  it('are the only sources the policy allows', () => {
    expect(contentSecurityPolicy()).toBe(
      `default-src 'none'; style-src 'sha256-${sha256Base64(STYLE)}'; script-src 'sha256-${sha256Base64(SCRIPT)}'; ` +
      "base-uri 'none'; form-action 'none'",
    );
  });
});
