import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { WebSocketServer } from 'ws';
import { IPV4_ONLY, RATE_LIMITED, type RequestGate } from '../http/request-gate';

type VerifyDone = (
  result: boolean,
  code?: number,
  message?: string,
  headers?: Record<string, string>,
) => void;

/**
 * WsAdapter whose upgrades pass the same first two checks as HTTP requests (clarifications 9-10):
 * the IPv4 rule (403, not counted) and the rate limit (429 with retry-after; counted). The
 * rate-limit headers ride on the 101 response too.
 */
export class GatedWsAdapter extends WsAdapter {
  private readonly upgradeHeaders = new WeakMap<IncomingMessage, Record<string, string>>();

  constructor(
    app: INestApplicationContext,
    private readonly gate: RequestGate,
  ) {
    super(app);
  }

  override create(port: number, options?: Record<string, unknown>): WebSocketServer {
    const verifyClient = (info: { req: IncomingMessage }, done: VerifyDone): void =>
      this.verify(info.req, done);
    const server = super.create(port, { ...options, verifyClient }) as WebSocketServer;
    server.on('headers', (headers: string[], req: IncomingMessage) => {
      for (const [name, value] of Object.entries(this.upgradeHeaders.get(req) ?? {}))
        headers.push(`${name}: ${value}`);
    });
    return server;
  }

  private verify(req: IncomingMessage, done: VerifyDone): void {
    const decision = this.gate.admit(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const json = { 'Content-Type': 'application/json' };
    if (decision.kind === 'refused') return done(false, 403, JSON.stringify(IPV4_ONLY), json);
    if (decision.kind === 'limited')
      return done(false, 429, JSON.stringify(RATE_LIMITED), { ...json, ...decision.headers });
    this.upgradeHeaders.set(req, decision.headers);
    done(true);
  }
}
