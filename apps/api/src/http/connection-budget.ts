import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '@app/config';
import { writeRawError } from './answers';
import { unmapped } from './client-address';
import type { FrontDoor } from './front-door';
import { withVerdict } from './request-gate';

type ConnectionListener = (socket: Socket) => void;

/**
 * Open connections per client address (CONNECTIONS_MAX_PER_IP) and in all (CONNECTIONS_MAX),
 * counted when a connection is accepted, before any of its bytes is parsed, and released when it
 * closes; streams count too, they hold a socket. A connection over a budget gets one answer
 * through the gate at once (429, also when the whole server is full) and is closed, so a client
 * cannot hold more sockets than its budget however slowly it sends. A trusted proxy carries many
 * clients, so it is budgeted only by the total; its clients are rate-limited by address.
 */
export class ConnectionBudget {
  private readonly perAddress = new Map<string, number>();
  private readonly counted = new WeakSet<Socket>();
  private total = 0;

  constructor(
    private readonly limits: Pick<HttpLimits, 'connectionsPerIp' | 'connectionsMax'>,
    private readonly front: FrontDoor,
  ) {}

  /** Put the budget in front of the server's own connection listeners (Node's HTTP parser setup). */
  install(server: Server): void {
    const listeners = server.listeners('connection') as ConnectionListener[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      // A socket handed back after an ignored upgrade (upgrades.ts) was counted when accepted.
      if (this.counted.has(socket) || this.admit(socket))
        for (const listener of listeners) listener.call(server, socket);
    });
  }

  private admit(socket: Socket): boolean {
    this.counted.add(socket);
    this.total++;
    socket.once('close', () => this.total--);
    const peer = socket.remoteAddress;
    if (this.total > this.limits.connectionsMax) {
      // No lingering here: at the total cap every socket held longer is one more over it. 429,
      // not 503: what one client can provoke is never a server error (the house rule for input).
      this.refuse(
        socket,
        429,
        `the server is at its limit of ${this.limits.connectionsMax} connections; retry shortly`,
        false,
      );
      return false;
    }
    if (this.front.isTrustedProxy(peer)) return true;
    const address = unmapped(peer ?? '');
    const held = this.perAddress.get(address) ?? 0;
    if (held >= this.limits.connectionsPerIp) {
      this.refuse(
        socket,
        429,
        `connection limit reached: at most ${this.limits.connectionsPerIp} open connections per IP`,
        true,
      );
      return false;
    }
    this.perAddress.set(address, held + 1);
    socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    return true;
  }

  private refuse(socket: Socket, status: 429, message: string, linger: boolean): void {
    withVerdict(this.front.judgePeer(socket.remoteAddress), (verdict) => {
      if (verdict.refusal !== null)
        return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers, linger);
      writeRawError(socket, status, message, { ...verdict.headers, 'retry-after': '1' }, linger);
    });
  }
}
