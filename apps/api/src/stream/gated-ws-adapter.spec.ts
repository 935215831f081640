import { EventEmitter } from 'node:events';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { GatedWsAdapter } from './gated-ws-adapter';

describe('GatedWsAdapter', () => {
  it('binds none of Nest’s message handlers, so no client message is ever JSON-parsed or dispatched', () => {
    const adapter = new GatedWsAdapter(
      {} as INestApplicationContext,
      {} as ConstructorParameters<typeof GatedWsAdapter>[1],
    );
    const client = new EventEmitter();
    let dispatched = 0;
    (adapter as WsAdapter).bindMessageHandlers(
      client,
      [
        {
          message: 'route',
          methodName: 'route',
          callback: () => {
            dispatched++;
            return EMPTY;
          },
          isAckHandledManually: false,
        },
      ],
      () => EMPTY,
    );
    expect(client.listenerCount('message')).toBe(0);
    client.emit('message', Buffer.from(JSON.stringify({ event: 'route', data: {} })));
    expect(dispatched).toBe(0);
  });
});
