import type { IncomingMessage } from 'node:http';
import { Inject } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import type { StreamSocket } from './stream-socket';
import { StreamHub } from './stream-hub';

/** GET /stream/route (spec 4.3): plain WebSocket on the HTTP server's port. */
@WebSocketGateway({ path: '/stream/route' })
export class StreamGateway implements OnGatewayConnection {
  constructor(@Inject(StreamHub) private readonly hub: StreamHub) {}

  handleConnection(client: StreamSocket, req: IncomingMessage): void {
    this.hub.open(client, req);
  }
}
