import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '@app/config';
import { reset, writeRawError } from './answers';
import { inFlightResponse, takeParserSetup } from './node-internals';
import { unmapped, withVerdict, type RequestGate } from './request-gate';

/** What the budget knows of one open HTTP connection when it must choose one to shed. */
export interface Holder {
  /** When it was accepted (performance.now()). */
  readonly acceptedAt: number;
  /** Bytes received from the client so far. */
  bytesRead(): number;
  /** A request received in full is being answered: never shed (nothing accepted is lost). */
  answering(): boolean;
}

/** A connection younger than this is never shed: a newcomer gets time to send its request. */
export const SHED_MIN_AGE_MS = 1000;
/** At most this many of the oldest connections are looked at to choose one (bounded work). */
export const SHED_SCAN = 256;

/** One admitted connection. */
interface Held extends Holder {
  readonly socket: Socket;
  /** Its per-address count, or null for a trusted proxy (budgeted only by the total). */
  readonly address: string | null;
}

/** Counts for the metrics. */
export interface ConnectionStats {
  readonly open: number;
  /** Connections reset to make room for a newcomer since start. */
  readonly shed: number;
}

/**
 * Open connections per client address (CONNECTIONS_MAX_PER_IP) and in all (CONNECTIONS_MAX),
 * counted when a connection is accepted, before any of its bytes is parsed, and released when it
 * closes; streams count too, they hold a socket. A connection over its address's budget gets one
 * answer through the gate at once (429) and is closed, so a client cannot hold more sockets than
 * its budget however slowly it sends. A trusted proxy carries many clients, so it is budgeted only
 * by the total; its clients are rate-limited by address.
 *
 * When the whole server is full, a newcomer is still served: the HTTP connection that has held its
 * slot longest while sending least (pickShed: a slow body, a stalled head, an idle keep-alive;
 * never one whose request is being answered, never a stream) is reset and the newcomer takes its
 * place. Only when no connection qualifies (all streams, answers in progress or younger than a
 * second) is the newcomer refused with 429.
 */
export class ConnectionBudget {
  private readonly perAddress = new Map<string, number>();
  /** Every admitted connection. */
  private readonly held = new Map<Socket, Held>();
  /** The admitted HTTP connections (not streams), oldest first: the ones that may be shed. */
  private readonly sheddable = new Map<Socket, Held>();
  private shedCount = 0;
  /** Refused sockets still open while their answer is read (at most a second each). */
  private lingering = 0;

  constructor(
    private readonly limits: Pick<HttpLimits, 'connectionsPerIp' | 'connectionsMax'>,
    private readonly gate: RequestGate,
  ) {}

  /** Put the budget in front of the server's own connection listeners (Node's HTTP parser setup). */
  install(server: Server): void {
    const parserSetup = takeParserSetup(server);
    server.on('connection', (socket: Socket) => {
      // A socket handed back after an ignored upgrade (node20-upgrade-replay.ts) was counted when accepted.
      if (this.held.has(socket) || this.admit(socket))
        for (const setup of parserSetup) setup.call(server, socket);
    });
  }

  /** The socket became a stream: it holds its slot for as long as it lasts and is never shed. */
  streamOpened(socket: Socket): void {
    this.sheddable.delete(socket);
  }

  stats(): ConnectionStats {
    return { open: this.held.size, shed: this.shedCount };
  }

  private admit(socket: Socket): boolean {
    const peer = socket.remoteAddress;
    const address = this.gate.isTrustedProxy(peer) ? null : unmapped(peer ?? '');
    const mine = address === null ? 0 : (this.perAddress.get(address) ?? 0);
    if (address !== null && mine >= this.limits.connectionsPerIp) {
      this.refuse(
        socket,
        `connection limit reached: at most ${this.limits.connectionsPerIp} open connections per IP`,
        true,
      );
      return false;
    }
    if (this.held.size >= this.limits.connectionsMax && !this.shedOne()) {
      // No lingering here: at the total cap every socket held longer is one more over it. 429,
      // not 503: what one client can provoke is never a server error (the house rule for input).
      this.refuse(
        socket,
        `the server is at its limit of ${this.limits.connectionsMax} connections; retry shortly`,
        false,
      );
      return false;
    }
    const held: Held = {
      socket,
      address,
      acceptedAt: performance.now(),
      bytesRead: () => socket.bytesRead,
      answering: () => {
        const res = inFlightResponse(socket);
        return res !== undefined && res.req.complete;
      },
    };
    this.held.set(socket, held);
    this.sheddable.set(socket, held);
    if (address !== null) this.perAddress.set(address, mine + 1);
    socket.once('close', () => this.release(held));
    return true;
  }

  /** Reset the connection that holds its slot longest while sending least; false when none may go. */
  private shedOne(): boolean {
    const victim = pickShed(this.sheddable.values(), performance.now());
    if (victim === null) return false;
    this.shedCount++;
    this.release(victim);
    reset(victim.socket);
    return true;
  }

  private release(h: Held): void {
    if (!this.held.delete(h.socket)) return;
    this.sheddable.delete(h.socket);
    if (h.address === null) return;
    const left = (this.perAddress.get(h.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(h.address, left);
    else this.perAddress.delete(h.address);
  }

  private refuse(socket: Socket, message: string, lingerWanted: boolean): void {
    // Refused sockets may linger only while they and the admitted ones fit in the total budget.
    const linger = lingerWanted && this.held.size + this.lingering < this.limits.connectionsMax;
    if (linger) {
      this.lingering++;
      socket.once('close', () => this.lingering--);
    }
    withVerdict(this.gate.judgePeer(socket.remoteAddress), (verdict) => {
      if (verdict.refusal !== null)
        return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers, linger);
      writeRawError(socket, 429, message, { ...verdict.headers, 'retry-after': '1' }, linger);
    });
  }
}

/**
 * The connection to shed when the server is full and a newcomer arrives (docs/api.md "Limits"):
 * among the SHED_SCAN oldest HTTP connections, those held at least SHED_MIN_AGE_MS and not being
 * answered, the one that has sent the fewest bytes per second held (slow bodies, stalled heads,
 * idle keep-alives), the oldest on ties; null when none qualifies. `holders` is oldest first.
 */
export function pickShed<T extends Holder>(holders: Iterable<T>, now: number): T | null {
  let best: T | null = null;
  let bestRate = Infinity;
  let looked = 0;
  for (const h of holders) {
    if (++looked > SHED_SCAN) break;
    const age = now - h.acceptedAt;
    // Oldest first: from here on every connection is younger still.
    if (age < SHED_MIN_AGE_MS) break;
    if (h.answering()) continue;
    const rate = h.bytesRead() / age;
    if (rate < bestRate) {
      best = h;
      bestRate = rate;
    }
  }
  return best;
}
