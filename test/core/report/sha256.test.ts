import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { sha256, utf8Encode, base64, cspHash } from '../../../src-core/report/html.js';

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

describe('sha256', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(hex(sha256(ascii('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(ascii('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))))
      .toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    expect(hex(sha256(ascii(
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    )))).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
  });

  it('digests a million "a"s', () => {
    expect(hex(sha256(new Uint8Array(1_000_000).fill(0x61))))
      .toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('agrees with node:crypto at every length around the padding boundaries', () => {
    let seed = 12345;
    for (let n = 0; n <= 260; n++) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        data[i] = seed >>> 24;
      }
      expect(hex(sha256(data)), `length ${n}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});

describe('utf8Encode and base64', () => {
  it('encodes like Buffer, including astral characters and lone surrogates', () => {
    for (const s of ['', 'plain', 'mm³ · “quotes” — 部品', '\u{1F529} bolt', 'x\uD800y', '\uDC00', 'end\uD83D']) {
      expect(Array.from(utf8Encode(s)), JSON.stringify(s)).toEqual(Array.from(Buffer.from(s, 'utf8')));
    }
  });

  it('matches Buffer base64 for every remainder', () => {
    for (let n = 0; n < 10; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + 251) & 255);
      expect(base64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('cspHash is the base64 SHA-256 of the UTF-8 text', () => {
    const text = '\n(function () { "use strict"; })();\n³';
    expect(cspHash(text)).toBe(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  });
});
