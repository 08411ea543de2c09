// A bridge client speaking the wire format directly (../../../src-main/contract/wire.ts), for the
// tests that drop connections and send malformed frames.
import { WebSocket } from 'ws';
import { decodeMessage, encodeMessage, parseWireMessage, type WireMessage } from '../../../src-main/contract/wire.js';

/** Opens a WebSocket; resolves with it once open, or with the HTTP status it was refused with. */
export function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.binaryType = 'arraybuffer';
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

export type Response = Extract<WireMessage, { type: 'response' }>;

export class WireClient {
  private next = 1;
  private readonly pending = new Map<number, (m: Response) => void>();
  readonly events: { event: string; payload: unknown }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: ArrayBuffer) => {
      const m = parseWireMessage(decodeMessage(data));
      if (m.type === 'event') this.events.push({ event: m.event, payload: m.payload });
      else if (m.type === 'response') this.pending.get(m.id)?.(m);
    });
    // Errors after a drop are expected here; the tests look at 'close'.
    ws.on('error', () => {});
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async open(port: number, token: string): Promise<WireClient> {
    const ws = await connect(`ws://127.0.0.1:${port}/host?token=${token}`);
    if (typeof ws === 'number') throw new Error(`the bridge refused the connection (${ws})`);
    return new WireClient(ws);
  }

  /** Sends a request; the promise never settles when the connection drops first. */
  request(channel: string, payload: unknown = {}): Promise<Response> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(encodeMessage({ type: 'request', id, channel, payload }));
    });
  }

  /** A request's result; throws with the HostError when it failed. */
  async call<T>(channel: string, payload: unknown = {}): Promise<T> {
    const r = await this.request(channel, payload);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
    return r.result as T;
  }

  async waitEvent(test: (e: { event: string; payload: unknown }) => boolean, timeoutMs = 30_000): Promise<{ event: string; payload: unknown }> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(test);
      if (found) return found;
      if (Date.now() > end) throw new Error('timed out waiting for an event');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
